/// A number column's values in the order of one view's rows, summed by a counted tree: the
/// running sum before any of them in O(log n), kept current by every change like the row
/// offsets kept beside it.
struct KeptSums: Sendable {
    /// The number column summed (its index).
    var column: Int
    var tree: CountedSumTree<NumberWeight>
}

extension Table {
    /// The columns whose values follow from the rows a view shows and their order, by index.
    var viewOrderColumns: [Int: ViewOrderFunction] { computed.viewOrder }

    /// Whether `column` is worked out from the rows a view shows and their order
    /// (`runningSum`, `runningCount`, `rank`, `percentOfTotal`).
    public func followsViewOrder(_ column: Int) -> Bool {
        computed.viewOrder[column] != nil
    }

    /// Refuses `column` for what a view's rows are made of: sorting, filtering, grouping or
    /// counting distinct values by a column that follows the view's order would change the
    /// values it is worked out from.
    public func checkNotViewOrder(_ column: Int, _ use: String, field: String) throws(TableError) {
        guard followsViewOrder(column) else { return }
        throw .invalidArgument(
            "\(columns[column].key) follows the order of the rows a view shows: it cannot be \(use).",
            field: field
        )
    }

    /// What `slot` adds to a sum of `column`: its number, or nothing when empty.
    func summedWeight(_ slot: UInt32, _ column: Int) -> Double {
        if case .number(let number) = cell(column, slot) { return number }
        return 0
    }

    // MARK: The sums of a view's rows

    /// The sums of `column` kept for `rows`, if they are.
    func keptSums(_ rows: ViewRows, column: Int) -> CountedSumTree<NumberWeight>? {
        let kept: [KeptSums] =
            switch rows {
            case .all: keptSums
            case .filtered(let index): filters[index].keptSums
            case .sectioned(let index): sections[index].keptSums
            }
        return kept.first { $0.column == column }?.tree
    }

    /// Whether every sum the view-order columns need for `rows` is kept.
    func viewOrderSumsKept(_ rows: ViewRows) -> Bool {
        viewOrderColumns.values.allSatisfy { function in
            function.summed.map { keptSums(rows, column: $0) != nil } ?? true
        }
    }

    /// Builds the sums the view-order columns need for `rows` that are not kept yet (O(rows)
    /// each, once; every change keeps them current from then on).
    mutating func keepViewOrderSums(_ rows: ViewRows) {
        for column in Set(viewOrderColumns.values.compactMap(\.summed)) where keptSums(rows, column: column) == nil {
            let sums = KeptSums(column: column, tree: buildSums(rows, column: column))
            switch rows {
            case .all: keptSums.append(sums)
            case .filtered(let index): filters[index].keptSums.append(sums)
            case .sectioned(let index): sections[index].keptSums.append(sums)
            }
        }
    }

    /// The sums the view-order columns `columns` (every one without) need for `rows`: those
    /// kept, the others built (O(rows) each), once for a read that goes through many rows.
    func viewOrderSums(_ rows: ViewRows, for columns: [Int]? = nil) -> [Int: CountedSumTree<NumberWeight>] {
        var sums: [Int: CountedSumTree<NumberWeight>] = [:]
        let functions = columns.map { $0.compactMap { viewOrderColumns[$0] } } ?? Array(viewOrderColumns.values)
        for column in Set(functions.compactMap(\.summed)) {
            sums[column] = keptSums(rows, column: column) ?? buildSums(rows, column: column)
        }
        return sums
    }

    /// The sums of `column` over `rows`, built in O(rows).
    private func buildSums(_ rows: ViewRows, column: Int) -> CountedSumTree<NumberWeight> {
        var weights: [Double] = []
        weights.reserveCapacity(count(of: rows))
        let add = { (slot: UInt32) in weights.append(self.summedWeight(slot, column)) }
        switch rows {
        case .all: order.forEachSlot(add)
        case .filtered(let index): filters[index].rows.forEachSlot(add)
        case .sectioned(let index): sections[index].forEachShownSlot(add)
        }
        return CountedSumTree(weights)
    }

    // MARK: Values

    /// The values of view-order column `column` for the rows `slots`, at positions `from` on
    /// of `rows`: the first from the kept sums (or sums built for this read when none are
    /// kept), O(log n); each next one from the one before it.
    func viewOrderValues(
        _ column: Int,
        rows: ViewRows,
        from: Int,
        slots: [UInt32],
        sums given: [Int: CountedSumTree<NumberWeight>] = [:]
    ) -> [CellValue] {
        func sums(_ summed: Int) -> CountedSumTree<NumberWeight> {
            given[summed] ?? keptSums(rows, column: summed) ?? buildSums(rows, column: summed)
        }
        guard let function = viewOrderColumns[column], !slots.isEmpty else { return [] }
        var values: [CellValue] = []
        values.reserveCapacity(slots.count)
        switch function {
        case .runningCount:
            for offset in slots.indices { values.append(.number(Double(from + offset + 1))) }
        case .runningSum(let summed):
            var sum = sums(summed).sum(before: from)
            for slot in slots {
                sum += summedWeight(slot, summed)
                values.append(.number(sum))
            }
        case .percentOfTotal(let summed):
            let total = sums(summed).total
            for slot in slots {
                guard case .number(let number) = cell(summed, slot), total != 0 else {
                    values.append(.empty)
                    continue
                }
                values.append(.number(number / total * 100))
            }
        case .rank:
            let keys = rankKeys(rows)
            guard !keys.isEmpty else {
                for offset in slots.indices { values.append(.number(Double(from + offset + 1))) }
                break
            }
            var rank = firstOfTies(slots[0], at: from, in: rows, keys: keys) + 1
            for (offset, slot) in slots.enumerated() {
                if offset > 0, !ties(slot, slots[offset - 1], keys: keys) { rank = from + offset + 1 }
                values.append(.number(Double(rank)))
            }
        }
        return values
    }

