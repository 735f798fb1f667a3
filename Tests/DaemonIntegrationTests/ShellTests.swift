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
