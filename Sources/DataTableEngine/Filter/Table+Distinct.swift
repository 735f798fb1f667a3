import TextMeasure

/// A column's different values and how many rows hold each (``Table/distinctValues(of:admitting:prefix:byCount:limit:)``).
public struct DistinctValues: Sendable {
    /// The values, in the order asked for, at most the limit.
    public var values: [(value: CellValue, text: String, count: Int)]
    /// How many different values match the prefix (before the limit).
    public var distinct: Int
    /// How many rows were counted (those the filter admits).
    public var rows: Int
}

extension Table {
    /// The different values of `column` among the rows `filter` admits (every row without one),
    /// each with how many of those rows hold it and its display text; an empty cell is a value
    /// of its own (text ""). Only values whose display text starts with `prefix` (ignoring case)
    /// count. In the column's sort order, or by count (most first, then in sort order); at most
    /// `limit`. Every row is looked at once (O(n)): work for a copy, off the table's lock.
    public func distinctValues(
        of column: Int,
        admitting filter: RowFilter?,
        prefix: String = "",
        byCount: Bool = false,
        limit: Int
    ) -> DistinctValues {
        var counts: [CellValue: Int] = [:]
        var rows = 0
        order.forEachSlot { slot in
            if let filter, !filter.admits(slot, in: self) { return }
            rows += 1
            counts[stores[column][slot], default: 0] += 1
        }
        let rules = columns[column].rules
        let folded = prefix.lowercased()
        var entries: [(value: CellValue, text: String, count: Int)] = []
        entries.reserveCapacity(counts.count)
        for (value, count) in counts {
            let text = OneLine.text(rules.displayText(value))
            if folded.isEmpty || text.lowercased().hasPrefix(folded) { entries.append((value, text, count)) }
        }
        entries.sort { left, right in
            if byCount, left.count != right.count { return left.count > right.count }
            return ValueOrder.compare(left.value, right.value) < 0
        }
        let distinct = entries.count
        if entries.count > limit { entries.removeSubrange(limit...) }
        return DistinctValues(values: entries, distinct: distinct, rows: rows)
    }
}
