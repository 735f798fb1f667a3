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
        let folded = TextKey.folded(prefix)
        let foldedBytes = Array(folded.utf8)
        var rows = 0
        var found: [(value: CellValue, count: Int)] = []
        let store = stores[column]
        if store.isCoded {
            let dictionary = store.dictionary
            // A coded column: rows are counted by code, and each different text is looked at once.
            var perCode = [Int](repeating: 0, count: dictionary.codeCount)
            func countCodes<Code: FixedWidthInteger>(_ codes: [Code]) {
                codes.withUnsafeBufferPointer { codes in
                    perCode.withUnsafeMutableBufferPointer { perCode in
                        // (Counted in the table's own order, which mostly runs up the slots: the
                        // codes are read front to back. A sorted order would read them at random.)
                        if let filter {
                            natural.forEachSlot { slot in
                                guard filter.admits(slot, in: self) else { return }
                                rows += 1
                                perCode[Int(codes[Int(slot)])] += 1
                            }
                        } else {
                            rows = natural.count
                            natural.forEachSlot { slot in perCode[Int(codes[Int(slot)])] += 1 }
                        }
                    }
                }
            }
            switch store.codes.storage {
            case .one(let codes): countCodes(codes)
            case .two(let codes): countCodes(codes)
            case .four(let codes): countCodes(codes)
            }
            var entries: [Int] = []
            for (code, count) in perCode.enumerated() where count > 0 {
                if !foldedBytes.isEmpty, !Self.startsWith(dictionary.text(of: code), folded: foldedBytes) { continue }
                entries.append(code)
            }
            entries = Self.inTextOrder(entries, of: dictionary, counts: byCount ? perCode : nil)
            let rules = columns[column].rules
            return DistinctValues(
                values: entries.prefix(limit).map { code in
                    let value: CellValue = code == 0 ? .empty : .text(dictionary.text(of: code))
                    return (value, OneLine.text(rules.displayText(value)), perCode[code])
                },
                distinct: entries.count,
                rows: rows
            )
        } else if store.type == .text || store.type == .image {
            // A text cell's display text is the text itself: one that does not start with the
            // prefix is passed over before it is counted, and texts are told apart by their
            // bytes.
            var counts = TextCounts()
            order.forEachSlot { slot in
                if let filter, !filter.admits(slot, in: self) { return }
                rows += 1
                let text = store.strings[Int(slot)]
                if !foldedBytes.isEmpty, !Self.startsWith(text, folded: foldedBytes) { return }
                let counted: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
                    counts.add(slot, bytes: bytes) { store.strings[Int($0)] }
                }
                if counted == nil {
                    let bytes = Array(text.utf8)
                    bytes.withUnsafeBufferPointer { counts.add(slot, bytes: $0) { store.strings[Int($0)] } }
                }
            }
            found = zip(counts.slots, counts.counts).map { (store[$0], $1) }
        } else {
            var counts: [CellValue: Int] = [:]
            order.forEachSlot { slot in
                if let filter, !filter.admits(slot, in: self) { return }
                rows += 1
                counts[store[slot], default: 0] += 1
            }
            let rules = columns[column].rules
            found = counts.filter { value, _ in
                folded.isEmpty || TextKey.folded(OneLine.text(rules.displayText(value))).hasPrefix(folded)
            }.map { ($0.key, $0.value) }
        }
        let distinct = found.count
        let kept = Self.first(limit, of: found, byCount: byCount)
        let rules = columns[column].rules
        return DistinctValues(
            values: kept.map { ($0.value, OneLine.text(rules.displayText($0.value)), $0.count) },
            distinct: distinct,
            rows: rows
        )
    }

    /// The codes `entries` of `dictionary` in the order of their texts (``ValueOrder``: the
    /// empty text first, then by folded bytes, then by bytes), as a sort by the column puts
    /// them; with `counts` (per code), most first and then in that order.
    ///
    /// The texts' places are the dictionary's own (``TextDictionary/places``) when most of it
    /// is asked for, else those of the texts asked for alone (a prefix that matches few). The
    /// entries are then laid out by place, no comparisons made.
    static func inTextOrder(_ entries: [Int], of dictionary: TextDictionary, counts: [Int]?) -> [Int] {
        guard entries.count > 1 else { return entries }
        let whole = entries.count * 4 >= dictionary.codeCount
        let places = whole ? dictionary.places : TextRanking.places(of: entries.map { dictionary.text(of: $0) })
        func place(_ index: Int) -> UInt64 { places[whole ? entries[index] : index] }
        if let counts {
            // Most first: the count's complement above the place.
            let keys = entries.indices.map { index in
                UInt64(UInt32.max - UInt32(clamping: counts[entries[index]])) << 32 | place(index)
            }
            return RadixSort.sorted(keys: keys, payloads: entries.map { UInt32($0) }).payloads.map { Int($0) }
        }
        var atPlace = [Int](repeating: -1, count: places.count)
        for index in entries.indices { atPlace[Int(place(index))] = entries[index] }
        return atPlace.filter { $0 >= 0 }
    }

    /// The first `limit` of `entries` in the column's order (by count first, most first, with
    /// `byCount`), in that order: the best so far are kept in a heap whose root is the worst of
    /// them, so most entries are passed over after one comparison.
    static func first(
        _ limit: Int,
        of entries: [(value: CellValue, count: Int)],
        byCount: Bool
    ) -> [(value: CellValue, count: Int)] {
        func precedes(_ left: (value: CellValue, count: Int), _ right: (value: CellValue, count: Int)) -> Bool {
            if byCount, left.count != right.count { return left.count > right.count }
            return ValueOrder.compare(left.value, right.value) < 0
        }
        guard entries.count > limit else { return entries.sorted(by: precedes) }
        var heap = Array(entries.prefix(limit))
        // A max-heap by the order: the root is the last of the kept ones.
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                var largest = left
                if left + 1 < heap.count, precedes(heap[left], heap[left + 1]) { largest = left + 1 }
                guard precedes(heap[parent], heap[largest]) else { return }
                heap.swapAt(parent, largest)
                parent = largest
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        for entry in entries[limit...] where precedes(entry, heap[0]) {
            heap[0] = entry
            siftDown(0)
        }
        return heap.sorted(by: precedes)
    }

    /// Whether `text` starts with `prefix` (folded to lower case), ignoring case.
    static func startsWith(_ text: String, folded prefix: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= prefix.count else { return false }
            for (index, wanted) in prefix.enumerated() {
                let byte = bytes[index]
                // An ASCII letter of the prefix is not met by a character that does not fold
                // to ASCII (only U+0130 and U+212A do, lead bytes C4 and E2).
                if byte >= 0x80, wanted < 0x80, byte != 0xC4, byte != 0xE2 { return false }
                // Otherwise folding changes non-ASCII text as a whole: fold it whole then.
                if byte >= 0x80 || wanted >= 0x80 {
                    return TextKey.folded(String(decoding: bytes, as: UTF8.self)).utf8.starts(with: prefix)
                }
                if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != wanted { return false }
            }
            return true
        }
    }
}
