import DataTableVocabulary

/// Where the rows a view's sections hold fall, for building their summaries in one pass over
/// the slots: each held slot's leaf, and for each summed level (the grand total last, as one
/// group) which group each leaf is in.
struct SummaryLayout: Sendable {
    /// Per slot: the leaf holding it; -1 for a slot the sections do not hold.
    let leafOfSlot: [Int32]
    /// The held slots, ascending.
    let heldSlots: [UInt32]
    /// How many levels are summed (the grand total counts as one).
    let levelCount: Int
    /// Per leaf and level (`leaf * levelCount + level`): the group's number among all levels'
    /// groups (level `l`'s groups numbered from ``groupBase``[l]).
    let leafGroups: [Int32]
    /// Where each level's groups start in the numbering; one more entry for the end.
    let groupBase: [Int]
}

/// One column that a view's sections (and its grand total) sum up, kept current with every
/// change in O(log² n) a row and level: counts, totals, the least, greatest and middle values
/// and how many different values each group holds, without looking at a group's other rows.
///
/// The values are kept once, by slot (``SummedCells``), for every level. Each level
/// (``LevelSummary``; the grand total is one more, with one group) keeps the rows that have a
/// value in one counted order, group after group in the sections' order, and within a group by
/// value, then slot: a total order, so a row is found by binary search (the order keeps no
/// index by slot). Group `g` takes the positions from the filled rows of the groups before it.
/// The least value of a group is at its first position, the greatest at its last, the middle
/// one halfway; a row's value is new to its group when neither neighbour has it.
struct ColumnSummary: Sendable {
    /// The column (its index in the table).
    let column: Int
    /// Whether its values add up (number and duration columns).
    let adds: Bool
    /// Whether totals and means are durations (whole seconds) rather than numbers.
    let durations: Bool
    /// Whether the rows are kept in value order: only for the functions that read it (`min`,
    /// `max`, `median`, `countDistinct`); counts and totals need no order.
    let ordered: Bool
    /// Each held row's value when it was placed.
    private(set) var cells: SummedCells
    /// Per level, outermost first, then the grand total's when the sections have one.
    private(set) var levels: [LevelSummary]

