import Foundation

/// The figures the brief sets against references, measured in one run: small commands beside
/// redis-benchmark, scrolling a 1,000,000-row table, deep scrolling beside SQLite.
struct ReferenceComparisons {
    let socketPath: String
    let table: String
    let rows: Int
    let samples: Int
    let scratch: URL
    let csvPath: String

    /// The concurrency settings of the small-command comparison: connections, requests in
    /// flight on each.
    static let settings: [(name: String, clients: Int, pipeline: Int)] = [
        ("1 client", 1, 1), ("50 clients", 50, 1), ("1 client, 16 pipelined", 1, 16),
    ]

    func measure(into report: inout BenchReport) throws {
        let (redis, missing) = RedisReference.start(in: scratch)
        defer { redis?.stop() }
        if let missing { report.note("redis: \(missing); the redis columns are left empty") }
        var redisFigures: [String: RedisReference.Figures] = [:]
        for setting in Self.settings {
            redisFigures[setting.name] = try redis?.measure(
                clients: setting.clients,
                pipeline: setting.pipeline,
                requests: max(100_000, samples * 10)
            )
        }

        var generator = SystemRandomNumberGenerator()
        let ping = [#"{"id":1,"method":"ping"}"#]
        let gets = (0..<1000).map { _ in
            let sku = BenchData.sku(Int.random(in: 0..<rows, using: &generator))
            return #"{"id":1,"method":"get","params":{"table":"\#(table)","ids":["\#(sku)"],"columns":["qty"]}}"#
        }
        for setting in Self.settings {
            let load = LoadGenerator(socketPath: socketPath, clients: setting.clients, pipeline: setting.pipeline)
            let total = samples * max(1, min(setting.clients, 5))
            let pings = try load.run(total: total, lines: ping)
            let cells = try load.run(total: total, lines: gets)
            let reference = redisFigures[setting.name]
            report.add(
                "ping, \(setting.name)",
                Self.versus(pings.throughput, reference?.ping, "PING"),
                target: "≥ 1.0× redis"
            )
            report.add(
                "get one cell, \(setting.name)",
                Self.versus(cells.throughput, reference?.get, "GET"),
                target: "≥ 1.0× redis"
            )
        }

        // Scroll: a 40-row window of the 8 columns in terminal cells, at random offsets.
        let setup =
            #"{"id":1,"method":"scroll","params":{"table":"\#(table)","unit":"cell","viewport":{"y":0,"width":200,"height":41}}}"#
        let scrolls = (0..<1000).map { _ in
            let y = Int.random(in: 0..<rows, using: &generator)
            return #"{"id":1,"method":"scroll","params":{"table":"\#(table)","viewport":{"y":\#(y)}}}"#
        }
        let single = try LoadGenerator(socketPath: socketPath, clients: 1, pipeline: 1)
            .run(total: samples, lines: scrolls, setup: setup)
        report.add(
            "scroll 40 rows × 8 columns at random y, 1 client, p50 / p99",
            BenchReport.percentiles(single.latencies),
            target: "p99 < 1 ms"
        )
        report.add("scroll, 1 client, throughput", BenchReport.rate(single.throughput), target: "")
        let many = try LoadGenerator(socketPath: socketPath, clients: 50, pipeline: 1)
            .run(total: samples * 5, lines: scrolls, setup: setup)
        report.add(
            "scroll, 50 clients, throughput",
            Self.versus(many.throughput, redisFigures["50 clients"].map { $0.get / 2 }, "GET / 2"),
            target: "≥ 1.0× (half of redis GET)"
        )

        // Deep scroll: the rows at position 900,000 of the table sorted by qty.
        let deepIndex = min(900_000, rows - 40)
        let deep =
            #"{"id":1,"method":"scroll","params":{"table":"\#(table)","to":{"index":\#(deepIndex),"align":"top"}}}"#
        let deepRun = try LoadGenerator(socketPath: socketPath, clients: 1, pipeline: 1)
            .run(total: min(samples, 2000), lines: [deep], setup: setup)
        let ours = BenchReport.median(deepRun.latencies)
        let sqlite = SQLiteReference.deepScroll(
            csv: csvPath,
            column: "qty",
            offset: deepIndex,
            repeats: 50,
            directory: scratch
        )
        if sqlite == nil { report.note("sqlite: python3's sqlite3 did not run; the SQLite column is left empty") }
        let figure =
            "\(BenchReport.duration(ours))"
            + (sqlite.map {
                " vs SQLite \(BenchReport.duration($0.median)) = \(String(format: "%.0f", $0.median / ours))×"
            } ?? "")
        report.add("deep scroll to row \(deepIndex) (sorted by qty), median", figure, target: "≥ 100× SQLite")
    }

    /// "ours/s vs redis NAME theirs/s = ratio×".
    static func versus(_ ours: Double, _ theirs: Double?, _ name: String) -> String {
        guard let theirs else { return BenchReport.rate(ours) }
        return "\(BenchReport.rate(ours)) vs redis \(name) \(BenchReport.rate(theirs)) = "
            + String(format: "%.2f×", ours / theirs)
    }
}
