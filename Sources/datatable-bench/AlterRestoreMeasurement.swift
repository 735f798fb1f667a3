import DataTableClient
import Foundation

/// The restart after many one-column `alter`s of a wide table (issue #36: a restart must be
/// bounded by the log's size): a daemon with a state directory makes a table of `columns`
/// columns and renames one column at a time `alters` times, stops, and starts again; the time
/// until it listens is the time to replay the log.
struct AlterRestoreMeasurement {
    var columns = 10_000
    var alters = 10_000

    /// Makes the log and restarts on it; adds the time to make the alters and to restore.
    func measure(scratch: URL, into report: inout BenchReport) throws {
        let directory = scratch.appendingPathComponent("alters")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Compaction by time is off, so the restart replays every alter.
        let arguments = [
            "--state-dir", directory.appendingPathComponent("state").path, "--compact-after-seconds", "86400",
        ]
        let first = try BenchDaemon(directory: directory, arguments: arguments)
        let client = BenchClient(connection: try LineConnection(path: first.socketPath))
        let definitions = (0..<columns).map { #"{"key":"c\#($0)"}"# }.joined(separator: ",")
        _ = try client.timed(#"{"id":1,"method":"create","params":{"table":"wide","columns":[\#(definitions)]}}"#)
        var names = (0..<columns).map { "c\($0)" }
        let started = ContinuousClock.now
        for step in 0..<alters {
            let index = step * 7919 % columns
            let renamed = "r\(step)"
            _ = try client.timed(
                #"{"id":2,"method":"alter","params":{"table":"wide","rename":{"\#(names[index])":"\#(renamed)"}}}"#
            )
            names[index] = renamed
        }
        let made = ContinuousClock.now - started
        report.add(
            "alter: \(alters) one-column renames of a \(columns)-column table, each",
            BenchReport.duration(Self.seconds(made) / Double(alters)),
            target: ""
        )
        first.stop()
        let restarting = ContinuousClock.now
        let second = try BenchDaemon(directory: directory, arguments: arguments)
        let restored = ContinuousClock.now - restarting
        second.stop()
        report.add(
            "restart: replay \(alters) alters of a \(columns)-column table",
            BenchReport.duration(Self.seconds(restored)),
            target: "< 5 s"
        )
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
