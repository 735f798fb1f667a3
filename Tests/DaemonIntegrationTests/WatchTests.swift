import DataTableProtocol
import Foundation
import TestSupport
import Testing

/// `watch`: a client that applies each `window` notification to its copy of the window holds
/// what a fresh `scroll` of the same view returns. Five views of one table (filtered, in
/// sections, scrolled down with overscan, following the bottom, frozen now and then) watch
/// while another connection makes random changes of every kind; after every change each
/// copy, built from the watch's reply and its deltas alone, must come to equal a fresh scroll.
@Suite struct WatchTests {
    /// One watching connection and the window it has built from what it was sent.
    final class Watcher {
        let client: UnixClient
        let name: String
        var id = 0
        var seq = 0
        var window: JSONValue = .null
        var frozen = false
        var deltas = 0
        /// The watch's rows carry their cells' values (`values: true`).
        let values: Bool

        init(_ client: UnixClient, name: String, values: Bool) {
            self.client = client
            self.name = name
            self.values = values
        }

        /// Sends `method` and returns its result (or error) as JSON; `window` notifications
        /// that come first are applied.
        func call(_ method: String, _ params: String) throws -> JSONValue {
            try client.send(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"# + "\n")
            while true {
                let message = try read()
                if message["id"] != nil { return message["result"] ?? message["error"] ?? .null }
            }
        }

        /// The next line, a `window` notification already applied.
        @discardableResult
        func read(timeout: Duration = .seconds(10)) throws -> JSONValue {
            try apply(try #require(try client.readLine(timeout: timeout), "\(name): the connection ended"))
        }

        /// Takes in a `watch` reply: the whole window, or a delta to what is held.
        func take(_ reply: JSONValue) throws {
            id = try #require(reply["watch"]?.intValue, "\(name): \(reply)")
            if let delta = reply["delta"] {
                let delta = try JSONDecoder().decode(WindowDelta.self, from: JSONEncoder().encode(delta))
                seq = delta.seq
                delta.apply(to: &window)
            } else if var members = reply.objectMembers {
                members.removeValue(forKey: "watch")
                window = .object(members)
            }
        }

        /// Reads notifications until the window held is `fresh`; false when it does not come to
        /// that within a few seconds.
        func converge(to fresh: JSONValue) throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(10)
            while window != fresh {
                guard ContinuousClock.now < deadline else { return false }
                guard let line = try? client.readLine(timeout: .milliseconds(200)) else { continue }
                try apply(line)
            }
            return true
        }

        /// The message on `line`; a `window` notification is applied to the window held, and
        /// must follow the one before it.
        @discardableResult
        private func apply(_ line: String) throws -> JSONValue {
            if ProcessInfo.processInfo.environment["WATCH_TRACE"] == name { print("\(name) <- \(line.prefix(600))") }
            let message = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            guard message["method"]?.stringValue == "window", let params = message["params"] else { return message }
            let delta = try JSONDecoder().decode(WindowDelta.self, from: JSONEncoder().encode(params))
            #expect(delta.watch == id)
            #expect(delta.seq == seq + 1, "\(name): delta \(delta.seq) after \(seq)")
            seq = delta.seq
            delta.apply(to: &window)
            deltas += 1
            return message
        }

        /// The view's window as `scroll` gives it now, without what a watch leaves out.
        func fresh(_ table: String) throws -> JSONValue {
            WindowDelta.watched(try call("scroll", #"{"table":"\#(table)","values":\#(values)}"#))
        }

        /// The ids of the rows held, in order.
        var rowIDs: [JSONValue] { window["rows"]?.arrayElements?.compactMap { $0["id"] } ?? [] }
    }

    static let views: [(name: String, setup: String?, watch: String)] = [
        ("plain", nil, #"{"table":"t","unit":"cell","viewport":{"width":60,"height":8},"maxRate":120}"#),
        (
            "filtered", #"{"table":"t","where":[{"column":"qty","op":">=","value":40}]}"#,
            #"{"table":"t","unit":"cell","viewport":{"width":50,"height":6},"maxRate":120,"values":true}"#
        ),
        (
            "sections", nil,
            #"{"table":"t","unit":"cell","viewport":{"width":60,"height":10},"sections":{"column":"grade"},"maxRate":120}"#
        ),
        (
            "scrolled", nil,
            #"{"table":"t","unit":"cell","viewport":{"width":40,"height":5,"y":6},"overscan":2,"maxRate":120,"values":true}"#
        ),
        (
            "follow", nil,
            #"{"table":"t","unit":"cell","viewport":{"width":60,"height":6},"follow":"bottom","maxRate":120}"#
        ),
        (
            "freezing", #"{"table":"t","search":"a"}"#,
            #"{"table":"t","unit":"cell","viewport":{"width":60,"height":7},"maxRate":120}"#
        ),
    ]

    /// `WATCH_SEED=N` runs seed N alone; `WATCH_TRACE=view` prints the changes and what that
    /// view's connection receives.
    @Test(arguments: [UInt64(2901), 2902, 2903, 2904, 2905])
    func everyWindowBuiltFromDeltasEqualsAFreshScroll(seed: UInt64) throws {
        if let only = ProcessInfo.processInfo.environment["WATCH_SEED"], UInt64(only) != seed { return }
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let rows = (0..<40).map {
            #"{"bin":"b\#($0)","item":"item \#($0)","qty":\#($0 * 7 % 100),"grade":"\#(["Low", "Mid", "High"][$0 % 3])"}"#
        }
        try writer.call(
            "create",
            #"{"table":"t","key":"bin","columns":[{"key":"bin"},{"key":"item"},{"key":"qty","type":"number"},{"key":"grade","type":"picker","options":["Low","Mid","High"]}],"rows":[\#(rows.joined(separator: ","))]}"#
        )
        var watchers: [Watcher] = []
        for view in Self.views {
            let watcher = Watcher(try daemon.connect(), name: view.name, values: view.watch.contains(#""values":true"#))
            if let setup = view.setup { _ = try watcher.call("filter", setup) }
            try watcher.take(try watcher.call("watch", view.watch))
            watchers.append(watcher)
        }
        var random = SeededRandom(seed: seed)
        var frozenRows: [JSONValue] = []
        var made = 0
        for step in 0..<2000 where made < 2000 {
            // One to five changes between two looks: the deltas merge what came in between.
            var (method, params) = ("", "")
            for _ in 0..<(1 + Int(random.next() % 5)) where made < 2000 {
                (method, params) = Self.change(&random, step: made)
                made += 1
                if ProcessInfo.processInfo.environment["WATCH_TRACE"] != nil {
                    print("change \(made): \(method) \(params)")
                }
                _ = try writer.call(method, params)
            }
            for watcher in watchers {
                if watcher.name == "freezing", step % 40 == 20 || step % 40 == 39 {
                    watcher.frozen = step % 40 == 20
                    try watcher.take(try watcher.call("watch", #"{"table":"t","freeze":\#(watcher.frozen)}"#))
                    frozenRows = watcher.rowIDs
                }
                // A scroll looks at the rows (rows added before it are no longer new to the view,
                // `newAbove`), and the watch's next window says so too: the second scroll is the
                // window the watch must come to.
                _ = try watcher.fresh("t")
                let fresh = try watcher.fresh("t")
                if watcher.frozen {
                    // The rows stay, in their order, whatever changes around them.
                    #expect(watcher.rowIDs == frozenRows, "seed \(seed) step \(step): a frozen window's rows moved")
                    continue
                }
                guard try watcher.converge(to: fresh) else {
                    let missing = Self.text(WindowDelta.between(watcher.window, fresh))
                    let place = "seed \(seed) step \(step) (\(method) \(params)), view \(watcher.name)"
                    Issue.record(
                        Comment(rawValue: "\(place): what a fresh scroll has that the window held lacks: \(missing)")
                    )
                    return
                }
            }
        }
        let deltas = watchers.map { "\($0.name) \($0.deltas)" }.joined(separator: ", ")
        print("watch, seed \(seed): \(made) changes, deltas per view: \(deltas)")
    }

    /// protocol.md's exchange of two clients (lines `A→`, `B→` and what each receives, `A←`,
    /// `B←`) runs as written against the demo table: each reply as shown (a result with the same
    /// members, or an error of the same kind), and each `window` notification shown arrives.
    @Test func theTwoClientExchangeInProtocolMdRunsAsWritten() throws {
        let lines = ProtocolExamplesTests.document.split(separator: "\n").map(String.init)
            .filter { ["A→ ", "B→ ", "A← ", "B← "].contains(String($0.prefix(3))) }
        try #require(lines.count >= 10, "protocol.md has \(lines.count) lines of the exchange")
        let daemon = try TestDaemon(arguments: ["--demo"])
        let clients = ["A": try daemon.connect(), "B": try daemon.connect()]
        var notified: [String: [String]] = ["A": [], "B": []]
        var index = 0
        while index < lines.count {
            let who = String(lines[index].prefix(1))
            let request = String(lines[index].dropFirst(3))
            try #require(lines[index].dropFirst(1).hasPrefix("→"), "protocol.md: \(lines[index])")
            index += 1
            var shown: [(who: String, line: String)] = []
            while index < lines.count, lines[index].dropFirst(1).hasPrefix("←") {
                shown.append((String(lines[index].prefix(1)), String(lines[index].dropFirst(3))))
                index += 1
            }
            let client = try #require(clients[who])
            try client.send(request + "\n")
            var reply: String?
            while reply == nil {
                let line = try #require(try client.readLine(timeout: .seconds(10)), "\(request): no reply")
                if line.hasPrefix(#"{"jsonrpc":"2.0","method""#) { notified[who]!.append(line) } else { reply = line }
            }
            for (listener, line) in shown {
                if line.hasPrefix(#"{"jsonrpc":"2.0","method""#) {
                    // A notification comes when its delta is due: wait for it (a few seconds at most).
                    let deadline = ContinuousClock.now + .seconds(10)
                    while notified[listener]!.isEmpty, ContinuousClock.now < deadline {
                        if let line = try? clients[listener]!.readLine(timeout: .milliseconds(100)) {
                            notified[listener]!.append(line)
                        }
                    }
                    #expect(!notified[listener]!.isEmpty, "\(request): no notification for \(listener)")
                    if !notified[listener]!.isEmpty { notified[listener]!.removeFirst() }
                } else {
                    let expected = ProtocolExamplesTests.Outcome(line)
                    let actual = ProtocolExamplesTests.Outcome(reply!)
                    #expect(
                        expected.admits(actual),
                        "\(request)\n  shown: \(expected)\n  got:   \(actual)\n  \(reply!)"
                    )
                }
            }
        }
    }

    static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "?"
    }

    /// One random change of every kind the table takes.
    static func change(_ random: inout SeededRandom, step: Int) -> (String, String) {
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        let bin = #""b\#(random.next() % 60)""#
        func row() -> String {
            #"{"bin":\#(bin),"item":"\#(pick(["a", "bb", "c"]))\#(step)","qty":\#(random.next() % 100),"grade":"\#(pick(["Low", "Mid", "High"]))"}"#
        }
        switch random.next() % 16 {
        case 0, 1, 2: return ("add", #"{"table":"t","rows":[\#(row())]}"#)
        case 3: return ("add", #"{"table":"t","rows":[\#(row()),\#(row())],"upsert":true}"#)
        case 4, 5, 6:
            return (
                "edit",
                #"{"table":"t","id":\#(bin),"column":"\#(pick(["qty", "item", "grade"]))","value":\#(pick([#""a\#(step)""#, "\(random.next() % 100)", #""High""#]))}"#
            )
        case 7, 8: return ("delete", #"{"table":"t","ids":[\#(bin)]}"#)
        case 9: return ("undo", #"{"table":"t"}"#)
        case 10: return ("redo", #"{"table":"t"}"#)
        case 11:
            return (
                "sort",
                random.next() % 3 == 0
                    ? #"{"table":"t","keys":[]}"#
                    : #"{"table":"t","keys":[{"column":"\#(pick(["qty", "item"]))","descending":\#(random.next() % 2 == 0)}]}"#
            )
        case 12: return ("select", #"{"table":"t","action":"toggle","ids":[\#(bin)]}"#)
        case 13:
            return random.next() % 2 == 0
                ? ("alter", #"{"table":"t","add":[{"key":"x\#(step)"}],"values":{"x\#(step)":"v"}}"#)
                : ("alter", #"{"table":"t","drop":["x\#(step - 1)"]}"#)
        case 14:
            let lines = (0..<(10 + random.next() % 20)).map { "b\($0 * 2),r\(step),\(random.next() % 100),Mid" }
            return (
                "load",
                #"{"table":"t","replace":true,"text":"bin,item,qty,grade\n\#(lines.joined(separator: "\\n"))\n"}"#
            )
        default: return ("edit", #"{"table":"t","id":\#(bin),"column":"qty","value":\#(random.next() % 100)}"#)
        }
    }
}
