import DataTableVocabulary

/// One column that a view's sections (or its grand total) sum up, kept current with every change
/// in O(log² n) a row: counts, totals, the least, greatest and middle values and how many
/// different values each group holds, without looking at a group's other rows.
///
/// The rows are kept in one counted order (``RowOrder``) grouped like the sections they sum up:
/// group `g` takes the positions `start(g) ..< start(g) + rows(g)` that it takes in the sections'
/// own rows, and within a group the rows run by value, rows with a value first, then by slot. The
/// least value of a group is at its first position, the greatest at its last filled one, the
/// middle one halfway; a row's value is new to its group when neither neighbour has it.
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
    /// The rows by group, then value (empty cells last), then slot.
    private(set) var byValue = RowOrder()
    /// Each row's value when it was placed, by slot (`.empty` for rows not held): what a row is
    /// found and taken out by after its cell has changed.
    private var kept: [CellValue] = []
    /// Rows with a value, per group.
    private(set) var filled = SectionCounts()
    /// Different values, per group.
    private(set) var distinct: [Int] = []
    /// Totals, per group (columns that add up).
    private(set) var sums: [CompensatedSum] = []

    /// A summary of `column`, held in `store`, over `groups`: each group's rows, in the
    /// groups' order. A number column's doubles are read where they lie.
    init(column: Int, ordered: Bool, groups: [[UInt32]], store: ColumnStore) {
        guard store.type == .number else {
            self = ColumnSummary(column: column, type: store.type, ordered: ordered, groups: groups) { store[$0] }
            return
        }
        self.column = column
        adds = true
        durations = false
        self.ordered = ordered
        let numbers = store.numbers
        let largest = groups.lazy.compactMap { $0.max() }.max().map { Int($0) + 1 } ?? 0
        kept = Array(repeating: .empty, count: largest)
        var sorted: [UInt32] = []
        if ordered { sorted.reserveCapacity(groups.reduce(0) { $0 + $1.count }) }
        var filledCounts: [Int] = []
        filledCounts.reserveCapacity(groups.count)
        var keyed: [(key: Double, slot: UInt32)] = []
        for group in groups {
            var filledHere = 0
            var sum = CompensatedSum()
            for slot in group {
                let number = numbers[Int(slot)]
                guard !number.isNaN else { continue }
                kept[Int(slot)] = .number(number)
                filledHere += 1
                sum.add(number)
            }
            var distinctHere = 0
            if ordered {
                // By value, empty last, then by slot (``sortByValue(_:kept:type:)``).
                keyed.removeAll(keepingCapacity: true)
                for slot in group {
                    let number = numbers[Int(slot)]
                    keyed.append((number.isNaN ? .infinity : number, slot))
                }
                keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.slot < $1.slot }
                sorted.append(contentsOf: keyed.lazy.map(\.slot))
                var previous: Double?
                for (key, slot) in keyed {
                    guard !numbers[Int(slot)].isNaN else { break }
                    if key != previous { distinctHere += 1 }
                    previous = key
                }
            }
            filledCounts.append(filledHere)
            distinct.append(distinctHere)
            sums.append(sum)
        }
        if ordered { byValue = RowOrder(sorted) }
        filled = SectionCounts(filledCounts)
    }

    /// A summary of `column` over `groups`: each group's rows, in the groups' order.
    init(column: Int, type: ColumnType, ordered: Bool, groups: [[UInt32]], values: (UInt32) -> CellValue) {
        self.column = column
        self.adds = type == .number || type == .duration
        self.durations = type == .duration
        self.ordered = ordered
        let largest = groups.lazy.compactMap { $0.max() }.max().map { Int($0) + 1 } ?? 0
        kept = Array(repeating: .empty, count: largest)
        var sorted: [UInt32] = []
        if ordered { sorted.reserveCapacity(groups.reduce(0) { $0 + $1.count }) }
        var filledCounts: [Int] = []
        for group in groups {
            var filledHere = 0
            var distinctHere = 0
            var sum = CompensatedSum()
            for slot in group {
                let value = values(slot)
                kept[Int(slot)] = value
                guard !value.isEmpty else { continue }
                filledHere += 1
                if adds { sum.add(Self.amount(value)) }
            }
            if ordered {
                let start = sorted.count
                sorted.append(contentsOf: group)
                Self.sortByValue(&sorted[start...], kept: kept, type: type)
                var previous: CellValue?
                for slot in sorted[start...] {
                    let value = kept[Int(slot)]
                    guard !value.isEmpty else { break }
                    if value != previous { distinctHere += 1 }
                    previous = value
                }
            }
            filledCounts.append(filledHere)
            distinct.append(distinctHere)
            sums.append(sum)
        }
        if ordered { byValue = RowOrder(sorted) }
        filled = SectionCounts(filledCounts)
    }

    /// Sorts `slots` by their values in `kept`, empty last, then by slot: values of every type
    /// but text compared as numbers (their order), text by ``ValueOrder``.
    static func sortByValue(_ slots: inout ArraySlice<UInt32>, kept: [CellValue], type: ColumnType) {
        guard type != .text && type != .image else {
            slots.sort { precedes(kept[Int($0)], $0, kept[Int($1)], $1) }
            return
        }
        var keyed = slots.map { slot -> (key: Double, slot: UInt32) in
            (Self.numericKey(kept[Int(slot)]), slot)
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.slot < $1.slot }
        for (offset, entry) in keyed.enumerated() { slots[slots.startIndex + offset] = entry.slot }
    }

    /// A value of a column that is not text as a number in its order; empty cells last.
    static func numericKey(_ value: CellValue) -> Double {
        switch value {
        case .empty: .infinity
        case .number(let number): number
        case .date(let days): Double(days)
        case .time(let seconds), .picker(option: let seconds): Double(seconds)
        case .duration(let seconds): Double(seconds)
        case .datetime(let milliseconds): Double(milliseconds)
        case .boolean(let flag): flag ? 1 : 0
        case .text, .image: 0
        }
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

    /// The value of the row at `position` of the value order.
    private func value(at position: Int) -> CellValue { kept[Int(byValue.slot(at: position))] }

    // MARK: Keeping it current

    /// A new empty group at `group`.
    mutating func insertGroup(at group: Int) {
        filled.insertSection(at: group)
        distinct.insert(0, at: group)
        sums.insert(CompensatedSum(), at: group)
    }

    /// Drops `group` (it must be empty).
    mutating func removeGroup(at group: Int) {
        filled.removeSection(at: group)
        distinct.remove(at: group)
        sums.remove(at: group)
    }

    /// Places `slot`, whose cell holds `value`, in `group`, which starts at position `start`.
    mutating func insert(_ slot: UInt32, value: CellValue, group: Int, start: Int) {
        if slot >= kept.count { kept.append(contentsOf: repeatElement(.empty, count: Int(slot) + 1 - kept.count)) }
        kept[Int(slot)] = value
        guard ordered else {
            if !value.isEmpty {
                filled.add(1, to: group)
                if adds { sums[group].add(Self.amount(value)) }
            }
            return
        }
        let filledEnd = start + filled.counts[group]
        guard !value.isEmpty else {
            byValue.insert(slot, at: filledEnd)
            return
        }
        var low = start
        var high = filledEnd
        while low < high {
            let middle = (low + high) / 2
            let other = byValue.slot(at: middle)
            if Self.precedes(kept[Int(other)], other, value, slot) { low = middle + 1 } else { high = middle }
        }
        let isNew =
            (low == start || self.value(at: low - 1) != value) && (low == filledEnd || self.value(at: low) != value)
        byValue.insert(slot, at: low)
        filled.add(1, to: group)
        if isNew { distinct[group] += 1 }
        if adds { sums[group].add(Self.amount(value)) }
    }

    /// Takes `slot` out of `group`, which starts at position `start`; nothing when it is not held.
    mutating func remove(_ slot: UInt32, group: Int, start: Int) {
        guard ordered else {
            guard Int(slot) < kept.count else { return }
            let value = kept[Int(slot)]
            kept[Int(slot)] = .empty
            if !value.isEmpty {
                filled.add(-1, to: group)
                if adds { sums[group].remove(Self.amount(value)) }
            }
            return
        }
        guard let position = byValue.position(of: slot) else { return }
        let value = kept[Int(slot)]
        kept[Int(slot)] = .empty
        byValue.remove(at: position)
        guard !value.isEmpty else { return }
        filled.add(-1, to: group)
        let filledEnd = start + filled.counts[group]
        let wasOnly =
            (position == start || self.value(at: position - 1) != value)
            && (position == filledEnd || self.value(at: position) != value)
        if wasOnly { distinct[group] -= 1 }
        if adds { sums[group].remove(Self.amount(value)) }
    }

    // MARK: Reading it

    /// `function` of `group`, which starts at position `start`: `nil` when the group has no value
    /// to give (`count` and `countDistinct` always give one). `first` and `last` are the caller's:
    /// they follow the view's order, not this one.
    func result(_ function: AggregateFunction, group: Int, start: Int) -> AggregateValue? {
        let count = filled.counts[group]
        switch function {
        case .count: return .count(count)
        case .countDistinct: return .count(distinct[group])
        case .sum: return adds ? .value(total(sums[group].value)) : nil
        case .avg: return adds && count > 0 ? .value(total(sums[group].value / Double(count))) : nil
        case .min: return count > 0 ? .value(value(at: start)) : nil
        case .max: return count > 0 ? .value(value(at: start + count - 1)) : nil
        case .median:
            guard count > 0 else { return nil }
            let upper = value(at: start + count / 2)
            guard count % 2 == 0 else { return .value(upper) }
            let lower = value(at: start + count / 2 - 1)
            return adds ? .value(total((Self.amount(lower) + Self.amount(upper)) / 2)) : .value(lower)
        case .first, .last: return nil
        }
    }

    /// A total or mean as a value of the column's type (whole seconds for a duration).
    private func total(_ amount: Double) -> CellValue {
        durations ? .duration(seconds: Int64(amount.rounded())) : .number(amount)
    }
}

/// What an aggregate of a group comes to: a count, or a value of the column's type.
public enum AggregateValue: Sendable, Hashable {
    /// A count of cells or of different values.
    case count(Int)
    /// A value as the column holds it (a total or mean of a duration column is a duration).
    case value(CellValue)
}
