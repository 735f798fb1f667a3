/// How many rows each section holds, in section order, with the rows before any section found
/// in O(log s) and the section holding a position found in O(log s) (a Fenwick tree over the
/// counts). Adding or dropping a whole section rebuilds it (O(s)).
struct SectionCounts: Sendable, Equatable {
    /// The counts, in section order.
    private(set) var counts: [Int] = []
    /// The Fenwick tree: `tree[i]` sums the counts of sections `i - (i & -i) ..< i` (1-based).
    private var tree: [Int] = [0]

    init(_ counts: [Int] = []) {
        self.counts = counts
        rebuild()
    }

    var sectionCount: Int { counts.count }

    /// Rows in sections `0 ..< section`.
    func rowsBefore(_ section: Int) -> Int {
        var sum = 0
        var index = section
        while index > 0 {
            sum += tree[index]
            index -= index & -index
        }
        return sum
    }

    /// Rows in every section.
    var total: Int { rowsBefore(counts.count) }

    /// The section holding row `position` (0 ..< total).
    func section(holding position: Int) -> Int {
        var index = 0
        var remaining = position
        var step = 1
        while step * 2 <= counts.count { step *= 2 }
        while step > 0 {
            let next = index + step
            if next <= counts.count, tree[next] <= remaining {
                index = next
                remaining -= tree[next]
            }
            step /= 2
        }
        return index
    }

    /// Adds `delta` rows to `section`.
    mutating func add(_ delta: Int, to section: Int) {
        counts[section] += delta
        var index = section + 1
        while index < tree.count {
            tree[index] += delta
            index += index & -index
        }
    }

    /// A new empty section at `section`.
    mutating func insertSection(at section: Int) {
        counts.insert(0, at: section)
        rebuild()
    }

    /// Drops `section` (it must be empty).
    mutating func removeSection(at section: Int) {
        counts.remove(at: section)
        rebuild()
    }

    private mutating func rebuild() {
        tree = [0] + counts
        for index in 1..<max(1, tree.count) {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] += tree[index] }
        }
    }
}