    /// A summary of `column`, held in `store`, over the rows `layout` places: counts and totals,
    /// in one pass over the held slots in slot order (the store read front to back). An ordered
    /// summary's levels are put in value order after, by ``valueOrder(store:layout:cells:)``, then
    /// ``placedInValueOrder(_:level:layout:)`` and ``setValueOrder(level:_:)`` a level each.
    init(column: Int, ordered: Bool, store: ColumnStore, layout: SummaryLayout) {
        self.column = column
        let type = store.type
        let adds = type == .number || type == .duration
        self.adds = adds
        durations = type == .duration
        self.ordered = ordered
        var cells =
            type == .number
            ? SummedCells(numbers: store.numbers, leafOfSlot: layout.leafOfSlot)
            : SummedCells(type: type, capacity: layout.leafOfSlot.count)
        let groupCount = layout.groupBase.last ?? 0
        let levelCount = layout.levelCount
        let leafCount = levelCount == 0 ? 0 : layout.leafGroups.count / levelCount
        // Counted and summed by leaf, in ascending slot order (the store and the kept values
        // read and written front to back); each level's groups then add up their leaves. (One
        // running total for every row of a level's group made each add wait on the one before.)
        var leafFilled = [Int](repeating: 0, count: leafCount)
        var leafSums = [CompensatedSum](repeating: CompensatedSum(), count: leafCount)
        leafFilled.withUnsafeMutableBufferPointer { filled in
            leafSums.withUnsafeMutableBufferPointer { sums in
                if type == .number {
                    // Read through pointers: the arrays held by `layout` and `store` were
                    // checked and retained at every row.
                    func sum<Number: StoredNumber>(_ numbers: [Number]) {
                        numbers.withUnsafeBufferPointer { numbers in
                            layout.leafOfSlot.withUnsafeBufferPointer { leafOfSlot in
                                layout.heldSlots.withUnsafeBufferPointer { held in
                                    for slot in held {
                                        let number = numbers[Int(slot)].storedNumber
                                        guard !number.isNaN else { continue }
                                        let leaf = Int(leafOfSlot[Int(slot)])
                                        filled[leaf] += 1
                                        sums[leaf].add(number)
                                    }
                                }
                            }
                        }
                    }
                    // Whole numbers add up exactly in integers, with no compensation to carry
                    // from one row to the next; the total then goes into the compensated sum
                    // in two exact parts.
                    func sumWhole<Number: FixedWidthInteger & StoredNumber>(_ numbers: [Number]) {
                        var wholeSums = [Int64](repeating: 0, count: leafCount)
                        wholeSums.withUnsafeMutableBufferPointer { wholeSums in
                            numbers.withUnsafeBufferPointer { numbers in
                                layout.leafOfSlot.withUnsafeBufferPointer { leafOfSlot in
                                    layout.heldSlots.withUnsafeBufferPointer { held in
                                        for slot in held {
                                            let number = numbers[Int(slot)]
                                            guard number != .min else { continue }
                                            let leaf = Int(leafOfSlot[Int(slot)])
                                            filled[leaf] += 1
                                            wholeSums[leaf] &+= Int64(number)
                                        }
                                    }
                                }
                            }
                        }
                        for (leaf, whole) in wholeSums.enumerated() {
                            let high = Double(whole)
                            sums[leaf].add(high)
                            // (A double holds every whole number up to 2^53 exactly; past that,
                            // what the first part rounded away.)
                            if high.magnitude >= 0x1p53 { sums[leaf].add(Double(whole - Int64(high))) }
                        }
                    }
                    switch store.numbers.storage {
                    case .int16(let numbers): sumWhole(numbers)
                    case .int32(let numbers): sumWhole(numbers)
                    case .double(let numbers): sum(numbers)
                    }
                } else {
                    for slot in layout.heldSlots {
                        let value = store[slot]
                        guard !value.isEmpty else { continue }
                        cells.set(value, at: slot)
                        let leaf = Int(layout.leafOfSlot[Int(slot)])
                        filled[leaf] += 1
                        if adds { sums[leaf].add(Self.amount(value)) }
                    }
                }
            }
        }
        var filled = [Int](repeating: 0, count: groupCount)
        var sums = [CompensatedSum](repeating: CompensatedSum(), count: groupCount)
        for leaf in 0..<leafCount {
            for level in 0..<levelCount {
                let group = Int(layout.leafGroups[leaf * levelCount + level])
                filled[group] += leafFilled[leaf]
                sums[group].add(leafSums[leaf].value)
            }
        }
        self.cells = cells
        levels = (0..<levelCount).map { level in
            let groups = layout.groupBase[level]..<layout.groupBase[level + 1]
            return LevelSummary(
                filled: SectionCounts(Array(filled[groups])),
                distinct: Array(repeating: 0, count: groups.count),
                sums: Array(sums[groups])
            )
        }
    }

    /// The held rows that have a value, in value order, once for all of a summary's levels.
    struct RowsByValue: Sendable {
        /// The held slots with a value, by value, then slot.
        let slots: [UInt32]
        /// Per row of ``slots``: the position where its run of equal values starts.
        let runs: [Int32]
        /// Per row of ``slots``: its leaf.
        let leaves: [Int32]
    }

