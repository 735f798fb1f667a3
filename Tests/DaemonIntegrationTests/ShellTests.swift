import Foundation
import Glibc
import Testing

/// `datatable shell` in a real terminal (tmux): completion asks the daemon for table names,
/// `help METHOD` lists the method's params; piped, it reads one request per line.
@Suite(
    .serialized,
    .enabled(if: canRun(with: "tmux"), "tmux is not installed (scripts/install-dependencies installs it)")
)
struct ShellTests {
    static func shell(_ daemon: TestDaemon) -> String {
        "\(BuiltProducts.client) shell --socket \(daemon.socketPath) --history ''"
    }

    @Test func tabCompletesATableNameAndHelpListsParams() throws {
        let daemon = try TestDaemon(arguments: ["--demo"])
        let pane = try ViewerTests.Pane(daemon: daemon, columns: 110, rows: 60, command: Self.shell(daemon))
        _ = try pane.screen(until: { $0.contains { $0.hasPrefix("datatable>") } })
        try pane.keys("get tab", "Tab")
        let param = try pane.screen(until: { $0.contains { $0.hasPrefix("datatable> get table=") } })
        #expect(param.contains { $0.hasPrefix("datatable> get table=") }, "\(param)")
        try pane.keys("st", "Tab")
        // (tmux leaves out the space completion adds after the name.)
        let table = try pane.screen(until: { $0.contains("datatable> get table=stock") })
        #expect(table.contains("datatable> get table=stock"), "\(table)")
        try pane.keys("count=1", "Enter")
        let reply = try pane.screen(until: { $0.contains { $0.contains(#""total" : 10"#) } })
        #expect(reply.contains { $0.contains(#""total" : 10"#) }, "\(reply)")

        try pane.keys("help scroll", "Enter")
        let help = try pane.screen(until: { $0.contains { $0.hasPrefix("columnOrder") } })
        #expect(help.contains { $0.hasPrefix("viewport") && $0.contains("object (x, y, width, height)") }, "\(help)")
        #expect(help.contains { $0.hasPrefix("table") && $0.contains("required") }, "\(help)")
    }

    /// At 120 columns: `help` fits the terminal and names quit and clear, a `scroll` is drawn as
    /// `datatable scroll` draws it, and `clear` alone clears the screen.
    @Test func helpFitsScrollIsDrawnAndClearClearsTheScreen() throws {
        let daemon = try TestDaemon(arguments: ["--demo"])
        let pane = try ViewerTests.Pane(daemon: daemon, columns: 120, rows: 60, command: Self.shell(daemon))
        _ = try pane.screen(until: { $0.contains { $0.hasPrefix("datatable>") } })
        try pane.keys("help", "Enter")
        _ = try pane.screen(until: { $0.contains { $0.contains("Ctrl-D leaves") } })
        let help = try pane.screen(joined: true)
        #expect(help.contains { $0.contains("clear clears the screen; quit, exit or Ctrl-D leaves") }, "\(help)")
        let tooWide = help.filter { $0.count > 120 }
        #expect(tooWide.isEmpty, "lines the terminal had to wrap: \(tooWide)")
        // A summary too long for the line goes on under itself.
        #expect(help.contains { $0.hasPrefix("            ") && !$0.trimmingCharacters(in: .whitespaces).isEmpty })

        try pane.keys("clear", "Enter")
        let cleared = try pane.screen(until: { !$0.contains { $0.contains("Ctrl-D leaves") } })
        #expect(cleared.first?.hasPrefix("datatable>") == true, "\(cleared)")

        try pane.keys("scroll table=stock viewport.height=5", "Enter")
        // The table is drawn line by line: wait for the first row under the header, not the header alone.
        let drawn = try pane.screen(until: { lines in
            guard let header = lines.firstIndex(where: { $0.contains("Item") && $0.contains("Rack") }) else {
                return false
            }
            return header + 1 < lines.count && !lines[header + 1].isEmpty
        })
        let header = try #require(drawn.firstIndex { $0.contains("Item") && $0.contains("Rack") }, "\(drawn)")
        #expect(drawn[header + 1].hasPrefix("[ ]"), "\(drawn)")
        #expect(!drawn.contains { $0.contains(#""rows""#) }, "\(drawn)")
    }

    /// Whatever signals it was started with blocked, the shell ends when its terminal goes.
    @Test(.enabled(if: canRun(with: "python3"), "python3 is not installed"))
    func theShellEndsWhenItsTerminalCloses() throws {
        let daemon = try TestDaemon(arguments: ["--demo"])
        let pidFile = daemon.scratch.file("shell.pid")
        let blocked =
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP, signal.SIGTERM}); "
            + "os.execv(sys.argv[1], sys.argv[1:])"
        let command =
            "echo $$ > \(pidFile); exec python3 -c '\(blocked)' \(BuiltProducts.client) shell --socket "
            + "\(daemon.socketPath) --history ''"
        let pane = try ViewerTests.Pane(daemon: daemon, columns: 100, rows: 20, command: command)
        _ = try pane.screen(until: { $0.contains { $0.hasPrefix("datatable>") } })
        let pid = try #require(
            Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
        )
        _ = ViewerTests.Pane.spawn(pane.tmux, ["-L", pane.server, "kill-server"])
        let deadline = ContinuousClock.now + .seconds(10)
        while Self.isRunning(pid), ContinuousClock.now < deadline { usleep(50_000) }
        #expect(!Self.isRunning(pid), "the shell (pid \(pid)) outlived its terminal")
    }

    /// Whether `pid` is a process that has not ended (a zombie has).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        return !status.contains("State:\tZ")
    }

