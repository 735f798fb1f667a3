/// The columns an `alter` leaves, followed part by part as ``Table/alter(_:)`` checks them,
/// without copying the table's columns: the cost of checking an alteration is that of what it
/// changes, not of every column the table has (a log of thousands of one-column `alter`s on a
/// table of thousands of columns is replayed at every start).
///
/// The parts come in ``TableAlteration``'s order: new definitions and renames (which move no
/// column), then drops, then adds. A column is named by its index among the table's columns
/// (its `base` index) until the drops; a place among the columns as they are at that moment is
/// its working index.
struct PlannedColumns {
    private let base: [Column]
    private let baseIndex: [String: Int]
    /// New definitions and keys, by base index.
    private(set) var replaced: [Int: Column] = [:]
    /// Keys that name a column under another key than its own in `base` (renamed to), and the
    /// base keys that no longer name their column (renamed away or dropped).
    private var renamedTo: [String: Int] = [:]
    private var gone: Set<String> = []
    /// Base indices dropped, in ascending order.
    private var dropped: [Int] = []
    /// Columns added, each with its working index when it went in.
    private(set) var added: [(index: Int, column: Column)] = []
    private var addedKeys: Set<String> = []
    /// How many columns there are now.
    private(set) var count: Int

    init(columns: [Column], index: [String: Int]) {
        base = columns
        baseIndex = index
        count = columns.count
    }

    /// The base index of the column called `key` now (not one added), if it is still there.
    func baseIndex(of key: String) -> Int? {
        if let renamed = renamedTo[key] { return renamed }
        // A dropped column's key is gone too.
        guard !gone.contains(key) else { return nil }
        return baseIndex[key]
    }

    /// Whether a column (of the table, or added) is called `key` now.
    func contains(_ key: String) -> Bool {
        baseIndex(of: key) != nil || addedKeys.contains(key)
    }

    /// The column at base index `index` as it is now.
    func column(atBase index: Int) -> Column {
        replaced[index] ?? base[index]
    }

    /// The working index of the column at base index `index` (which is not dropped).
    func workingIndex(ofBase index: Int) -> Int {
        index - droppedBefore(index)
    }

    /// How many dropped base indices are below `index`, found by halving.
    private func droppedBefore(_ index: Int) -> Int {
        var low = 0
        var high = dropped.count
        while low < high {
            let middle = (low + high) / 2
            if dropped[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The column at base index `index` gets `column` (a new definition, or key).
    mutating func replace(atBase index: Int, with column: Column) {
        let old = self.column(atBase: index)
        if old.key != column.key {
            if renamedTo[old.key] == index { renamedTo[old.key] = nil } else { gone.insert(old.key) }
            renamedTo[column.key] = index
            gone.remove(column.key)
        }
        replaced[index] = column
    }

    /// The column at base index `index` goes; returns its working index before it went.
    mutating func drop(atBase index: Int) -> Int {
        let working = workingIndex(ofBase: index)
        let key = column(atBase: index).key
        if renamedTo[key] == index { renamedTo[key] = nil } else { gone.insert(key) }
        dropped.insert(index, at: droppedBefore(index))
        count -= 1
        return working
    }

    /// `column` goes in at working index `index` (from 0 to ``count``).
    mutating func add(_ column: Column, at index: Int) {
        added.append((index, column))
        addedKeys.insert(column.key)
        count += 1
    }

    /// Every column as the alteration leaves it, each with where it came from: built in
    /// O(columns), for the checks that look at all of them together.
    func materialized() -> [(column: Column, added: Int?, base: Int?)] {
        var columns: [(column: Column, added: Int?, base: Int?)] = []
        columns.reserveCapacity(count)
        let dropped = Set(self.dropped)
        for index in base.indices where !dropped.contains(index) {
            columns.append((column(atBase: index), nil, index))
        }
        for (offset, addition) in added.enumerated() {
            columns.insert((addition.column, offset, nil), at: addition.index)
        }
        return columns
    }
}