    /// The rows `layout` holds that have a value, in value order. Whole numbers within 2¹⁰ of
    /// each other are counted into place (``countedInValueOrder(_:range:layout:)``); other exact
    /// order keys are radix-sorted (empty cells left out first, and whole numbers keyed as
    /// integers less the least, so that the keys differ in as few bits as the values do);
    /// other text is sorted by comparison.
    /// `cells`: the values the summary keeps, read for text whose order keys are not exact
    /// (not needed for an exact column).
    static func valueOrder(store: ColumnStore, layout: SummaryLayout, cells: SummedCells?) -> RowsByValue {
        let slots: [UInt32]
        var runs: [Int32]
        if store.orderKeyIsExact {
            let held = layout.heldSlots
            let whole = store.type == .number ? Self.wholeRange(store.numbers, held: held) : nil
            if let whole, whole.greatest &- whole.least < 1 << RadixSort.widestDigit {
                return switch store.numbers.storage {
                case .int16(let numbers): Self.countedInValueOrder(numbers, range: whole, layout: layout)
                case .int32(let numbers): Self.countedInValueOrder(numbers, range: whole, layout: layout)
                case .double(let numbers): Self.countedInValueOrder(numbers, range: whole, layout: layout)
                }
            }
            let filled = whole?.filled ?? held.count
            var keys = [UInt64](repeating: 0, count: filled)
            var filledSlots = [UInt32](repeating: 0, count: filled)
            let kept = keys.withUnsafeMutableBufferPointer { keys in
                filledSlots.withUnsafeMutableBufferPointer { filledSlots in
                    var kept = 0
                    for slot in held {
                        let key: UInt64
                        if let whole {
                            let number = store.numbers[Int(slot)]
                            if number.isNaN { continue }
                            key = UInt64(bitPattern: Int64(number) &- whole.least)
                        } else {
                            key = store.orderKey(at: slot)
                            if key == 0 { continue }
                        }
                        keys[kept] = key
                        filledSlots[kept] = slot
                        kept += 1
                    }
                    return kept
                }
            }
            keys.removeLast(keys.count - kept)
            filledSlots.removeLast(filledSlots.count - kept)
            let sorted = RadixSort.sorted(keys: keys, payloads: filledSlots)
            slots = sorted.payloads
            runs = [Int32](repeating: 0, count: slots.count)
            // Equal exact keys are equal values.
            sorted.keys.withUnsafeBufferPointer { keys in
                runs.withUnsafeMutableBufferPointer { runs in
                    for index in keys.indices {
                        runs[index] = index > 0 && keys[index - 1] == keys[index] ? runs[index - 1] : Int32(index)
                    }
                }
            }
        } else {
            guard let cells else { preconditionFailure("the values the summary keeps, for text") }
            slots = layout.heldSlots.filter { !cells[$0].isEmpty }
                .sorted { Self.precedes(cells[$0], $0, cells[$1], $1) }
            runs = [Int32](repeating: 0, count: slots.count)
            for index in slots.indices {
                runs[index] =
                    index > 0 && cells[slots[index - 1]] == cells[slots[index]] ? runs[index - 1] : Int32(index)
            }
        }
        let leaves = slots.map { layout.leafOfSlot[Int($0)] }
        return RowsByValue(slots: slots, runs: runs, leaves: leaves)
    }

    /// The least and greatest of the filled cells among `held` of a number column, as integers,
    /// and how many are filled, when every filled value is a whole number of at most 2⁵³ (and
    /// at least one is filled); `nil` otherwise.
    static func wholeRange(_ numbers: NumberArray, held: [UInt32]) -> (least: Int64, greatest: Int64, filled: Int)? {
        switch numbers.storage {
        case .int16(let numbers): wholeRange(numbers, held: held)
        case .int32(let numbers): wholeRange(numbers, held: held)
        case .double(let numbers): wholeRange(numbers, held: held)
        }
    }

    /// ``wholeRange(_:held:)`` of numbers as a ``NumberArray`` holds them.
    private static func wholeRange<Number: StoredNumber>(_ numbers: [Number], held: [UInt32]) -> (
        least: Int64, greatest: Int64, filled: Int
    )? {
        let limit = 9_007_199_254_740_992.0  // 2⁵³
        var least = Double.infinity
        var greatest = -Double.infinity
        var filled = 0
        let whole = numbers.withUnsafeBufferPointer { numbers in
            for slot in held {
                let number = numbers[Int(slot)].storedNumber
                if number.isNaN { continue }
                guard number.magnitude <= limit, number == number.rounded(.towardZero) else { return false }
                least = min(least, number)
                greatest = max(greatest, number)
                filled += 1
            }
            return true
        }
        guard whole, filled > 0 else { return nil }
        return (Int64(least), Int64(greatest), filled)
    }

