import Dispatch

/// The rows a filter lets through, in the table's current order, and their heights under the
/// rules asked for: kept current by every change to the table, O(log n) per changed row, like
/// the table's own row offsets. Views whose filters are equal share one.
struct FilteredRows: Sendable {
    /// The views whose filter this is.
    var views: [UInt64]
    var filter: RowFilter
    /// The admitted rows' slots, in the current order.
    var rows: RowOrder
    /// Heights of the admitted rows under the rules of views that asked for them.
    var keptOffsets: [KeptOffsets] = []
    /// Sums of the admitted rows' numbers for the view-order columns, in their order.
    var keptSums: [KeptSums] = []
}

/// The rows a filter admits at one version of a table (``Table/admittedRows(_:)``).
public struct AdmittedRows: Sendable {
    let version: UInt64
    let rows: RowOrder
}

extension Table {
    /// The rows `filter` admits, in the current order: work over every row (O(n)) that may be
    /// done on a copy of the table, off its lock, and handed to ``setFilter(_:id:admitting:)``.
    ///
    /// Rows are looked at in the order they lie in memory (slot by slot, so a sorted table's
    /// scattered rows cost no cache misses), a large table in pieces, one per core at a time,
    /// a condition on a number or text column a column at a time (``RowFilter/admit(_:into:of:)``);
    /// then the admitted ones are taken in the current order from a bit per slot.
    public func admittedRows(_ filter: RowFilter) -> AdmittedRows {
        let pieceSlots = 65_536
        let words = (slotCount + 63) / 64
        var admits = [UInt64](repeating: 0, count: words)
        admits.withUnsafeMutableBufferPointer { bits in
            // Pieces are whole words of bits: each is written by one thread only.
            let bits = UnsafeMutableSendableBuffer(bits)
            let pieces = (slotCount + pieceSlots - 1) / pieceSlots
            let table = self
            // A coded column's texts are searched once, not once per row.
            let found = filter.search.isEmpty ? [] : filter.searchFound(in: self)
            let outcomes = CodedOutcomes()
            let lookAt = { @Sendable (piece: Int) in
                let start = piece * pieceSlots / 64
                filter.admit(
                    start..<min(words, start + pieceSlots / 64),
                    into: bits.buffer,
                    of: table,
                    found: found,
                    outcomes: outcomes
                )
            }
            if pieces > 1 {
                DispatchQueue.concurrentPerform(iterations: pieces, execute: lookAt)
            } else if pieces == 1 {
                lookAt(0)
            }
        }
        let rows = slotsInOrder { slot in admits[Int(slot) >> 6] & (1 << UInt64(slot & 63)) != 0 }
        return AdmittedRows(version: version, rows: RowOrder(rows))
    }

    /// Sets the filter with `id` (a view's, unique in the process: the caller gives it), in
    /// place of the one it had. The table's data and version do not change. A view whose filter
    /// equals another view's shares its rows (kept current once for both); otherwise
    /// `admitted`, worked out at this version, is taken as it is, or every row is looked at
    /// here (O(n)). A filter that lets every row through is not kept: the view shows every row.
    ///
    /// The view's sections follow the filter: `sections`, worked out on a copy with the filter
    /// set (``preparedSections(_:id:within:)``), are taken when they are of this version.
    public mutating func setFilter(
        _ filter: RowFilter,
        id: UInt64,
        admitting admitted: AdmittedRows? = nil,
        sections prepared: PreparedSections? = nil
    ) {
        removeFilter(id)
        if !filter.isEmpty {
            if let shared = filters.firstIndex(where: { $0.filter == filter }) {
                filters[shared].views.append(id)
            } else {
                let rows = admitted.flatMap { $0.version == version ? $0.rows : nil } ?? admittedRows(filter).rows
                filters.append(FilteredRows(views: [id], filter: filter, rows: rows))
            }
            filterGeneration += 1
        }
        sectionsFollowFilter(id, prepared: prepared)
    }

    /// Drops the filter with `id` (a view's filter cleared, or its connection gone).
    public mutating func dropFilter(_ id: UInt64) {
        removeFilter(id)
        sectionsFollowFilter(id)
    }

