import DataTableClient
import Foundation
import Synchronization

/// Live windows under a write load: one writer edits random rows of the large table in batches
/// of 100 as fast as it can and adds 1,000 rows a second, first with nobody watching, then with
/// 50 connections each watching a different 40 × 8 window (some filtered, some in sections),
/// and a 51st that watches and never reads.
///
/// Reported: the writer's throughput with the watchers against without; from an edit's reply to
/// the first delta of a watch at that version or later (p50 / p99, at `maxRate` 30); the bytes a
/// watcher received against what re-scrolling its window at the same rate would have; the
/// daemon's memory for the watcher that never reads. With `BENCH_PLAIN_WATCHERS` set in the
/// environment no watcher filters or shows sections, which tells the cost of the watches from
/// the cost of keeping those views current. The filtered watchers all filter alike (views with
/// equal filters share their rows); with `BENCH_DISTINCT_FILTERS` set each filters by its own
/// bound.
struct WatchMeasurement {
    let socketPath: String
    let table: String
    let rows: Int
    var seconds = 10.0
    var watchers = 50

    /// What one run of the writer did.
    struct Writing {
        var batches = 0
        var seconds = 0.0
        /// When each version was acknowledged (seconds since the run started), in order.
        var acknowledged: [(version: Int, at: Double)] = []
    }

