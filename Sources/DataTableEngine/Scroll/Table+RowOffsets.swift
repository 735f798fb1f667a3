/// One kept ``OffsetIndex``: the row heights of the current order under a rule.
struct KeptOffsets: Sendable {
    var rule: RowHeightRule
    var index: OffsetIndex
}

extension Table {
    /// How many rules' offset indexes a table keeps; asking for another drops the oldest.
    static let rowOffsetsLimit = 4

    /// Row offsets of the current order under `rule`. The first call for a rule whose rows
    /// differ in height builds an ``OffsetIndex`` (O(n)); every change to rows or order keeps it
    /// current from then on, in O(log n) per row.
    public mutating func rowOffsets(for rule: RowHeightRule) -> RowOffsets {
        if let kept = keptRowOffsets(for: rule) { return kept }
        // Not kept: the rows differ in height, and the widths they come from are there.
        let widths = contentWidths.first(where: { $0.measure.identity == rule.measure })!
        var heights: [Int] = []
        heights.reserveCapacity(rowCount)
        order.forEachSlot { slot in heights.append(Self.height(of: slot, under: rule, widths: widths)) }
        let index = OffsetIndex(heights: heights)
        if keptOffsets.count >= Self.rowOffsetsLimit { keptOffsets.removeFirst() }
        keptOffsets.append(KeptOffsets(rule: rule, index: index))
        return .indexed(index)
    }

    /// Row offsets under `rule` without building an index: `nil` when the rule's rows differ in
    /// height and no index is kept for it yet.
    func keptRowOffsets(for rule: RowHeightRule) -> RowOffsets? {
        if rule.isUniform { return .uniform(height: rule.rowHeight, count: rowCount) }
        if let kept = keptOffsets.first(where: { $0.rule == rule }) { return .indexed(kept.index) }
        guard contentWidths.contains(where: { $0.measure.identity == rule.measure }) else {
            // Only a plan of this table has a rule, and making it measured the rows.
            return .uniform(height: rule.rowHeight, count: rowCount)
        }
        return nil
    }

    /// A row's height under `rule`, from the widths kept for its measure.
    static func height(of slot: UInt32, under rule: RowHeightRule, widths: ContentWidths) -> Int {
        let tall = rule.thresholds.contains { widths.width(slot: slot, column: $0.column) > $0.units }
        return tall ? rule.tallHeight : rule.rowHeight
    }

    /// The height of the row in `slot` under a kept rule.
    func height(of slot: UInt32, under rule: RowHeightRule) -> Int {
        guard let widths = contentWidths.first(where: { $0.measure.identity == rule.measure }) else {
            return rule.rowHeight
        }
        return Self.height(of: slot, under: rule, widths: widths)
    }

    // MARK: Keeping the indexes current

    /// A cell of `slot` changed: its row's height may have.
    mutating func rowOffsetsUpdate(_ slot: UInt32) {
        guard !keptOffsets.isEmpty, let position = orderPosition(of: slot) else { return }
        for kept in keptOffsets.indices {
            let height = height(of: slot, under: keptOffsets[kept].rule)
            if keptOffsets[kept].index.height(at: position) != height {
                keptOffsets[kept].index.setHeight(height, at: position)
            }
        }
    }

    /// The whole order changed (a sort, a load, a large delete): the indexes and sums are
    /// rebuilt when next asked for.
    mutating func forgetRowOffsets() {
        keptOffsets.removeAll()
        keptSums.removeAll()
        for index in filters.indices {
            filters[index].keptOffsets.removeAll()
            filters[index].keptSums.removeAll()
        }
        for index in sections.indices {
            sections[index].keptOffsets.removeAll()
            sections[index].keptSums.removeAll()
        }
    }

    /// The widths of `measure` are gone or replaced: so are the indexes built from them.
    mutating func forgetRowOffsets(measure: String) {
        keptOffsets.removeAll { $0.rule.measure == measure }
        for index in filters.indices { filters[index].keptOffsets.removeAll { $0.rule.measure == measure } }
        for index in sections.indices { sections[index].keptOffsets.removeAll { $0.rule.measure == measure } }
    }

    // MARK: The current order, its changes noted

    /// Inserts `slot` into the table's own order at `position` (a step of the current order when
    /// that is the one in force).
    mutating func insertNatural(_ slot: UInt32, at position: Int) {
        // (A table given a limit as it was made: its first rows build the tree while it is small.)
        settleNaturalOrder()
        natural.insert(slot, at: position)
        if sorted == nil { notePlaced(slot, at: position) }
    }

    /// Inserts `slot` into the sorted order at `position`.
    mutating func insertSorted(_ slot: UInt32, at position: Int) {
        sorted!.insert(slot, at: position)
        notePlaced(slot, at: position)
    }

    /// Removes `slot` from both orders.
    mutating func removeFromOrders(_ slot: UInt32) {
        let naturalPosition = natural.remove(slot)
        if sorted == nil {
            if let naturalPosition { noteTakenOut(slot, from: naturalPosition) }
        } else if let sortedPosition = sorted!.remove(slot) {
            noteTakenOut(slot, from: sortedPosition)
        }
    }

    /// Removes `slot` from the sorted order, to place it again.
    mutating func removeFromSorted(_ slot: UInt32) {
        if let position = sorted!.remove(slot) { noteTakenOut(slot, from: position) }
    }
}
