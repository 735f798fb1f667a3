extension Table {
    /// Whether `count` more rows go in (at the end, or at `index` of the table's own order)
    /// with no O(n) work: every array kept per slot (the columns' stores, the flags, the row
    /// versions, generated ids, the key index, the orders' side tables, the kept row widths)
    /// has room for them, a coded column's codes are wide enough for new texts in each of
    /// them, and no order has to build its tree.
    ///
    /// An array that is full copies every slot it holds when it grows: 10–20 ms at a million
    /// rows, too long for an `add` answered on an event loop. A request that finds no room
    /// makes it first on a copy of the table, off the table's lock (``makeRoom(forAdding:at:)``).
    public func hasRoom(forAdding count: Int, at index: Int? = nil) -> Bool {
        let appending = index == nil || index == rowCount
        let needed = slotCount + max(0, count - freeSlots.count)
        guard natural.hasRoom(forSlotsBelow: needed, appending: appending),
            stores.allSatisfy({ $0.codesHaveRoom(forTexts: count) })
        else { return false }
        guard needed > slotCount else { return true }
        guard stores.allSatisfy({ $0.capacity >= needed }), flags.capacity >= needed,
            rowVersions.hasRoom(for: needed, slotCount: slotCount),
            sorted?.hasRoom(forSlotsBelow: needed, appending: false) ?? true,
            filters.allSatisfy({ $0.rows.hasRoom(forSlotsBelow: needed, appending: false) }),
            sections.allSatisfy({ $0.rows.hasRoom(forSlotsBelow: needed, appending: false) }),
            contentWidths.allSatisfy({ $0.hasRoom(forSlotsBelow: needed) })
        else { return false }
        if keyColumn != nil { return keyIndex.hasRoom(forTotal: keyIndex.count + count, slotsBelow: needed) }
        return generatedIDs.capacity >= needed && slotOfGeneratedID.capacity >= slotOfGeneratedID.count + count
    }

    /// Makes the room ``hasRoom(forAdding:at:)`` looks for, and as much again as the table has
    /// slots, so that rows added one at a time find no full array until the table has doubled.
    /// O(n): for a copy of the table, off its lock. Changes no row (and no version).
    public mutating func makeRoom(forAdding count: Int, at index: Int? = nil) {
        let appending = index == nil || index == rowCount
        let needed = slotCount + max(0, count - freeSlots.count)
        let capacity = max(needed, 2 * slotCount, 64)
        natural.makeRoom(forSlotsBelow: capacity, appending: appending)
        for column in stores.indices { stores[column].makeCodeRoom(forTexts: count) }
        guard needed > slotCount else { return }
        for column in stores.indices { stores[column].reserve(capacity) }
        flags.reserveCapacity(capacity)
        rowVersions.makeRoom(for: capacity, slotCount: slotCount)
        sorted?.makeRoom(forSlotsBelow: capacity, appending: false)
        for filter in filters.indices { filters[filter].rows.makeRoom(forSlotsBelow: capacity, appending: false) }
        for section in sections.indices { sections[section].rows.makeRoom(forSlotsBelow: capacity, appending: false) }
        for widths in contentWidths.indices { contentWidths[widths].makeRoom(forSlotsBelow: capacity) }
        if keyColumn != nil {
            // (A hash table grows by doubling its buckets once it is 70% full: room for these
            // rows is room for many more, and it keeps 4 bytes a bucket, written as it grows.)
            keyIndex.reserve(keyIndex.count + count, slotsBelow: capacity, idOf: keyReader())
        } else {
            generatedIDs.reserveCapacity(capacity)
            slotOfGeneratedID.reserveCapacity(slotOfGeneratedID.count + (capacity - slotCount))
        }
    }
}