    private mutating func removeFilter(_ id: UInt64) {
        guard let index = filterIndex(id) else { return }
        filters[index].views.removeAll { $0 == id }
        if filters[index].views.isEmpty { filters.remove(at: index) }
        filterGeneration += 1
    }

    /// Whether the table keeps a filter with `id`.
    public func hasFilter(_ id: UInt64) -> Bool {
        filterIndex(id) != nil
    }

    /// How many rows the filter with `id` lets through (every row without one).
    public func shownCount(filter id: UInt64?) -> Int {
        guard let id, let index = filterIndex(id) else { return rowCount }
        return filters[index].rows.count
    }

    /// The filter with `id` in words (see ``RowFilter/description(in:)``).
    public func filterDescription(_ id: UInt64) -> String {
        guard let index = filterIndex(id) else { return "" }
        return filters[index].filter.description(in: self)
    }

    /// The filter with `id` as set.
    public func filter(_ id: UInt64) -> RowFilter? {
        filterIndex(id).map { filters[$0].filter }
    }

    func filterIndex(_ id: UInt64) -> Int? {
        filters.firstIndex { $0.views.contains(id) }
    }

    // MARK: Keeping filtered rows current

    /// `slot` went into the current order at `position`: each filter that admits it takes it in.
    mutating func filtersInsert(_ slot: UInt32, at position: Int) {
        var place: OrderPlace?
        for index in filters.indices where filters[index].filter.admits(slot, in: self) {
            if place == nil { place = orderPlace(at: position) }
            placeFiltered(slot, at: place!, in: index)
        }
    }

    /// `slot` left the current order (for good, or to be placed again).
    mutating func filtersRemove(_ slot: UInt32) {
        for index in filters.indices { removeFiltered(slot, from: index) }
    }

    /// Cells of `slot` in `columns` changed: filters that read one of them may now admit or
    /// refuse its row, and its height may have changed. A filter that reads none of them and
    /// keeps no heights has nothing to do.
    mutating func filtersUpdate(_ slot: UInt32, columns: [Int]) {
        guard !filters.isEmpty, natural.contains(slot) else { return }
        var place: OrderPlace?
        for index in filters.indices {
            // (Only a cell of a column that may wrap can change its row's height.)
            let heights = filters[index].keptOffsets.contains { kept in columns.contains(where: kept.rule.reads) }
            let sums = filters[index].keptSums.contains { columns.contains($0.column) }
            guard heights || sums || columns.contains(where: filters[index].filter.reads) else { continue }
            let admits = filters[index].filter.admits(slot, in: self)
            let shown = filters[index].rows.contains(slot)
            switch (admits, shown) {
            case (true, false):
                if place == nil { place = orderPlace(at: orderPosition(of: slot)!) }
                placeFiltered(slot, at: place!, in: index)
            case (false, true): removeFiltered(slot, from: index)
            case (true, true) where heights || sums:
                let shownAt = filters[index].rows.position(of: slot)!
                for kept in filters[index].keptSums.indices {
                    filters[index].keptSums[kept].tree.set(
                        summedWeight(slot, filters[index].keptSums[kept].column),
                        at: shownAt
                    )
                }
                for kept in filters[index].keptOffsets.indices {
                    let height = height(of: slot, under: filters[index].keptOffsets[kept].rule)
                    if filters[index].keptOffsets[kept].index.height(at: shownAt) != height {
                        filters[index].keptOffsets[kept].index.setHeight(height, at: shownAt)
                    }
                }
            default: break
            }
        }
    }

    /// The current order was rebuilt with the same rows, or some rows left it: each filter keeps
    /// the rows it admitted that are still there, in the new order. (The sections follow when
    /// the change settles.)
    mutating func filtersFollowOrder() {
        for index in filters.indices {
            let old = filters[index].rows
            filters[index].rows = RowOrder(slotsInOrder { old.contains($0) })
            filters[index].keptOffsets = []
            filters[index].keptSums = []
        }
    }

    /// Rows or columns changed all at once (a load, an alter): each filter looks at every row
    /// again. (The sections follow when the change settles.)
    mutating func filtersReadmit() {
        for index in filters.indices {
            filters[index].rows = admittedRows(filters[index].filter).rows
            filters[index].keptOffsets = []
            filters[index].keptSums = []
        }
    }

