import DataTableProtocol
import Foundation

/// A progress bar on stderr for long work the daemon reports on (a load's `progress`, a streamed
/// export's `chunk`): done of total, the rate and the time left. Drawn only when stderr is a
/// terminal, at most ten times a second; silent otherwise, so scripts see only the result.
final class ProgressBar {
    private let noun: String
    private let enabled: Bool
    private let started = Date()
    private var lastDrawn: Date?
    private var drawn = false

    /// A bar counting `noun`s ("row"); `enabled` false draws nothing (say, with `--json`).
    init(counting noun: String, enabled: Bool = true) {
        self.noun = noun
        self.enabled = enabled && isatty(STDERR_FILENO) == 1
    }

    /// Shows `done` of `total`.
    func update(done: Int, total: Int) {
        guard enabled else { return }
        let now = Date()
        if let lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1, done < total { return }
        lastDrawn = now
        let width = Output.terminalSize(of: STDERR_FILENO)?.columns ?? 80
        let line = Self.line(
            done: done,
            total: total,
            elapsed: now.timeIntervalSince(started),
            noun: noun,
            width: width
        )
        FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8))
        drawn = true
    }

    /// Takes the bar off the screen (before the result is printed).
    func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }

    /// The bar's text for `width` columns: `[#####-----]  45%  450,000 / 1,000,000 rows  210,000
    /// rows/s  ETA 3 s` (the parts that do not fit are left out, the bar first).
    static func line(done: Int, total: Int, elapsed: Double, noun: String, width: Int) -> String {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let percent = String(format: "%3.0f%%", fraction * 100)
        let counts = "\(grouped(done)) / \(grouped(total)) \(noun)s"
        var tail = ""
        if elapsed > 0.2, done > 0 {
            let rate = Double(done) / elapsed
            tail = "  \(grouped(Int(rate))) \(noun)s/s"
            if done < total { tail += "  ETA \(duration(Double(total - done) / rate))" }
        }
        let text = "\(percent)  \(counts)\(tail)"
        let room = width - text.count - 4
        guard room >= 10 else { return String(text.prefix(max(0, width - 1))) }
        let barWidth = min(40, room)
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "] "
            + text
    }

    /// `1234567` as "1,234,567".
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(abs(number)))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }

    /// Seconds as "42 s", "3 min 5 s" or "1 h 2 min".
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }

    /// For ``DaemonSession/send(_:quiet:notified:)``: shows a load's `progress` notifications.
    func loadProgress(_ method: String, _ params: [String: JSONValue]) {
        guard method == "progress", let done = params["done"]?.intValue, let total = params["total"]?.intValue else {
            return
        }
        update(done: done, total: total)
    }
}
