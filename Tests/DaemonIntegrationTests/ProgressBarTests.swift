import Foundation
import Glibc
import Testing

/// `datatable load` and `export` in a real terminal show how far the daemon has got, from its
/// `progress` and `chunk` notifications; piped, they print only the result.
@Suite(
    .serialized,
    .enabled(if: canRun(with: "tmux"), "tmux is not installed (scripts/install-dependencies installs it)")
)
struct ProgressBarTests {
    /// A CSV of `rows` rows in `scratch`.
    static func csv(rows: Int, in scratch: Scratch) throws -> String {
        var text = "sku,item,qty\n"
        text.reserveCapacity(rows * 24)
        for row in 0..<rows { text += "SKU-\(row),part \(row % 977),\(row % 1000)\n" }
        let path = scratch.file("parts.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A bar line: `[###---]  40%  400,000 / 1,000,000 rows …`.
    static func isBar(_ line: String) -> Bool {
        line.hasPrefix("[#") && line.contains("%") && line.contains(" / ") && line.contains(" rows")
    }

    @Test(.tags(.slow)) func aLargeLoadShowsABarThenTheResult() throws {
        let daemon = try TestDaemon()
        let path = try Self.csv(rows: 1_000_000, in: daemon.scratch)
        let command = "\(BuiltProducts.client) load \(path) --table parts --socket \(daemon.socketPath)"
        let pane = try ViewerTests.Pane(daemon: daemon, columns: 120, rows: 10, command: command)
        var sawBar = false
        let done = try pane.screen(
            until: { lines in
                if lines.contains(where: Self.isBar) { sawBar = true }
                return lines.contains { $0.contains("loaded 1000000 rows into parts") }
            },
            timeout: .seconds(120)
        )
        #expect(sawBar, "no progress bar was seen: \(done)")
        #expect(done.contains { $0.contains("created parts; loaded 1000000 rows into parts") }, "\(done)")
        #expect(!done.contains(where: Self.isBar), "the bar stays after the result: \(done)")
    }

    @Test(.tags(.slow)) func pipedOutputHasNoBar() throws {
        let daemon = try TestDaemon()
        let path = try Self.csv(rows: 300_000, in: daemon.scratch)
        let load = try run(
            BuiltProducts.client,
            ["load", path, "--table", "parts", "--socket", daemon.socketPath]
        )
        #expect(load.status == 0)
        #expect(load.output == "created parts; loaded 300000 rows into parts (300000 now)\n", "\(load.output)")
        let exported = daemon.scratch.file("out.csv")
        let export = try run(
            BuiltProducts.client,
            ["export", "parts", "-o", exported, "--socket", daemon.socketPath]
        )
        #expect(export.status == 0)
        #expect(export.output == "datatable: Wrote 300000 rows to \(exported).\n", "\(export.output)")
        let written = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(written == (try String(contentsOfFile: path, encoding: .utf8)))
    }
}
