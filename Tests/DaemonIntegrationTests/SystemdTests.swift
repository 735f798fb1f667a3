import DataTableClient
import DataTableProtocol
import Foundation
import Glibc
import Testing

/// Socket activation, sd_notify, the watchdog and graceful shutdown, against the real systemd
/// tools.
@Suite(
    .tags(.slow),
    .enabled(
        if: canRun(with: "systemd-socket-activate"),
        "systemd-socket-activate is not installed (apt install systemd)"
    )
)
struct SystemdTests {
    private func socketActivate() throws -> String {
        try #require(which("systemd-socket-activate"), "systemd-socket-activate is not installed (apt install systemd)")
    }

    /// The next line from `client`, read as a reply.
    private static func reply(_ client: UnixClient) throws -> ReplyMessage {
        let line = try #require(try client.readLine(), "the daemon closed the connection")
        return try JSONDecoder().decode(ReplyMessage.self, from: Data(line.utf8))
    }

    @Test func socketActivationServesTheInheritedSocketAndNeverUnlinksIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("activated.sock")
        let activator = try RunningProcess(
            try socketActivate(),
            ["-l", path, "--fdname=datatabled", BuiltProducts.daemon, "--log-target", "stderr"],
            outputPath: scratch.file("output.log")
        )
        try activator.waitForListener(path)
        let client = try UnixClient(path: path)
        // Two lines in one write: a shell-mode ping (no id, no "jsonrpc"), then a hello.
        let hello = try LineConnection.line(for: HelloRequest(), id: 2)
        try client.send(#"{"method":"ping"}"# + "\n" + hello + "\n")
        let pong = try Self.reply(client)
        #expect(try decoded(PingRequest.Response.self, from: #require(pong.result, "\(pong)")).pong)
        let helloed = try Self.reply(client)
        #expect(helloed.id == 2)
        #expect(
            try decoded(HelloRequest.Response.self, from: #require(helloed.result, "\(helloed)")).server
                == ServerInfo.name
        )
        #expect(activator.waitForOutput(containing: "inherited socket fd 3 (datatabled, \(path))"))

        #expect(activator.stop() == 0, "\(activator.output)")
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK, "the activated socket must stay")
    }

    @Test func aSecondConnectionToAnActivatedDaemonIsServedToo() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.file("activated.sock")
        let activator = try RunningProcess(
            try socketActivate(),
            ["-l", path, BuiltProducts.daemon, "--log-target", "stderr", "--socket", scratch.file("ignored.sock")],
            outputPath: scratch.file("output.log")
        )
        try activator.waitForListener(path)
        for id in 1...3 {
            let client = try UnixClient(path: path)
            let reply = try client.reply(toLine: LineConnection.line(for: PingRequest(), id: id))
            #expect(reply.id == .integer(Int64(id)) && reply.result == ["pong": true], "\(reply)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("ignored.sock")))
        #expect(activator.output.contains("ignoring --socket"))
        // Unnamed by the activator: named by its path, not as "unknown".
        #expect(activator.output.contains("inherited socket fd 3 (\(path))"), "\(activator.output)")
    }

    /// The daemon stand-alone with `NOTIFY_SOCKET` pointing at a socket the test reads.
    private final class NotifiedDaemon {
        let scratch: Scratch
        let notify: NotifySocket
        let socketPath: String
        let process: RunningProcess

        init(environment: [String: String] = [:], arguments: [String] = []) throws {
            scratch = try Scratch()
            notify = try NotifySocket(path: scratch.file("notify"))
            socketPath = scratch.file("d.sock")
            process = try RunningProcess(
                BuiltProducts.daemon,
                ["--socket", socketPath, "--log-target", "stderr"] + arguments,
                environment: environment.merging(["NOTIFY_SOCKET": notify.path], uniquingKeysWith: { $1 }),
                outputPath: scratch.file("output.log")
            )
        }

        deinit { scratch.remove() }
    }

    @Test func readyComesOnlyOnceTheSocketAnswersAndStoppingOnSIGTERM() throws {
        let notified = try NotifiedDaemon()
        let (notify, daemon, path) = (notified.notify, notified.process, notified.socketPath)
        let untilReady = try #require(notify.receive(until: "READY=1"), "no READY=1:\n\(daemon.output)")
        // The moment READY arrives, the socket answers.
        let client = try UnixClient(path: path)
        let reply = try client.reply(toLine: LineConnection.line(for: PingRequest(), id: 1))
        #expect(reply.id == 1 && reply.result == ["pong": true], "\(reply)")
        #expect(untilReady.last?.contains("STATUS=Listening on \(path)") == true)

        kill(daemon.pid, SIGTERM)
        let untilStopping = try #require(notify.receive(until: "STOPPING=1"), "no STOPPING=1:\n\(daemon.output)")
        #expect(untilStopping.last?.contains("STATUS=") == true)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
    }

    /// With a state directory, the tables are restored before READY=1, and STATUS= says so.
    @Test func tablesAreRestoredBeforeReady() throws {
        let state = try Scratch()
        defer { state.remove() }
        do {
            let first = try TestDaemon(arguments: ["--state-dir", state.path])
            try first.connect().send(numberedTable("kept", count: 5))
            #expect(first.process.stop() == 0)
        }
        let notified = try NotifiedDaemon(arguments: ["--state-dir", state.path])
        let untilReady = try #require(notified.notify.receive(until: "READY=1"), "\(notified.process.output)")
        #expect(untilReady.first?.contains("STATUS=Restoring tables from \(state.path)") == true)
        #expect(untilReady.contains { $0.contains("STATUS=Replaying") })
        // The moment READY arrives, the tables are there.
        let client = try UnixClient(path: notified.socketPath)
        #expect(try client.send(DescribeRequest(table: "kept")).rows == 5)
    }

    /// While a log is replayed, STATUS= says how many of its changes are in, and every such
    /// report extends systemd's start timeout (EXTEND_TIMEOUT_USEC=), so a long restore is not
    /// killed as a hung start.
    @Test func aRestoreReportsItsProgressAndExtendsTheStartTimeout() throws {
        let state = try Scratch()
        defer { state.remove() }
        var version: Int?
        do {
            let first = try TestDaemon(arguments: ["--state-dir", state.path])
            let client = try first.connect()
            try client.send(numberedTable("kept", count: 5))
            for step in 0..<40 {
                version = try client.send(AlterRequest(table: "kept", add: [ColumnDefinition(key: "c\(step)")])).version
            }
            #expect(first.process.stop() == 0)
        }
        let notified = try NotifiedDaemon(arguments: ["--state-dir", state.path])
        let untilReady = try #require(notified.notify.receive(until: "READY=1"), "\(notified.process.output)")
        let progress = untilReady.filter { $0.contains("STATUS=Replaying log.1: ") }
        #expect(progress.first?.contains("STATUS=Replaying log.1: 0 of 41 changes") == true, "\(untilReady)")
        #expect(progress.last?.contains("STATUS=Replaying log.1: 41 of 41 changes") == true, "\(untilReady)")
        // Not a message per change.
        #expect(progress.count < 41)
        let extended = "EXTEND_TIMEOUT_USEC=30000000"
        let starting = untilReady.filter { $0.contains("STATUS=Restoring") || $0.contains("STATUS=Replaying") }
        #expect(starting.count == progress.count + 1)
        #expect(starting.allSatisfy { $0.split(separator: "\n").contains(Substring(extended)) }, "\(starting)")
        let client = try UnixClient(path: notified.socketPath)
        #expect(try client.send(DescribeRequest(table: "kept")).version == version)
    }

    @Test func theWatchdogIsFedAtHalfItsInterval() throws {
        let notified = try NotifiedDaemon(environment: ["WATCHDOG_USEC": "400000"])
        let (notify, daemon) = (notified.notify, notified.process)
        _ = try #require(notify.receive(until: "READY=1"))
        let started = ContinuousClock.now
        var keepAlives = 0
        while keepAlives < 3, ContinuousClock.now - started < .seconds(5) {
            if notify.receive(timeout: .seconds(1))?.contains("WATCHDOG=1") == true { keepAlives += 1 }
        }
        let elapsed = ContinuousClock.now - started
        #expect(keepAlives == 3)
        // Three keep-alives at 200 ms each: well inside the 400 ms interval, not a busy loop.
        #expect(elapsed < .seconds(2))
        #expect(elapsed > .milliseconds(300))
        #expect(daemon.stop() == 0, "\(daemon.output)")
    }

    @Test func noWatchdogMeansNoKeepAlives() throws {
        let notified = try NotifiedDaemon()
        let (notify, daemon) = (notified.notify, notified.process)
        _ = try #require(notify.receive(until: "READY=1"))
        #expect(notify.receive(timeout: .milliseconds(600)) == nil)
        #expect(daemon.stop() == 0, "\(daemon.output)")
    }

    @Test func shutdownFinishesWhatWasReceivedAndClosesIdleConnections() throws {
        let daemon = try TestDaemon()
        let idle = try daemon.connect()
        let busy = try daemon.connect()
        let count = 2000
        var burst = ""
        for id in 0..<count { burst += try LineConnection.line(for: HelpRequest(), id: id) + "\n" }
        try busy.send(burst)
        #expect(try Self.reply(busy).id == 0)
        kill(daemon.process.pid, SIGTERM)

        // Every reply that comes is whole and in order; the stream ends cleanly.
        var expected = 1
        while let line = try busy.readLine() {
            let reply = try JSONDecoder().decode(ReplyMessage.self, from: Data(line.utf8))
            #expect(reply.id == .integer(Int64(expected)), "\(line)")
            expected += 1
        }
        #expect(try idle.readAll().isEmpty)
        #expect(daemon.process.waitForExit() == 0, "\(daemon.process.output)")
        #expect(daemon.process.output.contains("shutting down"))
    }
}
