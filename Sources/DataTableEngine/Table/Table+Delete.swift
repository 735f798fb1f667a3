extension Table {
    /// Deletes the rows with `ids` as one change; an unknown id refuses it whole. Returns how many
    /// rows went.
    public mutating func delete(_ ids: [RowID]) throws(TableError) -> Int {
        beginChange()
        defer { endChange() }
        var slots: [UInt32] = []
        var seen: Set<UInt32> = []
        for id in ids {
            let slot = try requireSlot(id)
            if seen.insert(slot).inserted { slots.append(slot) }
        }
        remove(slots)
        return slots.count
    }

    /// The ids of up to `limit` rows from `position` in the current order.
    public func ids(from position: Int, limit: Int) -> [RowID] {
        orderSlots(from: position, limit: limit).map { id(of: $0) }
    }

    /// Deletes every row as one change, keeping the columns, the sort and the ids not yet given
    /// (a table without a key never gives an id twice); returns how many went.
    public mutating func clear() -> Int {
        beginChange()
        defer { endChange() }
        let slots = natural.allSlots
        remove(slots)
        return slots.count
    }

    /// Deletes the selected rows (`within` a view's filter: the selected rows it shows); returns
    /// how many.
    public mutating func deleteSelection(within filter: UInt64? = nil) -> Int {
        beginChange()
        defer { endChange() }
        let slots = selectedSlotsInOrder(within: filter)
        remove(slots)
        return slots.count
    }

    /// Deletes the rows in `slots` as one change that undo can take back.
    private mutating func remove(_ slots: [UInt32]) {
        guard !slots.isEmpty else { return }
        record([.rowsRemoved(save(slots))])
        removeRows(slots)
        version += 1
    }

    /// Takes the rows in `slots` out of the orders and frees their slots.
    mutating func removeRows(_ slots: [UInt32]) {
        guard !slots.isEmpty else { return }
        if slots.count > rowCount / 4 && slots.count > 1000 {
            // Many rows: rebuild the orders once instead of removing one by one.
            let gone = Set(slots)
            natural = RowOrder(natural.allSlots.filter { !gone.contains($0) })
            settleNaturalOrder()
            if let order = sorted { sorted = RowOrder(order.allSlots.filter { !gone.contains($0) }) }
            noteRebuilt(.order)
        } else {
            for slot in slots { removeFromOrders(slot) }
        }
        for slot in slots { releaseSlot(slot) }
    }
}
