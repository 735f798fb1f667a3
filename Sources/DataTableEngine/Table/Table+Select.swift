/// What a `select` does with the rows it names.
public enum SelectAction: String, Sendable, CaseIterable {
    /// Exactly these rows.
    case set
    /// These rows too.
    case add
    /// Not these rows.
    case remove
    /// Selected ones off, others on.
    case toggle
}

/// Which rows a `select` names.
public enum RowTarget: Sendable {
    /// These rows, by id; an unknown id throws ``TableError/noSuchRow(_:)``.
    case ids([RowID])
    /// Positions `from ..< from + count` in the current order.
    case range(from: Int, count: Int)
    /// Every row.
    case all
    /// No row (with `set`, clears the selection).
    case none
}

extension Table {
    /// Changes the selection as one change; the rows named must exist. Under `single` mode the
    /// result may hold at most one row (`add` then replaces it); under `none` only clearing works.
    /// With `mode`, the selection switches to that mode first (see ``setSelectionMode(_:)``); the
    /// change is checked under the new mode before anything changes.
    ///
    /// `within` a view's filter (``setFilter(_:id:admitting:)``), a range counts the rows it
    /// shows and `all` is every row it shows.
    public mutating func select(
        _ action: SelectAction,
        _ target: RowTarget,
        mode: SelectionMode? = nil,
        within filter: UInt64? = nil
    ) throws(TableError) {
        beginChange()
        defer { endChange() }
        let slots = try slots(for: target, within: filter)
        let mode = mode ?? selectionMode
        let wanted: Int
        switch action {
        case .set: wanted = slots.count
        case .add: wanted = mode == .single ? slots.count : selectedCount + slots.count
        case .remove, .toggle: wanted = slots.count
        }
        switch mode {
        case .none where action != .remove && !slots.isEmpty:
            throw .invalidArgument("Selection is off for this table (mode none).", field: "mode")
        case .single where wanted > 1 && action != .remove:
            throw .invalidArgument("This table selects one row at a time (mode single).", field: "mode")
        default: break
        }
        setSelectionMode(mode)
        if action == .set || (action == .add && selectionMode == .single) { clearSelection() }
        for slot in slots {
            let selected = flags[Int(slot)].selected
            let now: Bool
            switch action {
            case .set, .add: now = true
            case .remove: now = false
            case .toggle: now = !selected
            }
            if now != selected {
                flags[Int(slot)].selected = now
                selectedCount += now ? 1 : -1
                steps.selection.append(slot)
            }
        }
        if selectionMode == .single && selectedCount > 1 {
            // A toggle that turned on a second row: keep the row just named.
            let keep = slots.last { flags[Int($0)].selected }
            clearSelection()
            if let keep {
                flags[Int(keep)].selected = true
                selectedCount = 1
                steps.selection.append(keep)
            }
        }
        version += 1
    }

    /// Switches the selection mode; a selection the new mode cannot hold is cut to its first row
    /// (`single`) or cleared (`none`).
    public mutating func setSelectionMode(_ mode: SelectionMode) {
        beginChange()
        defer { endChange() }
        guard mode != selectionMode else { return }
        selectionMode = mode
        newLayoutGeneration()
        switch mode {
        case .none: clearSelection()
        case .single where selectedCount > 1:
            let first = selectedSlotsInOrder().first
            clearSelection()
            if let first {
                flags[Int(first)].selected = true
                selectedCount = 1
                steps.selection.append(first)
            }
        default: break
        }
        version += 1
    }

    /// Ids of the selected rows in the current order (`within` a view's filter: those it shows).
    public func selectedIDs(within filter: UInt64? = nil) -> [RowID] {
        selectedSlotsInOrder(within: filter).map { id(of: $0) }
    }

    /// The selected rows in the current order; `within` a view's filter, those it shows.
    func selectedSlotsInOrder(within filter: UInt64? = nil) -> [UInt32] {
        guard selectedCount > 0 else { return [] }
        var result: [UInt32] = []
        if let shown = filter.flatMap(filterIndex) {
            filters[shown].rows.forEachSlot { slot in
                if flags[Int(slot)].selected { result.append(slot) }
            }
            return result
        }
        result.reserveCapacity(selectedCount)
        order.forEachSlot { slot in
            if flags[Int(slot)].selected { result.append(slot) }
        }
        return result
    }

    private mutating func clearSelection() {
        guard selectedCount > 0 else { return }
        for index in flags.indices where flags[index].selected {
            flags[index].selected = false
            steps.selection.append(UInt32(index))
        }
        selectedCount = 0
    }

    /// The slots a target names, in the order named.
    func slots(for target: RowTarget, within filter: UInt64? = nil) throws(TableError) -> [UInt32] {
        let shown = filter.flatMap(filterIndex)
        let rowCount = shownCount(shown)
        switch target {
        case .ids(let ids):
            var slots: [UInt32] = []
            slots.reserveCapacity(ids.count)
            for id in ids { slots.append(try requireSlot(id)) }
            return slots
        case .range(let from, let count):
            guard from >= 0, count >= 0, from <= rowCount, count <= rowCount - from else {
                throw .invalidArgument(
                    "The range must lie within the \(shown == nil ? "table's" : "view's") \(rowCount) rows: "
                        + "from 0 or more, count 0 or more, from + count at most \(rowCount).",
                    field: "from"
                )
            }
            return shownSlots(shown, from: from, limit: count)
        case .all:
            return shownSlots(shown, from: 0, limit: rowCount)
        case .none:
            return []
        }
    }
}
