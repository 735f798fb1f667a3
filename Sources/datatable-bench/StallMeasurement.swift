import DataTableClient
import Foundation
import Synchronization

/// The cross-table stall: how long a client of a small table waits for its `scroll` replies
/// while another client runs long work (a sort, an export, a load, a first layout) on the large
/// table. Tables are locked one by one and long work runs off the event loops, so the small
/// table's client should not notice.
struct StallMeasurement {
    let socketPath: String
    /// The small table the second client scrolls.
    let smallTable: String

    /// What one long request cost the other client.
    struct Figures {
        /// Scroll round trips measured while the long request ran.
        var latencies: [Double]
        /// How long the long request took.
        var seconds: Double
    }

    /// Creates the small table (100 rows).
    func setUp() throws {
        let rows = (0..<100).map { #"{"n":\#($0),"name":"row \#($0)"}"# }.joined(separator: ",")
        _ = try BenchClient(connection: LineConnection(path: socketPath)).timed(
            #"{"id":1,"method":"create","params":{"table":"\#(smallTable)","columns":[{"key":"n","type":"number"},{"key":"name"}],"rows":[\#(rows)]}}"#
        )
    }

    /// Runs `long` (one request line; `read` reads its reply, given the connection) while a
    /// second connection scrolls the small table one request at a time.
    func measure(_ long: String, read: (LineConnection) throws -> Void = { _ = try $0.nextReply() }) throws -> Figures {
        let running = Atomic(true)
        let started = Atomic(0)
        let latencies = Mutex<[Double]>([])
        let failure = Mutex<String?>(nil)
        let scroller = Thread { [socketPath, smallTable] in
            do {
                let client = BenchClient(connection: try LineConnection(path: socketPath))
                _ = try client.timed(
                    #"{"id":1,"method":"scroll","params":{"table":"\#(smallTable)","unit":"cell","viewport":{"width":80,"height":12}}}"#
                )
                var y = 0
                var measured: [Double] = []
                while running.load(ordering: .relaxed) {
                    y = (y + 7) % 90
                    let line = #"{"id":2,"method":"scroll","params":{"table":"\#(smallTable)","viewport":{"y":\#(y)}}}"#
                    let seconds = try client.timed(line)
                    if started.add(1, ordering: .relaxed).newValue > 20 { measured.append(seconds) }
                }
                latencies.withLock { $0 = measured }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            running.store(false, ordering: .relaxed)
        }
        scroller.start()
        // The scroller is warm before the long request starts.
        while started.load(ordering: .relaxed) <= 20, failure.withLock({ $0 }) == nil { usleep(1_000) }
        let connection = try LineConnection(path: socketPath)
        let start = ContinuousClock.now
        try connection.send(line: long)
        try read(connection)
        let elapsed = ContinuousClock.now - start
        running.store(false, ordering: .relaxed)
        while latencies.withLock({ $0.isEmpty }) && failure.withLock({ $0 }) == nil { usleep(1_000) }
        if let failure = failure.withLock({ $0 }) {
            throw BenchClient.Refused(description: "the scroller failed: \(failure)")
        }
        return Figures(
            latencies: latencies.withLock { $0 },
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
    }

    /// "p99 X / worst Y (N scrolls)".
    static func describe(_ latencies: [Double]) -> String {
        let sorted = latencies.sorted()
        guard let worst = sorted.last else { return "no scrolls" }
        let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        return "p99 \(BenchReport.duration(p99)) / worst \(BenchReport.duration(worst)) (\(sorted.count) scrolls)"
    }
}
