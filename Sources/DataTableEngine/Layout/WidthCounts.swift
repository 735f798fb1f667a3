/// How many cells of one column have each width, so the widest is known after any change
/// without looking at the other rows. Empty cells (width 0) are not counted.
struct WidthCounts: Sendable {
    private var counts: [Int: Int] = [:]
    /// The widest width with a cell, 0 when none.
    private(set) var widest = 0

    /// Counts `times` more cells of `width`.
    mutating func add(_ width: Int, times: Int = 1) {
        guard width > 0, times > 0 else { return }
        counts[width, default: 0] += times
        if width > widest { widest = width }
    }

    mutating func remove(_ width: Int) {
        guard width > 0, let count = counts[width] else { return }
        if count > 1 {
            counts[width] = count - 1
            return
        }
        counts[width] = nil
        // The distinct widths are few (one per width a text can have), never one per row.
        if width == widest { widest = counts.keys.max() ?? 0 }
    }

    /// How many cells are wider than `width`.
    func count(widerThan width: Int) -> Int {
        guard width < widest else { return 0 }
        return counts.reduce(0) { $1.key > width ? $0 + $1.value : $0 }
    }
}