    @Test func pipedLinesAreRequestsInOrder() throws {
        let daemon = try TestDaemon(arguments: ["--demo"])
        let input = [
            "ping",
            #"get table=stock ids=[5] columns=["qty"]"#,
            #"create {"table":"bins","columns":[{"key":"bin","type":"text"}]}"#,
            "add table=bins row.bin='A 1'",
            "get table=bins",
            "get table=nope",
            "sort table=stock keys",
        ].joined(separator: "\n")
        let result = try run(
            "/bin/sh",
            ["-c", "printf '%s\\n' \"$INPUT\" | \(Self.shell(daemon))"],
            environment: ProcessInfo.processInfo.environment.merging(["INPUT": input], uniquingKeysWith: { $1 })
        )
        #expect(result.status == 0, "\(result.output)")
        let output = result.output
        #expect(output.contains(#""pong" : true"#), "\(output)")
        #expect(output.contains(#""qty" : 3"#), "\(output)")
        #expect(output.contains(#""bin" : "A 1""#), "\(output)")
        #expect(output.contains("(error) There is no table \"nope\""), "\(output)")
        #expect(output.contains("(error) Give params as name=value (or one JSON object), not keys."), "\(output)")
    }

    /// The bash completion script `datatable --generate-completion-script bash` prints completes
    /// a table name and a column key by asking the daemon, in a real bash.
    @Test func bashCompletesTableAndColumnNamesFromTheDaemon() throws {
        let daemon = try TestDaemon(arguments: ["--demo"])
        let script = daemon.scratch.file("datatable.bash")
        let generated = try run(BuiltProducts.client, ["--generate-completion-script", "bash"])
        try generated.output.write(toFile: script, atomically: true, encoding: .utf8)
        let directory = URL(fileURLWithPath: BuiltProducts.client).deletingLastPathComponent().path
        let command =
            "env -i PATH=\(directory):/usr/bin:/bin TERM=xterm DATATABLED_SOCKET=\(daemon.socketPath) "
            + "bash --norc --noprofile"
        let pane = try ViewerTests.Pane(daemon: daemon, columns: 120, rows: 20, command: command)
        try pane.keys("source \(script)", "Enter")
        try pane.keys("datatable get st", "Tab")
        let table = try pane.screen(until: { $0.contains { $0.hasSuffix("datatable get stock") } })
        #expect(table.contains { $0.hasSuffix("datatable get stock") }, "\(table)")
        try pane.keys(" --column ", "Tab", "Tab")
        let columns = try pane.screen(until: { $0.contains { $0.contains("received") && $0.contains("qty") } })
        #expect(columns.contains { $0.contains("received") && $0.contains("qty") }, "\(columns)")
    }
}