    /// The values by which rows of `rows` tie for `rank`: the groups' columns of sections, then
    /// the sort keys (rows that tie in all of them lie next to each other); none without a sort.
    private func rankKeys(_ rows: ViewRows) -> [Int] {
        let sorted = resolvedSortKeys.map(\.column)
        guard !sorted.isEmpty else { return [] }
        return (rows.sectionsIndex.map { sections[$0].spec.columns } ?? []) + sorted
    }

    /// Whether the rows in `left` and `right` hold equal values in every one of `keys`.
    private func ties(_ left: UInt32, _ right: UInt32, keys: [Int]) -> Bool {
        keys.allSatisfy { ValueOrder.compare(cell($0, left), cell($0, right)) == 0 }
    }

    /// The position of the first row of `rows` that ties with `slot` (at `position`): found by
    /// steps that double going back, then by halving, O(log n) looks.
    private func firstOfTies(_ slot: UInt32, at position: Int, in rows: ViewRows, keys: [Int]) -> Int {
        func tiesAt(_ other: Int) -> Bool { ties(self.slots(of: rows, from: other, limit: 1)[0], slot, keys: keys) }
        // `low` ties; steps back double until one does not, then the first tie is halved for.
        var (low, step) = (position, 1)
        while low > 0 {
            let probe = max(0, low - step)
            guard !tiesAt(probe) else {
                (low, step) = (probe, step * 2)
                continue
            }
            var (first, last) = (probe + 1, low)
            while first < last {
                let middle = (first + last) / 2
                if tiesAt(middle) { last = middle } else { first = middle + 1 }
            }
            return first
        }
        return 0
    }

    // MARK: Widths

    /// The magnitudes of the columns the view-order columns sum, over every row: O(n).
    func measuredMagnitudes() -> [Int: Double] {
        var magnitudes: [Int: Double] = [:]
        for column in Set(viewOrderColumns.values.compactMap(\.summed)) {
            var sum = 0.0
            natural.forEachSlot { sum += abs(summedWeight($0, column)) }
            magnitudes[column] = sum
        }
        return magnitudes
    }

    /// The display text as wide as any value of view-order column `column` may be: a running
    /// sum within the magnitude of its column (rounded up to the next power of ten, so that it
    /// changes seldom), a count or rank within the number of rows, a percentage within
    /// ±100 × magnitude ÷ |sum| (at least ±100).
    func viewOrderWidest(_ column: Int) -> String {
        let rules = columns[column].rules
        let bound: Double
        switch viewOrderColumns[column]! {
        case .runningCount, .rank: bound = viewOrderRowPower - 1
        case .runningSum(let summed): bound = -(Self.ceilingPowerOfTen(viewOrderMagnitudes?[summed] ?? 0) - 1)
        case .percentOfTotal: bound = -100
        }
        return rules.displayText(.number(bound))
    }

    /// The least power of ten above `value` (at least 10).
    static func ceilingPowerOfTen(_ value: Double) -> Double {
        guard value.isFinite else { return 10 }
        var power = 10.0
        while power <= value && power < 1e300 { power *= 10 }
        return power
    }

    /// After a change: the magnitudes take in the numbers set and added; when a bound a
    /// view-order column's width allows for grows past its power of ten (or the row count does),
    /// plans are made again.
    mutating func takeInViewOrderMagnitudes(_ steps: ChangeSteps) {
        guard !viewOrderColumns.isEmpty, var magnitudes = viewOrderMagnitudes else { return }
        if steps.schema || steps.tooManyCells || steps.rebuilt == .rows {
            viewOrderMagnitudes = nil
            newLayoutGeneration()
            return
        }
        let before = magnitudes.mapValues(Self.ceilingPowerOfTen)
        for touch in steps.firstTouches() where magnitudes[touch.column] != nil {
            if let appended = steps.appended, appended.contains(touch.slot) { continue }
            var old = 0.0
            if case .number(let number) = touch.old { old = abs(number) }
            magnitudes[touch.column]! += abs(summedWeight(touch.slot, touch.column)) - old
        }
        if let appended = steps.appended {
            for column in magnitudes.keys {
                for slot in appended { magnitudes[column]! += abs(summedWeight(slot, column)) }
            }
        }
        viewOrderMagnitudes = magnitudes
        if magnitudes.mapValues(Self.ceilingPowerOfTen) != before
            || Self.ceilingPowerOfTen(Double(rowCount)) != viewOrderRowPower
        {
            newLayoutGeneration()
        }
    }
}
