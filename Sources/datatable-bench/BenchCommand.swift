import ArgumentParser
import DataTableClient
import Foundation

/// Builds a large table in a real daemon and prints how long the table operations take, next to
/// the figures the product aims for.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datatable-bench",
        abstract: """
            Measure load, memory, sort, small commands and scrolling beside redis and SQLite, add, edit and \
            layout on a large table in a running daemon.
            """
    )

    @Option(help: "Rows in the generated table.")
    var rows = 1_000_000

    @Option(help: "Timed adds and edits (each one request and its reply).")
    var samples = 10_000

    @Option(help: "Seconds a path flips between a file and a FIFO while it is loaded and another client pings.")
    var raceSeconds = 20

    @Option(help: "A daemon's socket to measure; without it a daemon is started for the run.")
    var socket: String?

    @Option(
        help:
            "Measure only this after the load: watch (live windows under a write load), computed (computed columns), small (small commands and scrolling beside redis) or source (tables attached to PostgreSQL)."
    )
    var only: String?

    func validate() throws {
        if let only, !["watch", "computed", "small", "source"].contains(only) {
            throw ValidationError("--only takes watch, computed, small or source, not \(only).")
        }
    }

    mutating func run() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("datatable-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let daemon = socket == nil ? try BenchDaemon(directory: scratch) : nil
        defer { daemon?.stop() }
        let connection = try LineConnection(path: socket ?? daemon!.socketPath)
        let client = BenchClient(connection: connection)

        let csvPath = scratch.appendingPathComponent("stock.csv").path
        let csvBytes = try BenchData.writeCSV(rows: rows, to: csvPath)
        let table = "bench-\(getpid())"
        print(
            "datatable-bench: \(rows) rows × \(BenchData.columnCount) columns, CSV \(BenchReport.megabytes(csvBytes))"
        )

        var report = BenchReport()
        // The column engines first, with the machine to themselves (the daemon holds nothing yet).
        let (peers, peersNote) = only == nil ? ColumnEngineComparison.reference(csv: csvPath) : (nil, "")
        let before = try client.residentBytes()
        let load = try client.timed(
            #"{"id":1,"method":"load","params":{"table":"\#(table)","path":"\#(csvPath)","key":"sku"}}"#
        )
        report.add("load CSV (\(rows) rows)", BenchReport.duration(load), target: "< 3 s")
        let after = try client.residentBytes()
        let grown = after - before
        report.add(
            "memory: resident growth / CSV size",
            String(
                format: "%@ / %@ = %.2f×",
                BenchReport.megabytes(grown),
                BenchReport.megabytes(csvBytes),
                Double(grown) / Double(csvBytes)
            ),
            target: "< 2×"
        )
        if only == "computed" {
            try measureComputedColumns(client: client, table: table, restoreSort: "received", into: &report)
            report.print()
            return
        }
        if only == "source" {
            try SourceMeasurement(scratch: scratch, csvPath: csvPath, rows: rows, load: load).measure(into: &report)
            report.print()
            return
        }
        if only == "watch" {
            try WatchMeasurement(socketPath: socket ?? daemon!.socketPath, table: table, rows: rows)
                .measure(into: &report)
            report.print()
            return
        }
        // Small commands and scrolling beside redis, on the table sorted by a number.
        let references = ReferenceComparisons(
            socketPath: socket ?? daemon!.socketPath,
            table: table,
            rows: rows,
            samples: samples,
            scratch: scratch,
            csvPath: csvPath
        )
        if only == "small" {
            _ = try client.timed(sort(table, "qty"))
            try references.measure(into: &report)
            report.print()
            return
        }
        let (sent, pieces) = try Self.uploadLoad(csvPath: csvPath, table: "\(table)-sent", client: client)
        report.add(
            "load CSV sent with upload (\(pieces) pieces), vs the path",
            String(format: "%@ = %.2f×", BenchReport.duration(sent), sent / load),
            target: "≤ 1.3×"
        )
        _ = try client.timed(#"{"id":1,"method":"drop","params":{"table":"\#(table)-sent"}}"#)
        let byNumber = try client.timed(sort(table, "qty"))
        report.add("sort by a number column", BenchReport.duration(byNumber), target: "< 300 ms")
        let byText = try client.timed(sort(table, "item"))
        report.add("sort by a text column", BenchReport.duration(byText), target: "< 1 s")
        _ = try client.timed(sort(table, "qty"))
        try references.measure(into: &report)
        try measureStalls(
            socketPath: socket ?? daemon!.socketPath,
            table: table,
            csvPath: csvPath,
            scratch: scratch,
            into: &report
        )
        try measureFilters(client: client, table: table, into: &report)
        let ours = try ColumnEngineComparison(client: client, table: table, rows: rows)
            .measure(load: load, memory: Double(grown) / Double(csvBytes))
        ColumnEngineComparison.report(ours: ours, peers: peers, into: &report)
        report.note(peersNote)
        try WatchMeasurement(socketPath: socket ?? daemon!.socketPath, table: table, rows: rows).measure(into: &report)
        try SourceMeasurement(scratch: scratch, csvPath: csvPath, rows: rows, load: load).measure(into: &report)
        _ = try client.timed(sort(table, "received", descending: true))

        var adds: [Double] = []
        for sample in 0..<samples {
            let line =
                #"{"id":2,"method":"add","params":{"table":"\#(table)","row":\#(BenchData.rowJSON(rows + sample))}}"#
            adds.append(try client.timed(line))
        }
        report.add("add into the sorted table, p50 / p99", BenchReport.percentiles(adds), target: "p99 < 200 µs")

        var edits: [Double] = []
        var generator = SystemRandomNumberGenerator()
        for sample in 0..<samples {
            let sku = Int.random(in: 0..<rows, using: &generator)
            let line =
                #"{"id":3,"method":"edit","params":{"table":"\#(table)","id":"\#(BenchData.sku(sku))","column":"qty","value":\#(sample % 1000)}}"#
            edits.append(try client.timed(line))
        }
        report.add("edit one cell, p50 / p99", BenchReport.percentiles(edits), target: "")
        try measureComputedColumns(client: client, table: table, restoreSort: "received", into: &report)

        let layout = #"{"id":7,"method":"layout","params":{"table":"\#(table)","width":1440,"unit":"pt"}}"#
        let coldLayout = try client.timed(layout)
        report.add("first layout in pt (measures every row)", BenchReport.duration(coldLayout), target: "")
        var layouts: [Double] = []
        for sample in 0..<min(samples, 2_000) {
            // Each edit makes one item the widest (or takes that back), so the layout after it
            // has a new widest content to find.
            let sku = BenchData.sku(sample % 2)
            let item = String(repeating: "W", count: 60 + sample % 7)
            let edit =
                #"{"id":8,"method":"edit","params":{"table":"\#(table)","id":"\#(sku)","column":"item","value":"\#(item)"}}"#
            _ = try client.timed(edit)
            layouts.append(try client.timed(layout))
        }
        report.add("layout after an edit of the widest, p50 / p99", BenchReport.percentiles(layouts), target: "< 1 ms")
        try measureChanges(client: client, table: table, rows: rows, into: &report)
        let ping = (0..<samples).map { _ in (try? client.timed(#"{"id":4,"method":"ping"}"#)) ?? .nan }
        report.add("ping round trip, p50 / p99 (for scale)", BenchReport.percentiles(ping), target: "")
        _ = try client.timed(#"{"id":5,"method":"drop","params":{"table":"\#(table)"}}"#)
        if socket == nil {
            try measureRestore(csvPath: csvPath, scratch: scratch, into: &report)
            try AlterRestoreMeasurement().measure(scratch: scratch, into: &report)
        }
        report.print()
    }

    /// A daemon with a state directory loads the CSV (the log keeps the table whole), stops, and
    /// starts again: the time until it listens is the time to restore every row.
    private func measureRestore(csvPath: String, scratch: URL, into report: inout BenchReport) throws {
        let directory = scratch.appendingPathComponent("restore")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let arguments = ["--state-dir", directory.appendingPathComponent("state").path]
        let first = try BenchDaemon(directory: directory, arguments: arguments)
        let client = BenchClient(connection: try LineConnection(path: first.socketPath))
        let load = try client.timed(
            #"{"id":1,"method":"load","params":{"table":"stock","path":"\#(csvPath)","key":"sku"}}"#
        )
        report.add("load CSV with --state-dir (logged whole)", BenchReport.duration(load), target: "")
        // Each reply waits until its change is written to the log.
        let adds = try (0..<min(samples, 5_000)).map { sample in
            try client.timed(
                #"{"id":2,"method":"add","params":{"table":"stock","row":\#(BenchData.rowJSON(rows + sample))}}"#
            )
        }
        report.add("add with --state-dir (fsync everysec), p50 / p99", BenchReport.percentiles(adds), target: "")
        first.stop()
        let started = ContinuousClock.now
        let second = try BenchDaemon(directory: directory, arguments: arguments)
        let restored = ContinuousClock.now - started
        defer { second.stop() }
        let rowsBack = try BenchClient(connection: try LineConnection(path: second.socketPath)).residentBytes()
        _ = rowsBack
        report.add(
            "restart: restore \(rows) rows from --state-dir",
            BenchReport.duration(Double(restored.components.seconds) + Double(restored.components.attoseconds) / 1e18),
            target: "< 2 s"
        )
    }

    /// Long work on the large table while a second client scrolls a small one: the stall that
    /// client sees, and how long the exports take in each form.
    private func measureStalls(
        socketPath: String,
        table: String,
        csvPath: String,
        scratch: URL,
        into report: inout BenchReport
    ) throws {
        let stall = StallMeasurement(socketPath: socketPath, smallTable: "\(table)-small")
        try stall.setUp()
        let target = "p99 < 5 ms, worst < 20 ms"
        func add(_ what: String, _ figures: StallMeasurement.Figures) {
            report.add(
                "stall: scroll of a 100-row table while \(what) (\(BenchReport.duration(figures.seconds)))",
                StallMeasurement.describe(figures.latencies),
                target: target
            )
        }
        add("sorting by text", try stall.measure(sort(table, "item")))
        let export = try stall.measure(#"{"id":9,"method":"export","params":{"table":"\#(table)"}}"#)
        add("exporting", export)
        report.add("export \(rows) rows as CSV, in the reply", BenchReport.duration(export.seconds), target: "< 1 s")
        let file = scratch.appendingPathComponent("export.csv").path
        let toFile = try stall.measure(#"{"id":9,"method":"export","params":{"table":"\#(table)","path":"\#(file)"}}"#)
        report.add("export \(rows) rows as CSV, to a file", BenchReport.duration(toFile.seconds), target: "< 1 s")
        var chunks = 0
        let streamed = try stall.measure(#"{"id":9,"method":"export","params":{"table":"\#(table)","stream":true}}"#) {
            connection in
            while !LineConnection.isReply(try connection.nextLine()) { chunks += 1 }
        }
        report.add(
            "export \(rows) rows as CSV, streamed (\(chunks) notifications)",
            BenchReport.duration(streamed.seconds),
            target: "< 1 s"
        )
        add(
            "laying out in a new font",
            try stall.measure(
                #"{"id":9,"method":"layout","params":{"table":"\#(table)","width":1440,"unit":"pt","font":{"family":"DejaVu Serif"}}}"#
            )
        )
        let copy = "\(table)-copy"
        add(
            "loading \(rows) rows",
            try stall.measure(
                #"{"id":9,"method":"load","params":{"table":"\#(copy)","path":"\#(csvPath)","key":"sku"}}"#
            )
        )
        // Its first add finds every array full: growing them (O(n)) is done off the loop.
        add(
            "adding a row to the table just loaded",
            try stall.measure(
                #"{"id":9,"method":"add","params":{"table":"\#(copy)","row":\#(BenchData.rowJSON(rows))}}"#
            )
        )
        let race = try FIFORace(socketPath: socketPath, scratch: scratch, seconds: raceSeconds).measure()
        let sorted = race.pings.sorted()
        report.add(
            "ping while a path flips between a file and a FIFO under \(race.loads) loads (\(raceSeconds) s)",
            sorted.last.map {
                "p99 \(BenchReport.duration(sorted[min(sorted.count - 1, sorted.count * 99 / 100)])) / worst "
                    + "\(BenchReport.duration($0)) (\(sorted.count) pings)"
            } ?? "no pings",
            target: "worst < 50 ms"
        )
        let client = BenchClient(connection: try LineConnection(path: stall.socketPath))
        _ = try client.timed(#"{"id":5,"method":"drop","params":{"table":"\#(copy)"}}"#)
        _ = try client.timed(#"{"id":5,"method":"drop","params":{"table":"\#(stall.smallTable)"}}"#)
    }

    func sort(_ table: String, _ column: String, descending: Bool = false) -> String {
        #"{"id":6,"method":"sort","params":{"table":"\#(table)","keys":[{"column":"\#(column)","descending":\#(descending)}]}}"#
    }
}

extension BenchCommand {
    /// Loads the CSV as a client that may not name its path does: its text sent in `upload`
    /// pieces as `datatable load` sends them, then loaded. Returns the seconds from the first
    /// piece to the load's reply, and the pieces sent.
    static func uploadLoad(csvPath: String, table: String, client: BenchClient) throws -> (Double, Int) {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: csvPath)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let start = ContinuousClock.now
        var pieces = 0
        var offset = 0
        while offset < bytes.count {
            var end = min(bytes.count, offset + 128 * 1024)
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            let piece = String(decoding: bytes[offset..<end], as: UTF8.self)
            let text = String(decoding: try encoder.encode(piece), as: UTF8.self)
            _ = try client.timed(#"{"id":1,"method":"upload","params":{"table":"\#(table)","text":\#(text)}}"#)
            pieces += 1
            offset = end
        }
        _ = try client.timed(#"{"id":1,"method":"load","params":{"table":"\#(table)","upload":true,"key":"sku"}}"#)
        let elapsed = ContinuousClock.now - start
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, pieces)
    }
}

extension BenchCommand {
    /// Changes of the table's shape and their undo: a column added with a value in every row,
    /// and taken back; a thousand rows deleted, and brought back with their ids.
    func measureChanges(client: BenchClient, table: String, rows: Int, into report: inout BenchReport) throws {
        let add = try client.timed(
            #"{"id":9,"method":"alter","params":{"table":"\#(table)","add":[{"key":"zone"}],"values":{"zone":"north"}}}"#
        )
        report.add("alter: add a column with a value (\(rows) rows)", BenchReport.duration(add), target: "< 200 ms")
        let undoAdd = try client.timed(#"{"id":9,"method":"undo","params":{"table":"\#(table)"}}"#)
        report.add("undo of that alter", BenchReport.duration(undoAdd), target: "")
        let ids = (0..<1000).map { #""\#(BenchData.sku($0 * (rows / 1000)))""# }.joined(separator: ",")
        let delete = try client.timed(#"{"id":9,"method":"delete","params":{"table":"\#(table)","ids":[\#(ids)]}}"#)
        let undoDelete = try client.timed(#"{"id":9,"method":"undo","params":{"table":"\#(table)"}}"#)
        report.add(
            "delete 1000 rows / undo it (the rows come back)",
            "\(BenchReport.duration(delete)) / \(BenchReport.duration(undoDelete))",
            target: ""
        )
    }
}
