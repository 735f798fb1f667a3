import DataTableProtocol
import Foundation
import Testing

/// The shell helper and the documented socat one-liners, run as a person would run them.
@Suite struct ShellClientTests {
    private static let repository = Repository.path

    private static var helper: String { repository + "/clients/shell/dt" }

    private func shell(_ script: String, socket: String, input: String? = nil) throws -> (status: Int32, output: String)
    {
        var environment = ProcessInfo.processInfo.environment
        environment["DATATABLED_SOCKET"] = socket
        environment["SOCK"] = socket
        return try run("/bin/sh", ["-c", script], environment: environment)
    }

    @Test func theHelperSendsAMethodAndPrintsTheReply() throws {
        let daemon = try TestDaemon()
        let result = try shell("\(Self.helper) ping", socket: daemon.socketPath)
        #expect(result.status == 0)
        #expect(result.output == #"{"id":null,"jsonrpc":"2.0","result":{"pong":true}}"# + "\n")
    }

    @Test func theHelperPassesParams() throws {
        let daemon = try TestDaemon()
        let result = try shell(#"\#(Self.helper) help '{"method":"hello"}'"#, socket: daemon.socketPath)
        #expect(result.status == 0)
        #expect(result.output.contains(#""name":"hello""#))
        #expect(!result.output.contains(#""name":"ping""#))
    }

    /// A listener that takes the request and never answers: the helper says so and exits 3,
    /// rather than printing an empty reply with status 0.
    @Test(.tags(.slow)) func theHelperFailsLoudlyWhenNoReplyComes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let socket = scratch.file("silent.sock")
        let silent = try RunningProcess(
            which("socat")!,
            ["UNIX-LISTEN:\(socket)", "SYSTEM:sleep 3"],
            outputPath: scratch.file("socat.log")
        )
        defer { _ = silent.stop() }
        try silent.waitForListener(socket)
        var environment = ProcessInfo.processInfo.environment
        environment["DATATABLED_SOCKET"] = socket
        environment["DT_TIMEOUT"] = "1"
        let result = try run("/bin/sh", ["-c", "\(Self.helper) ping"], environment: environment)
        #expect(result.status == 3, "\(result.output)")
        #expect(result.output.contains("no reply from datatabled within 1 s"))
    }

    @Test func theHelperExitsOneOnAnErrorReplyAndTwoWhenNobodyListens() throws {
        let daemon = try TestDaemon()
        let refused = try shell("\(Self.helper) no_such_method", socket: daemon.socketPath)
        #expect(refused.status == 1)
        #expect(refused.output.contains("unknown_method"))
        let unreachable = try shell("\(Self.helper) ping", socket: daemon.scratch.file("nobody.sock"))
        #expect(unreachable.status == 2)
        #expect(unreachable.output.contains("cannot reach datatabled"))
    }

    @Test func theHelperSendsLinesFromStandardInput() throws {
        let daemon = try TestDaemon()
        let result = try shell(
            #"printf '%s\n' '{"id":1,"method":"ping"}' '{"id":2,"method":"stats"}' | \#(Self.helper) -"#,
            socket: daemon.socketPath
        )
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(try object(String(lines[1]))["id"] as? Int == 2)
    }

    /// The `… | socat - UNIX-CONNECT:$SOCK` lines of one section of clients/README.md.
    private func socatLines(inSection heading: String) throws -> [String] {
        let readme = try String(contentsOfFile: Self.repository + "/clients/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## ").first { $0.hasPrefix(heading) })
        return section.split(separator: "\n").map(String.init).filter { $0.contains("| socat - UNIX-CONNECT:$SOCK") }
    }

    /// The table walk-through in clients/README.md, line by line, with the replies it promises.
    @Test func theDocumentedTableSessionDoesWhatItSays() throws {
        let lines = try socatLines(inSection: "A table from the shell")
        #expect(lines.count == 7)
        let daemon = try TestDaemon()
        var replies: [[String: Any]] = []
        for line in lines {
            let result = try shell(line, socket: daemon.socketPath)
            #expect(result.status == 0, "\(line)")
            replies.append(try object(result.output.trimmingCharacters(in: .newlines)))
        }
        let newest = (replies[2]["result"] as? [String: Any])?["added"] as? [[String: Any]]
        #expect(newest?.first?["index"] as? Int == 0)
        let refused = try #require(replies[3]["error"] as? [String: Any])
        #expect((refused["data"] as? [String: Any])?["kind"] as? String == "invalid_value")
        let row = try #require(((replies[4]["result"] as? [String: Any])?["rows"] as? [[String: Any]])?.first)
        let draft = (row["drafts"] as? [String: Any])?["day"] as? [String: Any]
        #expect(draft?["text"] as? String == "2024-02-30")
        #expect(draft?["error"] as? String == "2024-02-30 is not a day of the calendar.")
        #expect((replies[5]["result"] as? [String: Any])?["count"] as? Int == 3)
        #expect((replies[6]["result"] as? [String: Any])?["rows"] as? Int == 0)
    }

    /// Every one-liner in clients/README.md answers without an error.
    @Test func everyDocumentedOneLinerWorks() throws {
        let oneLiners = try socatLines(inSection: "One-liners")
        #expect(oneLiners.count >= 6)
        let daemon = try TestDaemon()
        for line in oneLiners {
            let result = try shell(line, socket: daemon.socketPath)
            #expect(result.status == 0, "\(line)")
            #expect(!result.output.isEmpty, "\(line)")
            #expect(!result.output.contains(#""error""#), "\(line): \(result.output)")
            for reply in result.output.split(separator: "\n") {
                #expect(
                    try JSONSerialization.jsonObject(with: Data(reply.utf8)) is [String: Any] || reply.hasPrefix("[")
                )
            }
        }
    }

    /// clients/README.md has a one-liner for every method the daemon has, and each of them, run
    /// in order against the demo table, answers without an error (but those that need a
    /// source, which Tests/sources runs).
    @Test func everyMethodHasAWorkingOneLiner() throws {
        let lines = try socatLines(inSection: "Every method")
        // Every method a line sends (a line may send several on one connection).
        let documented = Set(
            // (The lines that need a source are run by Tests/sources, where there is one.)
            (try socatLines(inSection: "One-liners") + lines + socatLines(inSection: "With a source")).flatMap {
                line -> [String] in
                line.components(separatedBy: #""method":""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
            }
        )
        #expect(documented == Set(MethodRegistry.all.map { $0.method }))
        let daemon = try TestDaemon(arguments: ["--demo"])
        for line in lines {
            let result = try shell(line, socket: daemon.socketPath)
            #expect(result.status == 0, "\(line)")
            #expect(!result.output.contains(#""error""#), "\(line): \(result.output)")
        }
    }
}
