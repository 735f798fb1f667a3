import Foundation
import Glibc
import Testing

/// Logs as an administrator reads them: in journald with structured fields, or as `<N>` lines.
@Suite struct LoggingTests {
    @Test func underJournaldEntriesCarryStructuredFields() throws {
        try #require(
            journaldAnswers(),
            "no journald answers on /run/systemd/journal/socket: run scripts/start-journald (scripts/test does)"
        )
        let scratch = try Scratch()
        defer { scratch.remove() }
        let stderrPath = scratch.file("stderr")
        close(open(stderrPath, O_WRONLY | O_CREAT, 0o600))
        var info = stat()
        #expect(stat(stderrPath, &info) == 0)
        let path = scratch.file("d.sock")
        // JOURNAL_STREAM names the daemon's stderr, as systemd sets it for a service.
        let daemon = try RunningProcess(
            BuiltProducts.daemon,
            ["--socket", path, "--log-level", "debug"],
            environment: ["JOURNAL_STREAM": "\(info.st_dev):\(info.st_ino)"],
            outputPath: stderrPath
        )
        try daemon.waitForSocket(path)
        let client = try UnixClient(path: path)
        try client.send(#"{"id":1,"method":"ping"}"# + "\n")
        _ = try client.readLine()
        try client.send(#"{"id":2,"method":"create","params":{"table":"stock","columns":[{"key":"item"}]}}"# + "\n")
        _ = try client.readLine()
        try client.send(#"{"id":3,"method":"get","params":{"table":"stock","ids":["gone"]}}"# + "\n")
        _ = try client.readLine()

        var request: [String: Any]?
        var started: [String: Any]?
        var tableEntries: [[String: Any]] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while request == nil || started == nil || tableEntries.count < 2, ContinuousClock.now < deadline {
            let entries = try journalEntries(pid: daemon.pid)
            request = entries.first { $0["DATATABLED_METHOD"] as? String == "ping" }
            started = entries.first { ($0["MESSAGE"] as? String)?.contains("listening on \(path)") == true }
            // A request on a table, answered or refused, names it: journalctl DATATABLED_TABLE=stock.
            tableEntries = entries.filter { $0["DATATABLED_TABLE"] as? String == "stock" }
            usleep(100_000)
        }
        #expect(tableEntries.contains { $0["DATATABLED_METHOD"] as? String == "create" })
        #expect(tableEntries.contains { $0["DATATABLED_METHOD"] as? String == "get" && $0["DATATABLED_KIND"] != nil })
        let entry = try #require(request, "no journal entry for the ping request")
        #expect(entry["PRIORITY"] as? String == "7")
        #expect(entry["SYSLOG_IDENTIFIER"] as? String == "datatabled")
        #expect(entry["DATATABLED_CLIENT_PID"] as? String == String(getpid()))
        #expect(entry["DATATABLED_CLIENT_UID"] as? String == String(getuid()))
        #expect((entry["CODE_FILE"] as? String)?.hasSuffix(".swift") == true)
        #expect(Int(entry["CODE_LINE"] as? String ?? "") != nil)
        #expect((entry["CODE_FUNC"] as? String)?.isEmpty == false)
        let notice = try #require(started, "no journal entry for the start")
        #expect(notice["PRIORITY"] as? String == "5")

        #expect(daemon.stop() == 0, "\(daemon.output)")
        #expect(!daemon.output.contains("<7>"), "with the journal stream, logs go to journald, not stderr")
    }

    @Test func elsewhereStderrLinesCarryPriorityPrefixes() throws {
        let daemon = try TestDaemon(arguments: ["--log-level", "debug"])
        _ = try daemon.request(#"{"method":"ping"}"#)
        #expect(daemon.process.waitForOutput(containing: "<7>request"))
        let lines = daemon.process.output.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("<5>datatabled ") && $0.contains("listening on \(daemon.socketPath)") })
        let request = try #require(lines.first { $0.hasPrefix("<7>request") })
        #expect(request.contains("method=ping"))
        #expect(request.contains("client.pid=\(getpid())"))
        #expect(lines.allSatisfy { $0.hasPrefix("<") })
    }

    @Test func requestsAreNotLoggedAtTheDefaultLevel() throws {
        let daemon = try TestDaemon()
        _ = try daemon.request(#"{"method":"ping"}"#)
        _ = try daemon.request(#"{"method":"nope"}"#)
        #expect(daemon.process.stop() == 0, "\(daemon.process.output)")
        let output = daemon.process.output
        #expect(output.contains("listening on"))
        #expect(!output.contains("method=ping"))
        #expect(!output.contains("<7>"))
    }
}
