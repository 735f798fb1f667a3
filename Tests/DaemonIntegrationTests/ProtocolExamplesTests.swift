import DataTableProtocol
import Foundation
import Testing

/// Every `→` example in protocol.md, sent in the order the document gives them to one daemon
/// started as the README starts it: each is answered as its `←` lines say — a result with the
/// same members, or an error of the same kind, and the notifications shown before it.
@Suite struct ProtocolExamplesTests {
    /// One example: a request line and the lines shown after it.
    struct Example: CustomStringConvertible {
        var line: Int
        var request: String
        var shown: [String]
        var description: String { "protocol.md line \(line): \(request)" }
    }

    static let document: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return (try? String(contentsOf: url.appendingPathComponent("protocol.md"), encoding: .utf8)) ?? ""
    }()

    /// The line before a code block whose examples need a source (`--source`).
    static let needsSource = "<!-- needs a source:"

    /// The examples in order; with `needingASource`, those replayed by Tests/sources too.
    static func examples(needingASource: Bool = false) -> [Example] {
        var examples: [Example] = []
        // Replies belong to the request before them in the same code block. A block marked as
        // needing a source (a database the daemon attaches tables to) is replayed by
        // Tests/sources, where there is one.
        var open = false
        enum Skip { case none, marked, inside }
        var skip = Skip.none
        for (index, line) in document.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix(Self.needsSource) {
                if !needingASource { skip = .marked }
            } else if line.hasPrefix("```") {
                open = false
                switch skip {
                case .marked: skip = .inside
                case .inside: skip = .none
                case .none: break
                }
            } else if skip == .inside {
                continue
            } else if line.hasPrefix("→ ") {
                examples.append(Example(line: index + 1, request: String(line.dropFirst(2)), shown: []))
                open = true
            } else if line.hasPrefix("← "), open {
                examples[examples.count - 1].shown.append(String(line.dropFirst(2)))
            }
        }
        return examples
    }

    /// What a reply line says, as far as the examples pin it: result members (and the values
    /// of its true/false members) or error kind.
    enum Outcome: Equatable, CustomStringConvertible {
        case result(Set<String>?, flags: [String: Bool])
        case error(String?)

        init(_ line: String) {
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] {
                if let error = object["error"] as? [String: Any] {
                    self = .error((error["data"] as? [String: Any])?["kind"] as? String)
                } else {
                    let result = object["result"] as? [String: Any]
                    var flags: [String: Bool] = [:]
                    let typed = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
                    if case .object(let members)? = typed?["result"] {
                        for case (let name, .bool(let flag)) in members { flags[name] = flag }
                    }
                    self = .result(result.map { Set($0.keys) }, flags: flags)
                }
            } else if line.contains(#""error":"#) {
                // Shortened with "…": the kind, if it shows.
                let kind = line.range(of: #""kind":""#).map { line[$0.upperBound...].prefix { $0 != "\"" } }
                self = .error(kind.map(String.init))
            } else {
                self = .result(nil, flags: [:])
            }
        }

        /// Whether `actual` is what this shown outcome says (members are only compared when the
        /// shown line is whole JSON).
        func admits(_ actual: Outcome) -> Bool {
            switch (self, actual) {
            case (.result(let shown, let shownFlags), .result(let got, let gotFlags)):
                shown == nil || (shown == got && shownFlags == gotFlags)
            case (.error(let shown), .error(let got)): shown == nil || shown == got
            default: false
            }
        }

        var description: String {
            switch self {
            case .result(let keys, let flags):
                "result \(keys.map { $0.sorted().description } ?? "…") \(flags.sorted { $0.key < $1.key })"
            case .error(let kind): "error \(kind ?? "…")"
            }
        }
    }

    /// Every method has an example, so every method's reply is pinned by one.
    @Test func everyMethodHasAnExample() {
        let shown = Set(
            Self.examples(needingASource: true).compactMap { example -> String? in
                guard let start = example.request.range(of: #""method":""#) else { return nil }
                return String(example.request[start.upperBound...].prefix { $0 != "\"" })
            }
        )
        #expect(Set(MethodRegistry.all.map { $0.method }).subtracting(shown).isEmpty)
    }

    /// The replies protocol.md shows whole are each method's wire format, pinned: decoded as the
    /// method's `Response` type and encoded again, each comes out as written.
    @Test func everyWholeReplyShownIsTheResponseTypesOwnForm() throws {
        func roundTrip<Request: DataTableRequest>(_: Request.Type, _ result: JSONValue) throws -> JSONValue {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let decoded = try JSONDecoder().decode(Request.Response.self, from: encoder.encode(result))
            return try JSONDecoder().decode(JSONValue.self, from: encoder.encode(decoded))
        }
        var pinned: Set<String> = []
        for example in Self.examples(needingASource: true) {
            guard let start = example.request.range(of: #""method":""#) else { continue }
            let method = String(example.request[start.upperBound...].prefix { $0 != "\"" })
            guard let type = MethodRegistry.type(named: method) else { continue }
            for shown in example.shown where !shown.hasPrefix(#"{"jsonrpc":"2.0","method""#) {
                guard let reply = try? JSONDecoder().decode(JSONValue.self, from: Data(shown.utf8)),
                    let result = reply["result"]
                else { continue }
                let again = try roundTrip(type, result)
                #expect(again == result, "protocol.md line \(example.line) (\(method)): \(again)")
                pinned.insert(method)
            }
        }
        // Methods whose every example is shortened with "…" are pinned by their own tests.
        #expect(pinned.count >= 20, "\(pinned.sorted())")
        print("protocol.md pins the reply of \(pinned.count) of \(MethodRegistry.all.count) methods whole")
    }

    /// The trigger's SQL protocol.md shows is what `datatable source trigger public.parts --key id`
    /// prints.
    @Test func theTriggerShownIsTheOneTheClientPrints() throws {
        let start = try #require(Self.document.range(of: "```sql\n"))
        let end = try #require(Self.document.range(of: "```\n", range: start.upperBound..<Self.document.endIndex))
        let shown = String(Self.document[start.upperBound..<end.lowerBound])
        #expect(shown == ChangeTrigger.sql(relation: "public.parts", key: "id"))
    }

    /// The Python client has an error class for every kind the daemon answers with.
    @Test func thePythonClientKnowsEveryErrorKind() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let client = try String(
            contentsOf: url.appendingPathComponent("clients/python/datatable_client/__init__.py"),
            encoding: .utf8
        )
        let kinds = client.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix(#"@_kind(""#) else { return nil }
            return String(line.dropFirst(8).prefix { $0 != "\"" })
        }
        #expect(Set(kinds) == Set(ErrorKind.all.map(\.rawValue)))
    }

    @Test func everyExampleRunsAsWritten() throws {
        let examples = Self.examples()
        try #require(examples.count >= 30, "protocol.md has \(examples.count) examples")
        let daemon = try TestDaemon(arguments: ["--demo"])
        let client = try daemon.connect()
        for example in examples {
            try client.send(example.request + "\n")
            let replies = example.shown.filter { !$0.hasPrefix(#"{"jsonrpc":"2.0","method""#) }
            let notifications = example.shown.filter { $0.hasPrefix(#"{"jsonrpc":"2.0","method""#) }
            var received: [String] = []
            var answers: [String] = []
            while answers.count < max(replies.count, 1) {
                let line: String
                do {
                    guard let read = try client.readLine(timeout: .seconds(20)) else {
                        Issue.record("\(example): the connection closed")
                        return
                    }
                    line = read
                } catch {
                    Issue.record("\(example): \(error)")
                    return
                }
                if line.hasPrefix(#"{"jsonrpc":"2.0","method""#) { received.append(line) } else { answers.append(line) }
            }
            for (shown, answer) in zip(replies, answers) {
                let expected = Outcome(shown)
                let actual = Outcome(answer)
                #expect(expected.admits(actual), "\(example)\n  shown: \(expected)\n  got:   \(actual)\n  \(answer)")
            }
            for shown in notifications {
                let method = shown.split(separator: ",")[1]
                #expect(received.contains { $0.contains(method) }, "\(example): no \(method) notification")
            }
        }
    }
}
