import Foundation

/// The figures of a run, printed as a table beside their targets.
struct BenchReport {
    private var lines: [(String, String, String)] = []
    private var notes: [String] = []

    mutating func add(_ name: String, _ figure: String, target: String) {
        lines.append((name, figure, target))
    }

    /// A line printed under the table (a reference that could not run, and why).
    mutating func note(_ text: String) {
        notes.append(text)
    }

    func print() {
        let nameWidth = lines.map(\.0.count).max() ?? 0
        let figureWidth = lines.map(\.1.count).max() ?? 0
        Swift.print("")
        Swift.print(pad("measure", nameWidth) + "  " + pad("figure", figureWidth) + "  target")
        for (name, figure, target) in lines {
            Swift.print(pad(name, nameWidth) + "  " + pad(figure, figureWidth) + "  " + target)
        }
        for note in notes { Swift.print("note: " + note) }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    static func duration(_ seconds: Double) -> String {
        if seconds >= 1 { return String(format: "%.2f s", seconds) }
        if seconds >= 0.001 { return String(format: "%.1f ms", seconds * 1000) }
        return String(format: "%.0f µs", seconds * 1_000_000)
    }

    static func percentiles(_ samples: [Double]) -> String {
        let sorted = samples.filter { !$0.isNaN }.sorted()
        guard !sorted.isEmpty else { return "no samples" }
        func at(_ fraction: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] }
        return duration(at(0.5)) + " / " + duration(at(0.99))
    }

    /// `with`'s p50 / p99 beside `without`'s, and the ratio of their p99s: "a / b vs c / d = r×".
    static func percentilesBeside(_ with: [Double], _ without: [Double]) -> String {
        func p99(_ samples: [Double]) -> Double {
            let sorted = samples.filter { !$0.isNaN }.sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        }
        return percentiles(with) + String(format: " vs %@ = %.2f×", percentiles(without), p99(with) / p99(without))
    }

    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    /// Requests per second, in thousands.
    static func rate(_ perSecond: Double) -> String {
        String(format: "%.1f k/s", perSecond / 1000)
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