    /// The slots of the current order for which `include` holds, in order.
    private func slotsInOrder(where include: (UInt32) -> Bool) -> [UInt32] {
        var slots: [UInt32] = []
        order.forEachSlot { slot in if include(slot) { slots.append(slot) } }
        return slots
    }

    /// How many rows before its own a row being placed in a view looks at for its nearest
    /// neighbour there, before it halves instead.
    static let placingLook = 32

    /// A row's place in the current order, with the rows just before it: looked up once for
    /// every filter that places the row.
    struct OrderPlace {
        /// Its position in the current order.
        var position: Int
        /// Up to ``placingLook`` rows before it, in order.
        var before: [UInt32]
    }

    /// The place at `position` of the current order.
    private func orderPlace(at position: Int) -> OrderPlace {
        let near = min(position, Self.placingLook)
        return OrderPlace(position: position, before: near > 0 ? orderSlots(from: position - near, limit: near) : [])
    }

    /// Takes `slot` out of the rows of filter `index`, if it is among them.
    private mutating func removeFiltered(_ slot: UInt32, from index: Int) {
        guard let position = filters[index].rows.remove(slot) else { return }
        for kept in filters[index].keptSums.indices { filters[index].keptSums[kept].tree.remove(at: position) }
        for kept in filters[index].keptOffsets.indices {
            filters[index].keptOffsets[kept].index.remove(at: position)
        }
    }

    /// Puts `slot`, at `place` in the current order, among the rows of filter `index`: right
    /// after the nearest admitted row before it in the current order. That row is looked for
    /// among the few rows just before (a filter that admits one row in k finds it within about
    /// k); when it is further, the place is found by halving (each step asks the current order
    /// for a position, O(log² n) in all).
    private mutating func placeFiltered(_ slot: UInt32, at place: OrderPlace, in index: Int) {
        let position = place.position
        var low = 0
        var found = false
        for other in place.before.reversed() where filters[index].rows.contains(other) {
            low = filters[index].rows.position(of: other)! + 1
            found = true
            break
        }
        if !found && place.before.count < position {
            var high = filters[index].rows.count
            while low < high {
                let middle = (low + high) / 2
                let other = filters[index].rows.slot(at: middle)
                if orderPosition(of: other)! < position { low = middle + 1 } else { high = middle }
            }
        }
        filters[index].rows.insert(slot, at: low)
        for kept in filters[index].keptSums.indices {
            filters[index].keptSums[kept].tree.insert(summedWeight(slot, filters[index].keptSums[kept].column), at: low)
        }
        for kept in filters[index].keptOffsets.indices {
            filters[index].keptOffsets[kept].index.insert(
                height(of: slot, under: filters[index].keptOffsets[kept].rule),
                at: low
            )
        }
    }

    // MARK: Offsets of filtered rows

    /// Offsets of the rows filter `id` admits, under `rule`; built on first use (O(m) for m
    /// admitted rows), kept current from then on.
    mutating func filteredOffsets(_ id: UInt64, for rule: RowHeightRule) -> RowOffsets? {
        if let kept = keptFilteredOffsets(id, for: rule) { return kept }
        guard let index = filterIndex(id) else { return nil }
        var heights: [Int] = []
        heights.reserveCapacity(filters[index].rows.count)
        filters[index].rows.forEachSlot { slot in heights.append(height(of: slot, under: rule)) }
        let offsets = OffsetIndex(heights: heights)
        if filters[index].keptOffsets.count >= Self.rowOffsetsLimit { filters[index].keptOffsets.removeFirst() }
        filters[index].keptOffsets.append(KeptOffsets(rule: rule, index: offsets))
        return .indexed(offsets)
    }

    /// Offsets of the rows filter `id` admits without building anything: `nil` when they need an
    /// index not built yet (or there is no such filter).
    func keptFilteredOffsets(_ id: UInt64, for rule: RowHeightRule) -> RowOffsets? {
        guard let index = filterIndex(id) else { return nil }
        let count = filters[index].rows.count
        if rule.isUniform || !contentWidths.contains(where: { $0.measure.identity == rule.measure }) {
            return .uniform(height: rule.rowHeight, count: count)
        }
        if let kept = filters[index].keptOffsets.first(where: { $0.rule == rule }) { return .indexed(kept.index) }
        return nil
    }
}
