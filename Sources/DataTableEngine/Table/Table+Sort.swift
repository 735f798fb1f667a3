import Foundation

extension Table {
    /// Sorts by `keys`, first key first; ties keep the table's own order. No keys returns to the
    /// table's own order (the order rows were added in, or placed by index). A key naming no
    /// column is refused with the field `field[i].column` (`keys` for `sort`, `sort` for
    /// `create` and `load`).
    public mutating func sort(by keys: [SortKey], field: String = "keys") throws(TableError) {
        beginChange()
        defer { endChange() }
        var resolved: [(column: Int, descending: Bool)] = []
        for (position, key) in keys.enumerated() {
            guard let column = columnIndex[key.column] else {
                throw .invalidArgument(
                    "There is no column \(key.column) to sort by.",
                    field: "\(field)[\(position)].column"
                )
            }
            try checkNotViewOrder(column, "sorted by", field: "\(field)[\(position)].column")
            resolved.append((column, key.descending))
        }
        sortKeys = keys
        version += 1
        noteRebuilt(.order)
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
            let order = ValueOrder.compare(cell(key.column, left), cell(key.column, right))
            if order != 0 { return key.descending ? -order : order }
        }
        return natural.position(of: left)! - natural.position(of: right)!
    }

    /// Puts `slot` (already in the natural order, not in the sorted one) where the sort wants it.
    mutating func placeInSortedOrder(_ slot: UInt32) {
        // (Read in place: a copy of the order held here would make the insert below copy all
        // of it.)
        guard sorted != nil else { return }
        let keys = resolvedSortKeys
        var low = 0
        var high = sorted!.count
        while low < high {
            let middle = (low + high) / 2
            if compareRows(slot, sorted!.slot(at: middle), keys: keys) < 0 { high = middle } else { low = middle + 1 }
        }
        insertSorted(slot, at: low)
    }

    /// Moves the rows in `slots` to where the sort wants them after their values changed.
    ///
    /// Every one leaves the order before any goes back: each goes back by a binary search, which
    /// finds the right place only among rows that are in order. (Moved one at a time, a row
    /// searched among others whose values had changed too, and where it landed depended on the
    /// order the rows were taken in.) The sort and the table's own order are a total order, so
    /// the result is the sorted order whatever order they go back in.
    mutating func resort(_ slots: some Sequence<UInt32>) {
        guard sorted != nil else { return }
        let slots = Array(slots)
        for slot in slots { removeFromSorted(slot) }
        for slot in slots { placeInSortedOrder(slot) }
    }
}

/// A whole-table sort: every key's values turned into 64-bit order keys once, so comparing two
/// rows is mostly comparing integers. Text keys keep their case-folded text for rows whose first
/// bytes tie.
private struct SortPlan {
    struct Key {
        var orderKeys: [UInt64]
        /// Case-folded text per rank, for text keys.
        var folded: FoldedTexts?
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
            if store.isCoded {
                // A coded column's different texts are put in order once (and kept); a row's
                // key is then its text's place in that order, exact.
                let places = store.dictionary.places
                let codes = store.codes
                return Key(orderKeys: slots.map { places[Int(codes[Int($0)])] }, descending: key.descending)
            }
            if store.orderKeyIsExact {
                return Key(orderKeys: slots.map { store.orderKey(at: $0) }, descending: key.descending)
            }
            let raw = slots.map { store.text(at: $0) }
            let folded = FoldedTexts(raw)
            return Key(
                orderKeys: raw.indices.map(folded.firstWord),
                folded: folded,
                raw: raw,
                descending: key.descending
            )
        }
    }

    private init(keys: [Key], count: Int) {
        self.keys = keys
        self.count = count
    }

    /// Ranks (positions in the natural order) in sorted order.
    func sortedRanks() -> [UInt32] {
        if keys.count == 1, keys[0].folded == nil {
            // One exact key: a radix sort of the keys carrying their ranks, which keeps equal
            // keys in rank order.
            let key = keys[0]
            let orderKeys = key.descending ? key.orderKeys.map { ~$0 } : key.orderKeys
            return RadixSort.sorted(keys: orderKeys, payloads: Array(0..<UInt32(count))).payloads
        }
        // The comparator reads plain pointers: no reference counting in the inner loop.
        let views = UnsafeMutableBufferPointer<KeyView>.allocate(capacity: keys.count)
        var buffers: [UnsafeMutableRawPointer] = []
        defer {
            for buffer in buffers { buffer.deallocate() }
            views.deallocate()
        }
        func copy<T>(_ array: [T]) -> UnsafeMutablePointer<T> {
            let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(1, array.count))
            _ = UnsafeMutableBufferPointer(start: pointer, count: array.count).initialize(from: array)
            buffers.append(UnsafeMutableRawPointer(pointer))
            return pointer
        }
        for (index, key) in keys.enumerated() {
            views[index] = KeyView(
                orderKeys: copy(key.orderKeys),
                descending: key.descending,
                bytes: key.folded.map { copy($0.bytes) },
                starts: key.folded.map { copy($0.starts) },
                raw: index
            )
        }
        let raws = keys.map(\.raw)
        /// Negative, zero or positive as rank `a` sorts before, with or after rank `b` by `view`,
        /// before its direction is applied.
        func order(_ view: KeyView, _ a: Int, _ b: Int) -> Int {
            let x = view.orderKeys[a]
            let y = view.orderKeys[b]
            if x != y { return x < y ? -1 : 1 }
            guard let bytes = view.bytes, let starts = view.starts, x != 0 else { return 0 }
            let aCount = starts[a + 1] - starts[a]
            let bCount = starts[b + 1] - starts[b]
            var order = Int(memcmp(bytes + starts[a], bytes + starts[b], min(aCount, bCount)))
            if order == 0 { order = aCount - bCount }
            if order == 0, let raw = raws[view.raw] { order = TextKey.compareBytes(raw[a], raw[b]) }
            return order
        }
        if keys.count == 1, let folded = keys[0].folded {
            // One text key: sort packed entries of the first fifteen folded bytes, so that the
            // texts themselves are compared only where those are the same.
            let view = views[0]
            let flip: UInt64 = view.descending ? .max : 0
            var entries = (0..<count).map { rank in
                SortEntry(
                    first: view.orderKeys[rank] ^ flip,
                    second: folded.secondWord(rank) ^ flip,
                    rank: UInt32(rank)
                )
            }
            entries.sort { left, right in
                if left.first != right.first { return left.first < right.first }
                if left.second != right.second { return left.second < right.second }
                let ordered = order(view, Int(left.rank), Int(right.rank))
                if ordered != 0 { return view.descending ? ordered > 0 : ordered < 0 }
                return left.rank < right.rank
            }
            return entries.map(\.rank)
        }
        var ranks = (0..<UInt32(count)).map { $0 }
        ranks.sort { left, right in
            let a = Int(left)
            let b = Int(right)
            for view in views {
                let ordered = order(view, a, b)
                if ordered != 0 { return view.descending ? ordered > 0 : ordered < 0 }
            }
            return a < b
        }
        return ranks
    }

    /// A rank with the two words its single text key sorts by first.
    private struct SortEntry {
        var first: UInt64
        var second: UInt64
        var rank: UInt32
    }

    /// One key's arrays as pointers, for the comparator.
    private struct KeyView {
        var orderKeys: UnsafeMutablePointer<UInt64>
        var descending: Bool
        var bytes: UnsafeMutablePointer<UInt8>?
        var starts: UnsafeMutablePointer<Int>?
        /// Index of the key, for its original texts.
        var raw: Int
    }
}
