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
        let first = UInt32(slotCount)
        appendColumns(of: loaded.chunks, making: slotCount + count)
        let newSlots = (0..<UInt32(count)).map { first + $0 }
        if keyColumn != nil {
            let problems = indexKeys(of: newSlots, lines: loaded.lines)
            if !problems.isEmpty {
                for column in stores.indices { stores[column].removeSlots(from: slotCount) }
                throw .invalidValues(problems)
            }
        }
        flags.append(contentsOf: repeatElement(RowFlags(), count: count))
        rowVersions.appendSlots(count, at: version + 1, slotCount: slotCount)
        slotCount += count
        if keyColumn == nil {
            generatedIDs.reserveCapacity(slotCount)
            slotOfGeneratedID.reserveCapacity(slotOfGeneratedID.count + count)
            for slot in newSlots {
                generatedIDs.append(Int64(slotOfGeneratedID.count + 1))
                slotOfGeneratedID.append(slot)
            }
        }
        if !computed.isEmpty { deriveSlots(first..<UInt32(slotCount)) }
        steps.append(first..<UInt32(slotCount))
        noteRebuilt(.rows)
        natural = RowOrder(natural.allSlots + newSlots)
        settleNaturalOrder()
        if !sortKeys.isEmpty { try sort(by: sortKeys) }
        forgetHistory()
        version += 1
        _ = dropPastLimit()
        let remembered = newSlots.suffix(RecentAdditions.capacity).map { ($0, id(of: $0)) }
        recentAdditions.note(remembered, version: version, more: newSlots.count - remembered.count)
        return count
    }

    /// Appends each chunk's stores to the table's, column by column; a long load's columns on
    /// every core at once, the coded ones (whose dictionaries merge) first.
    private mutating func appendColumns(of chunks: [[ColumnStore]], making total: Int) {
        let rows = chunks.reduce(0) { $0 + ($1.first?.count ?? 0) }
        guard rows >= Self.rowsAppendedOnEveryCore, stores.count > 1 else {
            for column in stores.indices {
                stores[column].reserve(total)
                for chunk in chunks { stores[column].append(contentsOf: chunk[column]) }
            }
            return
        }
        let order = stores.indices.sorted { left, right in
            (chunks[0][left].isCoded ? 0 : 1, left) < (chunks[0][right].isCoded ? 0 : 1, right)
        }
        stores.withUnsafeMutableBufferPointer { stores in
            // Each piece writes its own column's store and nothing else.
            let target = UnsafeMutableSendableBuffer(stores)
            _ = ConcurrentPieces.map(order.count) { piece in
                let column = order[piece]
                target.buffer[column].reserve(total)
                for chunk in chunks { target.buffer[column].append(contentsOf: chunk[column]) }
            }
        }
    }

    /// Loads of at least this many rows have their columns appended on every core.
    static let rowsAppendedOnEveryCore = 65_536

    /// Adds the key column's values in `slots` (new rows whose values are stored) to the key
    /// index, each found and added in one probe. A value that is no id, or the id of another row
    /// (one there before or one of `slots`), is a problem on that row's line; when there is
    /// one, every slot added is taken out again and the problems are returned.
    private mutating func indexKeys(of slots: [UInt32], lines: [Int]) -> [CellProblem] {
        let column = keyColumn!
        let name = columns[column].key
        if keyIndex.count == 0, slots.count >= KeyIndex.piecewiseMinimum, let hashes = keyHashes(of: slots) {
            let reader = keyReader()
            let twins = keyIndex.fill(slots, hashes: hashes, idOf: reader)
            guard !twins.isEmpty else { return [] }
            keyIndex = KeyIndex()
            return twins.prefix(Self.problemLimit).map { row in
                CellProblem(
                    line: lines[row],
                    column: name,
                    input: reader(slots[row]).description,
                    message: "Another row already has this id."
                )
            }
        }
        let reader = keyReader()
        keyIndex.reserve(keyIndex.count + slots.count, slotsBelow: slotCount, idOf: reader)
        var problems: [CellProblem] = []
        var added = 0
        for (row, slot) in slots.enumerated() {
            let value = cell(column, slot)
            do throws(ValidationFailure) {
                try Self.checkKey(value)
            } catch {
                problems.append(CellProblem(line: lines[row], column: name, input: "", message: error.message))
                if problems.count >= Self.problemLimit { break }
                continue
            }
            let id = Self.rowID(forKey: value)!
            if keyIndex.insertUnlessPresent(slot, id: id, idOf: reader) != nil {
                problems.append(
                    CellProblem(
                        line: lines[row],
                        column: name,
                        input: id.description,
                        message: "Another row already has this id."
                    )
                )
                if problems.count >= Self.problemLimit { break }
                continue
            }
            added = row + 1
        }
        if !problems.isEmpty {
            for slot in slots[..<added] {
                let id = reader(slot)
                if keyIndex.find(id, idOf: reader) == slot { keyIndex.remove(id, idOf: reader) }
            }
        }
        return problems
    }

    /// The hashes of the ids in the key column's `slots` (``KeyIndex/hash(_:)``), worked out in
    /// pieces on every core; `nil` when a value there is no id (the index is then filled row by
    /// row, which says where).
    func keyHashes(of slots: [UInt32]) -> [UInt64]? {
        let store = stores[keyColumn!]
        let pieceRows = 65_536
        let pieces = (slots.count + pieceRows - 1) / pieceRows
        var hashes = [UInt64](repeating: 0, count: slots.count)
        let allIDs = hashes.withUnsafeMutableBufferPointer { hashes in
            let shared = UnsafeMutableSendableBuffer(hashes)
            return ConcurrentPieces.map(pieces) { piece in
                let hashes = shared.buffer
                for row in piece * pieceRows..<min(slots.count, (piece + 1) * pieceRows) {
                    let value = store[slots[row]]
                    guard (try? Self.checkKey(value)) != nil, let id = Self.rowID(forKey: value) else { return false }
                    hashes[row] = KeyIndex.hash(id)
                }
                return true
            }
        }
        return allIDs.allSatisfy { $0 } ? hashes : nil
    }

    /// The ids of the rows in the last `count` slots, in order: the rows the last
    /// ``append(_:)`` added (it fills new slots at the end), for an event that lists them.
    public func idsOfLastSlots(_ count: Int) -> [RowID] {
        (max(0, slotCount - count)..<slotCount).map { id(of: UInt32($0)) }
    }
}
