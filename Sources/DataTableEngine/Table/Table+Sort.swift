extension Table {
    /// Sorts by `keys`, first key first; ties keep the table's own order. No keys returns to the
    /// table's own order (the order rows were added in, or placed by index).
    public mutating func sort(by keys: [SortKey]) throws(TableError) {
        var resolved: [(column: Int, descending: Bool)] = []
        for (position, key) in keys.enumerated() {
            guard let column = columnIndex[key.column] else {
                throw .invalidArgument("There is no column \(key.column) to sort by.", field: "keys[\(position)].column")
            }
            resolved.append((column, key.descending))
        }
        sortKeys = keys
        version += 1
        guard !resolved.isEmpty else {
            sorted = nil
            return
        }
        let slots = natural.allSlots
        let ranks = SortPlan(table: self, keys: resolved, slots: slots).sortedRanks()
        sorted = RowOrder(ranks.map { slots[Int($0)] })
    }

    /// The sort keys as column indices.
    var resolvedSortKeys: [(column: Int, descending: Bool)] {
        sortKeys.compactMap { key in columnIndex[key.column].map { ($0, key.descending) } }
    }

    /// Negative, zero or positive as the row in `left` sorts before, with or after the row in
    /// `right`: by the sort keys, then by the table's own order.
    func compareRows(_ left: UInt32, _ right: UInt32, keys: [(column: Int, descending: Bool)]) -> Int {
        for key in keys {
            let order = ValueOrder.compare(stores[key.column][left], stores[key.column][right])
            if order != 0 { return key.descending ? -order : order }
        }
        return natural.position(of: left)! - natural.position(of: right)!
    }

    /// Puts `slot` (already in the natural order, not in the sorted one) where the sort wants it.
    mutating func placeInSortedOrder(_ slot: UInt32) {
        guard let order = sorted else { return }
        let keys = resolvedSortKeys
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if compareRows(slot, order.slot(at: middle), keys: keys) < 0 { high = middle } else { low = middle + 1 }
        }
        sorted!.insert(slot, at: low)
    }

    /// Moves the rows in `slots` to where the sort wants them after their values changed.
    mutating func resort(_ slots: some Sequence<UInt32>) {
        guard sorted != nil else { return }
        for slot in slots {
            _ = sorted!.remove(slot)
            placeInSortedOrder(slot)
        }
    }
}

/// A whole-table sort: every key's values turned into 64-bit order keys once, so comparing two
/// rows is mostly comparing integers. Text keys keep their case-folded text for rows whose first
/// bytes tie.
private struct SortPlan {
    struct Key {
        var orderKeys: [UInt64]
        /// Case-folded text per rank, for text keys.
        var folded: [String]?
        /// Original text per rank, for text keys.
        var raw: [String]?
        var descending: Bool
    }

    var keys: [Key]
    let count: Int

    init(table: Table, keys resolved: [(column: Int, descending: Bool)], slots: [UInt32]) {
        count = slots.count
        keys = resolved.map { key in
            let store = table.stores[key.column]
            let orderKeys = slots.map { store.orderKey(at: $0) }
            if store.orderKeyIsExact {
                return Key(orderKeys: orderKeys, descending: key.descending)
            }
            let raw = slots.map { store.text(at: $0) }
            return Key(orderKeys: orderKeys, folded: raw.map(TextKey.folded), raw: raw, descending: key.descending)
        }
    }

    /// Ranks (positions in the natural order) in sorted order.
    func sortedRanks() -> [UInt32] {
        var ranks = (0..<UInt32(count)).map { $0 }
        if keys.count == 1, keys[0].folded == nil {
            // One exact key: sort packed (key, rank) pairs.
            let key = keys[0]
            var pairs = ranks.map { (key: key.descending ? ~key.orderKeys[Int($0)] : key.orderKeys[Int($0)], rank: $0) }
            pairs.sort { $0.key != $1.key ? $0.key < $1.key : $0.rank < $1.rank }
            return pairs.map(\.rank)
        }
        ranks.sort { compare(Int($0), Int($1)) }
        return ranks
    }

    /// Whether the row of rank `left` sorts before the row of rank `right`.
    private func compare(_ left: Int, _ right: Int) -> Bool {
        for key in keys {
            var order = 0
            let a = key.orderKeys[left]
            let b = key.orderKeys[right]
            if a != b {
                order = a < b ? -1 : 1
            } else if let folded = key.folded, let raw = key.raw, a != 0 {
                order = TextKey.compareBytes(folded[left], folded[right])
                if order == 0 { order = TextKey.compareBytes(raw[left], raw[right]) }
            }
            if order != 0 { return key.descending ? order > 0 : order < 0 }
        }
        return left < right
    }
}