    /// The filled rows `layout` holds of a number column of whole numbers in `range` (at most
    /// 2¹⁰ different values), in value order, then slot: counted by value in one read of the
    /// held slots, then each dealt to its place in another, its leaf read in slot order as it
    /// goes (no read at random); a value's rows are one run.
    static func countedInValueOrder(
        _ numbers: [some StoredNumber],
        range: (least: Int64, greatest: Int64, filled: Int),
        layout: SummaryLayout
    ) -> RowsByValue {
        let buckets = Int(range.greatest - range.least) + 1
        var next = [Int](repeating: 0, count: buckets)
        var runs = [Int32](repeating: 0, count: range.filled)
        var slots = [UInt32](repeating: 0, count: range.filled)
        var leaves = [Int32](repeating: 0, count: range.filled)
        numbers.withUnsafeBufferPointer { numbers in
            next.withUnsafeMutableBufferPointer { next in
                for slot in layout.heldSlots {
                    let number = numbers[Int(slot)].storedNumber
                    if number.isNaN { continue }
                    next[Int(Int64(number) &- range.least)] &+= 1
                }
                runs.withUnsafeMutableBufferPointer { runs in
                    var start = 0
                    for value in 0..<buckets {
                        let count = next[value]
                        for place in start..<start + count { runs[place] = Int32(start) }
                        next[value] = start
                        start += count
                    }
                }
                layout.leafOfSlot.withUnsafeBufferPointer { leafOfSlot in
                    slots.withUnsafeMutableBufferPointer { slots in
                        leaves.withUnsafeMutableBufferPointer { leaves in
                            for slot in layout.heldSlots {
                                let number = numbers[Int(slot)].storedNumber
                                if number.isNaN { continue }
                                let value = Int(Int64(number) &- range.least)
                                let place = next[value]
                                next[value] = place &+ 1
                                slots[place] = slot
                                leaves[place] = leafOfSlot[Int(slot)]
                            }
                        }
                    }
                }
            }
        }
        return RowsByValue(slots: slots, runs: runs, leaves: leaves)
    }