    func measure(into report: inout BenchReport) throws {
        // The writer alone is timed before the watchers come and again after they went, and
        // the two averaged: a busy machine's drift falls on both sides alike.
        let before = try write(for: seconds / 2)
        let setup = try LineConnection(path: socketPath)
        let baseline = try BenchClient(connection: setup).residentBytes()
        // The watchers, each on a connection of its own.
        var connections: [LineConnection] = []
        var scrollBytes: [Int] = []
        for index in 0..<watchers {
            let connection = try LineConnection(path: socketPath)
            if index % 5 == 1, ProcessInfo.processInfo.environment["BENCH_PLAIN_WATCHERS"] == nil {
                let bound = ProcessInfo.processInfo.environment["BENCH_DISTINCT_FILTERS"] == nil ? 500 : 450 + index
                _ = try connection.request(
                    #"{"id":1,"method":"filter","params":{"table":"\#(table)","where":[{"column":"qty","op":"<","value":\#(bound)}]}}"#
                )
            }
            let sections =
                index % 5 == 2 && ProcessInfo.processInfo.environment["BENCH_PLAIN_WATCHERS"] == nil
                ? #","sections":{"column":"grade"}"# : ""
            let y = (index * 7919) % max(1, rows - 10)
            let reply = try connection.request(
                #"{"id":2,"method":"watch","params":{"table":"\#(table)","unit":"cell","viewport":{"width":40,"height":8,"y":\#(y)}\#(sections),"maxRate":30}}"#
            )
            guard reply.contains(#""watch":"#) else { throw BenchClient.Refused(description: "watch: \(reply)") }
            scrollBytes.append(reply.utf8.count)
            connections.append(connection)
        }
        // One that watches and never reads.
        var stalled: LineConnection? = try LineConnection(path: socketPath)
        try stalled!.send(
            line:
                #"{"id":3,"method":"watch","params":{"table":"\#(table)","unit":"cell","viewport":{"width":40,"height":8}}}"#
        )
        let withStalled = try BenchClient(connection: setup).residentBytes()

        let started = ContinuousClock.now
        let received = Mutex<[(watcher: Int, version: Int, at: Double, bytes: Int)]>([])
        let stop = Atomic(false)
        let readers = DispatchGroup()
        for (index, connection) in connections.enumerated() {
            let reading = UncheckedConnection(connection)
            // A thread each: a queue's threads would wait their turn while others block in read.
            readers.enter()
            Thread.detachNewThread {
                defer { readers.leave() }
                while !stop.load(ordering: .relaxed) {
                    guard let line = try? reading.value.nextLine() else { return }
                    let at = Self.seconds(ContinuousClock.now - started)
                    guard line.hasPrefix(#"{"jsonrpc":"2.0","method":"window""#) else { continue }
                    let version = Self.version(in: line) ?? 0
                    received.withLock { $0.append((index, version, at, line.utf8.count + 1)) }
                }
            }
        }
        let watched = try write(for: seconds, started: started)
        stop.store(true, ordering: .relaxed)
        // Wake the readers: each connection closes.
        connections.removeAll()
        _ = readers.wait(timeout: .now() + 5)
        let after = try BenchClient(connection: setup).residentBytes()
        // The views went with their connections (the stalled one's too): the writer is alone again.
        stalled = nil
        try waitForViewsToGo(setup)
        let afterwards = try write(for: seconds / 2)

        let aloneRate =
            (Double(before.batches) / before.seconds + Double(afterwards.batches) / afterwards.seconds) / 2
        let ratio = Double(watched.batches) / watched.seconds / aloneRate
        report.add(
            "writer: 100-edit batches with \(watchers) watchers vs none (before / after)",
            String(
                format: "%@ vs %@ / %@ batches/s = %.2f×",
                BenchReport.rate(Double(watched.batches) / watched.seconds),
                BenchReport.rate(Double(before.batches) / before.seconds),
                BenchReport.rate(Double(afterwards.batches) / afterwards.seconds),
                ratio
            ),
            target: "≥ 0.8×"
        )
        let deltas = received.withLock { $0 }
        var latencies: [Double] = []
        for delta in deltas {
            // The edit at (or last before) the delta's version: from its reply to this delta.
            guard let acknowledged = watched.acknowledged.last(where: { $0.version <= delta.version }) else { continue }
            latencies.append(max(0, delta.at - acknowledged.at))
        }
        report.add(
            "watch: reply of the newest edit a delta carries to the delta, p50 / p99 (maxRate 30)",
            BenchReport.percentiles(latencies),
            target: "p99 < 50 ms"
        )
        let perWatcher = Dictionary(grouping: deltas, by: \.watcher).mapValues { $0.reduce(0) { $0 + $1.bytes } }
        let rescrolled = Dictionary(grouping: deltas, by: \.watcher).map { watcher, list in
            list.count * scrollBytes[watcher]
        }.reduce(0, +)
        let sent = perWatcher.values.reduce(0, +)
        report.add(
            "watch: bytes sent per watcher vs re-scrolling at the same rate",
            String(
                format: "%@ vs %@ = %.2f× (%d deltas)",
                BenchReport.megabytes(sent / max(1, perWatcher.count)),
                BenchReport.megabytes(rescrolled / max(1, perWatcher.count)),
                Double(sent) / Double(max(1, rescrolled)),
                deltas.count
            ),
            target: "≤ 0.25×"
        )
        report.add(
            "watch: daemon memory for the \(watchers + 1) watches and their views (at start / after the run)",
            "\(BenchReport.megabytes(withStalled - baseline)) / \(BenchReport.megabytes(after - baseline))",
            target: "< 1 MB for the one that never reads"
        )
    }

    /// Waits (up to 5 s) until the daemon holds no connection but `setup`, so the views of the
    /// closed ones are gone.
    private func waitForViewsToGo(_ setup: LineConnection) throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let stats = try setup.request(#"{"id":9,"method":"stats"}"#)
            if let range = stats.range(of: #""current":"#),
                Int(stats[range.upperBound...].prefix { $0.isNumber }) == 1
            {
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// The writer: for `seconds`, batches of 100 edits of random rows as fast as it can, and
    /// 1,000 rows added a second (ten at a time).
    private func write(for seconds: Double, started: ContinuousClock.Instant = .now) throws -> Writing {
        let connection = try LineConnection(path: socketPath)
        var writing = Writing()
        var generator = SystemRandomNumberGenerator()
        let begin = ContinuousClock.now
        var added = 0
        while Self.seconds(ContinuousClock.now - begin) < seconds {
            let edits = (0..<100).map { _ in
                #"{"id":"\#(BenchData.sku(Int.random(in: 0..<rows, using: &generator)))","column":"qty","value":\#(Int.random(in: 0..<1000, using: &generator))}"#
            }
            let reply = try connection.request(
                #"{"id":1,"method":"edit","params":{"table":"\#(table)","edits":[\#(edits.joined(separator: ","))]}}"#
            )
            writing.batches += 1
            if let version = Self.version(in: reply) {
                writing.acknowledged.append((version, Self.seconds(ContinuousClock.now - started)))
            }
            let due = Int(Self.seconds(ContinuousClock.now - begin) * 1000)
            while added + 10 <= due {
                let rows = (0..<10).map { BenchData.rowJSON(self.rows * 2 + added + $0) }
                _ = try connection.request(
                    #"{"id":2,"method":"add","params":{"table":"\#(table)","rows":[\#(rows.joined(separator: ","))]}}"#
                )
                added += 10
            }
        }
        writing.seconds = Self.seconds(ContinuousClock.now - begin)
        return writing
    }

    /// The `"version":N` of a reply or notification line (the last one, the window's own).
    static func version(in line: String) -> Int? {
        guard let range = line.range(of: #""version":"#, options: .backwards) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// A connection handed to the thread that reads it (and to no other).
private struct UncheckedConnection: @unchecked Sendable {
    let value: LineConnection
    init(_ value: LineConnection) { self.value = value }
}
