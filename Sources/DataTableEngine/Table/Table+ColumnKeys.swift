extension Table {
    /// Puts `column` in at `index` and keeps ``columnIndex`` and ``columnsInKeyOrder`` in step:
    /// a column added last costs O(log columns) comparisons of keys (and a move of the
    /// key order's integers); one added before others also renumbers the columns after it.
    ///
    /// A table of many columns changed one column at a time (a log of thousands of `alter`s
    /// replayed at start) must not pay for every column on every change.
    mutating func insertColumn(_ column: Column, at index: Int) {
        columns.insert(column, at: index)
        if index < columns.count - 1 {
            for later in index + 1..<columns.count { columnIndex[columns[later].key] = later }
            for position in columnsInKeyOrder.indices where columnsInKeyOrder[position] >= index {
                columnsInKeyOrder[position] += 1
            }
        }
        columnIndex[column.key] = index
        columnsInKeyOrder.insert(index, at: keyOrderPosition(of: column.key))
    }

    /// Takes out the column at `index`, keeping ``columnIndex`` and ``columnsInKeyOrder`` in
    /// step (the columns after it are renumbered); returns it.
    mutating func removeColumn(at index: Int) -> Column {
        let key = columns[index].key
        columnsInKeyOrder.remove(at: keyOrderPosition(of: key))
        columnIndex[key] = nil
        let column = columns.remove(at: index)
        if index < columns.count {
            for later in index..<columns.count { columnIndex[columns[later].key] = later }
            for position in columnsInKeyOrder.indices where columnsInKeyOrder[position] > index {
                columnsInKeyOrder[position] -= 1
            }
        }
        return column
    }

    /// Puts `column` in place of the column at `index` (a new key, label, rules or hints),
    /// keeping ``columnIndex`` and ``columnsInKeyOrder`` in step; returns the column it replaced.
    mutating func replaceColumn(at index: Int, with column: Column) -> Column {
        let old = columns[index]
        guard old.key != column.key else {
            columns[index] = column
            return old
        }
        columnsInKeyOrder.remove(at: keyOrderPosition(of: old.key))
        columnIndex[old.key] = nil
        columns[index] = column
        columnIndex[column.key] = index
        columnsInKeyOrder.insert(index, at: keyOrderPosition(of: column.key))
        return old
    }

    /// Where `key` is, or would go, in ``columnsInKeyOrder``: the first entry whose column's key
    /// is not below it, found by halving.
    private func keyOrderPosition(of key: String) -> Int {
        var low = 0
        var high = columnsInKeyOrder.count
        while low < high {
            let middle = (low + high) / 2
            if columns[columnsInKeyOrder[middle]].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