    /// `level`'s rows that have a value, in value order within each group, and each group's
    /// count of different values: `rows` dealt to the groups in turn. A level of one group (the
    /// grand total's) takes `rows` as they are.
    func placedInValueOrder(_ rows: RowsByValue, level: Int, layout: SummaryLayout) -> (
        byValue: RowOrder, distinct: [Int]
    ) {
        let count = rows.slots.count
        let base = layout.groupBase[level]
        let groupCount = layout.groupBase[level + 1] - base
        var distinct = [Int](repeating: 0, count: groupCount)
        var lastRun = [Int32](repeating: -1, count: groupCount)
        guard groupCount > 1 else {
            for run in rows.runs where run != lastRun[0] {
                distinct[0] += 1
                lastRun[0] = run
            }
            return (RowOrder(rows.slots, indexed: false), distinct)
        }
        let leafCount = layout.leafGroups.count / layout.levelCount
        let groupOfLeaf = (0..<leafCount).map { leaf in
            Int(layout.leafGroups[leaf * layout.levelCount + level]) - base
        }
        var next = [Int](repeating: 0, count: groupCount)
        var start = 0
        for group in 0..<groupCount {
            next[group] = start
            start += levels[level].filled.counts[group]
        }
        let placed = [UInt32](unsafeUninitializedCapacity: count) { placed, initialized in
            groupOfLeaf.withUnsafeBufferPointer { groupOfLeaf in
                next.withUnsafeMutableBufferPointer { next in
                    distinct.withUnsafeMutableBufferPointer { distinct in
                        lastRun.withUnsafeMutableBufferPointer { lastRun in
                            rows.slots.withUnsafeBufferPointer { slots in
                                rows.runs.withUnsafeBufferPointer { runs in
                                    rows.leaves.withUnsafeBufferPointer { leaves in
                                        for index in 0..<count {
                                            let group = groupOfLeaf[Int(leaves[index])]
                                            placed[next[group]] = slots[index]
                                            next[group] &+= 1
                                            let run = runs[index]
                                            if run != lastRun[group] {
                                                distinct[group] &+= 1
                                                lastRun[group] = run
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            initialized = count
        }
        return (RowOrder(placed, indexed: false), distinct)
    }

    /// Takes `level`'s value order from ``placedInValueOrder(_:level:layout:)``.
    mutating func setValueOrder(level: Int, _ placed: (byValue: RowOrder, distinct: [Int])) {
        levels[level].byValue = placed.byValue
        levels[level].distinct = placed.distinct
    }

    /// Whether `(value, slot)` comes before `(otherValue, otherSlot)`: by value, empty last, then slot.
    static func precedes(_ value: CellValue, _ slot: UInt32, _ otherValue: CellValue, _ otherSlot: UInt32) -> Bool {
        switch (value.isEmpty, otherValue.isEmpty) {
        case (false, true): return true
        case (true, false): return false
        case (true, true): return slot < otherSlot
        case (false, false):
            let order = ValueOrder.compare(value, otherValue)
            return order != 0 ? order < 0 : slot < otherSlot
        }
    }

    /// What a value adds to a total.
    static func amount(_ value: CellValue) -> Double {
        switch value {
        case .number(let number): number
        case .duration(let seconds): Double(seconds)
        default: 0
        }
    }

    /// The value of the row at `position` of `level`'s value order.
    private func value(at position: Int, level: Int) -> CellValue {
        cells[levels[level].byValue.slot(at: position)]
    }

    // MARK: Keeping it current

    /// A new empty group at `group` of `level`.
    mutating func insertGroup(at group: Int, level: Int) {
        levels[level].filled.insertSection(at: group)
        levels[level].distinct.insert(0, at: group)
        levels[level].sums.insert(CompensatedSum(), at: group)
    }

    /// Drops `group` of `level` (it must be empty).
    mutating func removeGroup(at group: Int, level: Int) {
        levels[level].filled.removeSection(at: group)
        levels[level].distinct.remove(at: group)
        levels[level].sums.remove(at: group)
    }

    /// Places `slot`, whose cell holds `value`, in one group a level: `groups[level]`.
    mutating func insert(_ slot: UInt32, value: CellValue, groups: [Int]) {
        cells.set(value, at: slot)
        for (level, group) in groups.enumerated() { insert(slot, value: value, level: level, group: group) }
    }

    /// Takes `slot` out of its group at each level (`groups` as for ``insert(_:value:groups:)``);
    /// nothing when it is not held.
    mutating func remove(_ slot: UInt32, groups: [Int]) {
        let value = cells[slot]
        for (level, group) in groups.enumerated() { remove(slot, value: value, level: level, group: group) }
        cells.set(.empty, at: slot)
    }

    /// Where `group` of `level` starts in the level's value order, and where `(value, slot)`
    /// goes (or is) among its rows.
    private func place(of slot: UInt32, value: CellValue, level: Int, group: Int) -> (start: Int, position: Int) {
        let start = levels[level].filled.rowsBefore(group)
        var low = start
        var high = start + levels[level].filled.counts[group]
        while low < high {
            let middle = (low + high) / 2
            let other = levels[level].byValue.slot(at: middle)
            if Self.precedes(cells[other], other, value, slot) { low = middle + 1 } else { high = middle }
        }
        return (start, low)
    }

    private mutating func insert(_ slot: UInt32, value: CellValue, level: Int, group: Int) {
        guard !value.isEmpty else { return }
        if ordered {
            // (The slot's own value is already kept: its neighbours are read before it goes in.)
            let (start, position) = place(of: slot, value: value, level: level, group: group)
            let end = start + levels[level].filled.counts[group]
            let isNew =
                (position == start || self.value(at: position - 1, level: level) != value)
                && (position == end || self.value(at: position, level: level) != value)
            levels[level].byValue.insert(slot, at: position)
            if isNew { levels[level].distinct[group] += 1 }
        }
        levels[level].filled.add(1, to: group)
        if adds { levels[level].sums[group].add(Self.amount(value)) }
    }

    private mutating func remove(_ slot: UInt32, value: CellValue, level: Int, group: Int) {
        guard !value.isEmpty else { return }
        if ordered {
            let (start, position) = place(of: slot, value: value, level: level, group: group)
            let end = start + levels[level].filled.counts[group]
            guard position < end, levels[level].byValue.slot(at: position) == slot else { return }
            levels[level].byValue.remove(at: position)
            let wasOnly =
                (position == start || self.value(at: position - 1, level: level) != value)
                && (position == end - 1 || self.value(at: position, level: level) != value)
            if wasOnly { levels[level].distinct[group] -= 1 }
        }
        levels[level].filled.add(-1, to: group)
        if adds { levels[level].sums[group].remove(Self.amount(value)) }
    }

    // MARK: Reading it

    /// `function` of `group` of `level`: `nil` when the group has no value to give (`count` and
    /// `countDistinct` always give one). `first` and `last` are the caller's: they follow the
    /// view's order, not this one.
    func result(_ function: AggregateFunction, level: Int, group: Int) -> AggregateValue? {
        let summary = levels[level]
        let count = summary.filled.counts[group]
        let start = ordered && count > 0 ? summary.filled.rowsBefore(group) : 0
        switch function {
        case .count: return .count(count)
        case .countDistinct: return .count(summary.distinct[group])
        case .sum: return adds ? .value(total(summary.sums[group].value)) : nil
        case .avg: return adds && count > 0 ? .value(total(summary.sums[group].value / Double(count))) : nil
        case .min: return count > 0 ? .value(value(at: start, level: level)) : nil
        case .max: return count > 0 ? .value(value(at: start + count - 1, level: level)) : nil
        case .median:
            guard count > 0 else { return nil }
            let upper = value(at: start + count / 2, level: level)
            guard count % 2 == 0 else { return .value(upper) }
            let lower = value(at: start + count / 2 - 1, level: level)
            return adds ? .value(total((Self.amount(lower) + Self.amount(upper)) / 2)) : .value(lower)
        case .first, .last: return nil
        }
    }

    /// A total or mean as a value of the column's type (whole seconds for a duration).
    private func total(_ amount: Double) -> CellValue {
        durations ? .duration(seconds: Int64(amount.rounded())) : .number(amount)
    }

    /// Roughly what the summary takes in memory: its values, and each level's order and counts.
    var bytes: Int {
        cells.bytes
            + levels.reduce(0) { $0 + $1.byValue.count * Table.bytesPerViewRow + $1.distinct.count * 40 }
    }
}

/// One level's groups of a ``ColumnSummary`` (or the grand total's one group).
struct LevelSummary: Sendable {
    /// The rows with a value by group, then value, then slot (not indexed by slot); empty
    /// unless the summary is ordered.
    var byValue = RowOrder()
    /// Rows with a value, per group.
    var filled = SectionCounts()
    /// Different values, per group.
    var distinct: [Int] = []
    /// Totals, per group (columns that add up).
    var sums: [CompensatedSum] = []
}

/// What an aggregate of a group comes to: a count, or a value of the column's type.
public enum AggregateValue: Sendable, Hashable {
    /// A count of cells or of different values.
    case count(Int)
    /// A value as the column holds it (a total or mean of a duration column is a duration).
    case value(CellValue)
}
