import Foundation

/// The column engines (DuckDB and Polars, in-process from Python, no socket) on the benchmark's
/// own CSV, and the same work asked of datatabled over its socket: each figure beside theirs,
/// with ours divided by the faster one's. The engines run before the daemon loads anything, so
/// they have the machine to themselves; where they cannot be had the run says so and goes on.
struct ColumnEngineComparison {
    /// Seconds per piece of work, by engine (`duckdb`, `polars`); `memory` is resident growth
    /// over the CSV's size.
    typealias Figures = [String: [String: Double]]

    /// The pieces of work, by the key the reference script gives them, with what each does.
    static let work: [(key: String, name: String)] = [
        ("load", "load the CSV"),
        ("memory", "resident memory / CSV size"),
        ("sortNumber", "sort by a number, the 40 rows at 90%"),
        ("sortText", "sort by text, the 40 rows at 90%"),
        ("filter", "filter by a range and two values, count, first 40"),
        ("search", "search every column for a word"),
        ("group1", "group by a column with a count and a sum"),
        ("group2", "group by two columns (sum, avg, count, max) and a grand total"),
        ("distinct", "a text column's distinct values with counts"),
        ("distinctPrefix", "…those starting with a prefix"),
        ("edit", "edit one cell, then the 40 rows at 90% (median)"),
    ]

    /// Runs the reference script under the column engines' Python (scripts/bench puts both in
    /// `.build/column-engines`): their figures, or `nil`, and a note (their versions, or why
    /// they did not run).
    static func reference(csv: String) -> (Figures?, String) {
        let python = ".build/column-engines/bin/python3"
        let script = "scripts/bench-references/column_engines.py"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script)
        else {
            return (nil, "DuckDB and Polars are not installed in .build/column-engines (scripts/bench installs them)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, csv]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (nil, "the column engines' Python did not start") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let parsed = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        else { return (nil, "the column engines' script failed") }
        var figures: Figures = [:]
        var notes: [String] = []
        for (engine, values) in parsed.sorted(by: { $0.key < $1.key }) {
            if let error = values["error"] as? String { notes.append("\(engine) did not run (\(error))") }
            if let version = values["version"] as? String { notes.append("\(engine) \(version)") }
            figures[engine] = values.compactMapValues { $0 as? Double }
        }
        return (figures, "column engines, in-process from Python: " + notes.joined(separator: ", "))
    }

    let client: BenchClient
    let table: String
    let rows: Int

    /// Our figures for the same work, the load and memory already measured.
    func measure(load: Double, memory: Double) throws -> [String: Double] {
        var ours: [String: Double] = ["load": load, "memory": memory]
        let at = max(0, min(900_000, rows - 40))
        let window =
            #"{"id":31,"method":"scroll","params":{"table":"\#(table)","unit":"cell","to":{"index":\#(at),"align":"top"},"viewport":{"width":200,"height":41}}}"#
        func sorted(_ column: String) throws -> Double {
            try client.timed(
                #"{"id":30,"method":"sort","params":{"table":"\#(table)","keys":[{"column":"\#(column)"}]}}"#
            )
                + client.timed(window)
        }
        ours["sortNumber"] = try sorted("qty")
        ours["sortText"] = try sorted("item")
        let conditions =
            #"[{"column":"qty","op":"between","values":[100,600]},{"column":"grade","op":"in","values":["Low","High"]}]"#
        ours["filter"] =
            try client.timed(#"{"id":32,"method":"filter","params":{"table":"\#(table)","where":\#(conditions)}}"#)
            + client.timed(
                #"{"id":33,"method":"scroll","params":{"table":"\#(table)","unit":"cell","viewport":{"y":0,"width":200,"height":41}}}"#
            )
        ours["search"] = try client.timed(
            #"{"id":34,"method":"filter","params":{"table":"\#(table)","where":[],"search":"widget 12"}}"#
        )
        _ = try client.timed(#"{"id":35,"method":"filter","params":{"table":"\#(table)","where":[],"search":""}}"#)
        ours["group1"] = try client.timed(
            #"{"id":36,"method":"scroll","params":{"table":"\#(table)","viewport":{"y":0},"sections":{"column":"grade","aggregates":{"qty":"sum"}}}}"#
        )
        _ = try client.timed(#"{"id":37,"method":"scroll","params":{"table":"\#(table)","sections":{}}}"#)
        ours["group2"] = try client.timed(
            #"{"id":36,"method":"scroll","params":{"table":"\#(table)","viewport":{"y":0},"sections":{"columns":["rack","grade"],"aggregates":{"qty":["sum","count","max"],"weight":"avg"},"grandTotal":"bottom"}}}"#
        )
        _ = try client.timed(#"{"id":37,"method":"scroll","params":{"table":"\#(table)","sections":{}}}"#)
        ours["distinct"] = try client.timed(
            #"{"id":38,"method":"distinct","params":{"table":"\#(table)","column":"item","limit":100000}}"#
        )
        ours["distinctPrefix"] = try client.timed(
            #"{"id":39,"method":"distinct","params":{"table":"\#(table)","column":"item","prefix":"widget 12","limit":100000}}"#
        )
        _ = try client.timed(#"{"id":40,"method":"sort","params":{"table":"\#(table)","keys":[{"column":"qty"}]}}"#)
        var edits: [Double] = []
        for n in 0..<20 {
            let edit =
                #"{"id":41,"method":"edit","params":{"table":"\#(table)","id":"\#(BenchData.sku(n * 7919 % rows))","column":"qty","value":\#(n)}}"#
            edits.append(try client.timed(edit) + client.timed(window))
        }
        ours["edit"] = BenchReport.median(edits)
        return ours
    }

    /// Adds a line per piece of work: ours, DuckDB's, Polars', and ours over the faster one's.
    static func report(ours: [String: Double], peers: Figures?, into report: inout BenchReport) {
        let duck = peers?["duckdb"] ?? [:]
        let polars = peers?["polars"] ?? [:]
        func shown(_ value: Double?, _ key: String) -> String {
            guard let value else { return "–" }
            return key == "memory" ? String(format: "%.2f×", value) : BenchReport.duration(value)
        }
        for (key, name) in work {
            let mine = ours[key]
            let best = [duck[key], polars[key]].compactMap { $0 }.min()
            var figure = "\(shown(mine, key)) | DuckDB \(shown(duck[key], key)) | Polars \(shown(polars[key], key))"
            if let mine, let best, best > 0 { figure += String(format: " | %.2f×", mine / best) }
            let target =
                key == "edit"
                ? "far below the peers (they recompute)"
                : "≤ 1.0× the faster peer"
            report.add(name, figure, target: target)
        }
        // Summaries: the first grouping by two columns with its totals is held to Polars'
        // group_by().agg() of the same.
        if let mine = ours["group2"], let theirs = polars["group2"], theirs > 0 {
            report.add(
                "group by two columns with sum, avg, count, max and a grand total, ours / Polars'",
                String(
                    format: "%@ / %@ = %.2f×",
                    BenchReport.duration(mine),
                    BenchReport.duration(theirs),
                    mine / theirs
                ),
                target: "≤ 1.0× (no slower than Polars)"
            )
        }
    }
}
