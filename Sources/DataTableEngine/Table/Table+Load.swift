extension Table {
    /// Adds rows read by ``TableLoader`` as one change; returns how many. The rows must have been
    /// parsed for this table's columns. A key column's values must be new ids; otherwise
    /// nothing is added and the problems name their lines. Under a sort the table is re-sorted.
    /// A load cannot be undone, and the changes before it can no longer be. Past the table's
    /// limit the oldest rows go, one version later (``droppedByLimit``).
    public mutating func append(_ loaded: LoadedRows) throws(TableError) -> Int {
        beginChange()
        defer { endChange() }
        precondition(loaded.columns.map(\.key) == columns.map(\.key), "rows parsed for other columns")
        let count = loaded.count
        guard count > 0 else { return 0 }
        var keys: [RowID] = []
        if let keyColumn {
            var problems: [CellProblem] = []
            var seen: Set<RowID> = []
            keys.reserveCapacity(count)
            var row = 0
            for chunk in loaded.chunks {
                let store = chunk[keyColumn]
                for slot in 0..<UInt32(store.count) {
                    let line = loaded.lines[row]
                    row += 1
                    let value = store[slot]
                    let name = columns[keyColumn].key
                    do throws(ValidationFailure) {
                        try Self.checkKey(value)
                    } catch {
                        problems.append(CellProblem(line: line, column: name, input: "", message: error.message))
                        continue
                    }
                    let id = Self.rowID(forKey: value)!
                    if self.slot(of: id) != nil || !seen.insert(id).inserted {
                        problems.append(
                            CellProblem(
                                line: line,
                                column: name,
                                input: id.description,
                                message: "Another row already has this id."
                            )
                        )
                    }
                    keys.append(id)
                    if problems.count >= Self.problemLimit { break }
                }
            }
            if !problems.isEmpty { throw .invalidValues(problems) }
        }
        let first = UInt32(slotCount)
        for column in stores.indices {
            stores[column].reserve(slotCount + count)
            for chunk in loaded.chunks { stores[column].append(contentsOf: chunk[column]) }
        }
        flags.append(contentsOf: repeatElement(RowFlags(), count: count))
        rowVersions.appendSlots(count, at: version + 1, slotCount: slotCount)
        slotCount += count
        let newSlots = (0..<UInt32(count)).map { first + $0 }
        if keyColumn == nil {
            generatedIDs.reserveCapacity(slotCount)
            slotOfGeneratedID.reserveCapacity(slotOfGeneratedID.count + count)
            for slot in newSlots {
                generatedIDs.append(Int64(slotOfGeneratedID.count + 1))
                slotOfGeneratedID.append(slot)
            }
        } else {
            keyIndex.reserve(keyIndex.count + count, idOf: keyReader())
            let reader = keyReader()
            for (slot, id) in zip(newSlots, keys) { keyIndex.insert(slot, id: id, idOf: reader) }
        }
        if !computed.isEmpty { deriveSlots(first..<UInt32(slotCount)) }
        steps.append(first..<UInt32(slotCount))
        noteRebuilt(.rows)
        natural = RowOrder(natural.allSlots + newSlots)
        if !sortKeys.isEmpty { try sort(by: sortKeys) }
        forgetHistory()
        version += 1
        _ = dropPastLimit()
        let remembered = newSlots.suffix(RecentAdditions.capacity).map { ($0, id(of: $0)) }
        recentAdditions.note(remembered, version: version, more: newSlots.count - remembered.count)
        return count
    }

    /// The ids of the rows in the last `count` slots, in order: the rows the last
    /// ``append(_:)`` added (it fills new slots at the end), for an event that lists them.
    public func idsOfLastSlots(_ count: Int) -> [RowID] {
        (max(0, slotCount - count)..<slotCount).map { id(of: UInt32($0)) }
    }
}
