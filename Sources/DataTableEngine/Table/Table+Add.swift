extension Table {
    /// How long an added row stays highlighted, in seconds.
    public static let highlightSeconds = 2.0

    /// The most problems one refused batch reports.
    static let problemLimit = 100

    /// Adds `rows` as one change: every row is checked first, and one bad value refuses the
    /// whole batch. Under a sort each row lands where the sort puts it, after rows that sort
    /// equal; otherwise rows append, or go in at `index` in the order given.
    public mutating func add(_ rows: [RowInput], at index: Int? = nil, now: Double) throws(TableError) -> [AddedRow] {
        beginChange()
        defer { endChange() }
        if let index {
            guard sorted == nil else {
                throw .invalidArgument(
                    "The table is sorted, so rows go where the sort puts them; clear the sort to place rows by index.",
                    field: "index"
                )
            }
            guard index >= 0 && index <= rowCount else {
                throw .invalidArgument("index must be from 0 to \(rowCount).", field: "index")
            }
        }
        let added = insert(try prepare(rows), at: index, now: now)
        var parts: [UndoPart] = [.rowsAdded(SavedRows(ids: added.map(\.id)))]
        if let dropped = dropPastLimit() { parts.append(dropped) }
        record(parts)
        return stillInTable(added)
    }

    /// Puts checked rows in (see ``add(_:at:now:)``) as one change: the version goes up once.
    /// The caller records the change for undo.
    mutating func insert(_ prepared: [PreparedRow], at index: Int? = nil, now: Double) -> [AddedRow] {
        if prepared.count > 64 { reserve(extra: prepared.count) }
        var slots: [UInt32] = []
        slots.reserveCapacity(prepared.count)
        for (offset, row) in prepared.enumerated() {
            let slot = allocateSlot()
            for (column, value) in row.values.enumerated() { setCell(value, slot: slot, column: column, derive: false) }
            if !computed.isEmpty { deriveRow(slot) }
            flags[Int(slot)].readOnly = row.readOnly
            flags[Int(slot)].drillDown = row.drillDown
            if !row.readOnlyCells.isEmpty { cellReadOnly[slot] = row.readOnlyCells }
            _ = assignID(to: slot)
            insertNatural(slot, at: index.map { $0 + offset } ?? natural.count)
            if sorted != nil { placeInSortedOrder(slot) }
            slots.append(slot)
        }
        noteAdded(slots, now: now)
        version += 1
        let remembered = slots.suffix(RecentAdditions.capacity).map { ($0, id(of: $0)) }
        recentAdditions.note(remembered, version: version, more: slots.count - remembered.count)
        return slots.map { AddedRow(id: id(of: $0), index: orderPosition(of: $0)!, addedAt: now) }
    }

    /// Added rows as they are now: those the limit dropped again are left out, and the others'
    /// positions are after the drop.
    func stillInTable(_ added: [AddedRow]) -> [AddedRow] {
        guard !droppedByLimit.isEmpty else { return added }
        return added.compactMap { row in
            self.index(of: row.id).map { AddedRow(id: row.id, index: $0, addedAt: row.addedAt) }
        }
    }

    /// How strongly the row with `slot` is highlighted at `now`: 1 when just added, easing out to
    /// 0 over ``highlightSeconds``.
    func highlight(of slot: UInt32, now: Double) -> Double {
        guard !addedAt.isEmpty, let added = addedAt[slot] else { return 0 }
        let progress = (now - added) / Self.highlightSeconds
        guard progress < 1 else { return 0 }
        let remaining = 1 - max(0, progress)
        return remaining * remaining
    }

    /// Remembers when rows came in, and forgets rows whose highlight has faded.
    private mutating func noteAdded(_ slots: [UInt32], now: Double) {
        while let oldest = recentAdds.first, now - oldest.time >= Self.highlightSeconds {
            recentAdds.removeFirst()
            if addedAt[oldest.slot] == oldest.time { addedAt[oldest.slot] = nil }
        }
        for slot in slots {
            addedAt[slot] = now
            recentAdds.append((slot, now))
        }
    }

    /// A row's values, parsed and checked, ready to store.
    struct PreparedRow {
        var values: [CellValue]
        var readOnly: Bool?
        var readOnlyCells: [Int: Bool]
        var drillDown: Bool?
    }

    /// Parses and checks every row of a batch, or says what is wrong with it. `positions` are
    /// the rows' places in the batch the client sent, when these are only some of it (errors
    /// name those places).
    func prepare(_ rows: [RowInput], positions: [Int]? = nil, batchSize: Int? = nil) throws(TableError)
        -> [PreparedRow]
    {
        var prepared: [PreparedRow] = []
        prepared.reserveCapacity(rows.count)
        var problems: [CellProblem] = []
        var newIDs: Set<RowID> = []
        for (offset, row) in rows.enumerated() {
            let position = positions?[offset] ?? offset
            let batchRow = (batchSize ?? rows.count) > 1 ? position : nil
            for key in row.values.keys where columnIndex[key] == nil {
                throw .noSuchColumn(key, row: batchRow)
            }
            var cells: [Int: Bool] = [:]
            for (key, readOnly) in row.readOnlyCells {
                guard let column = columnIndex[key] else { throw .noSuchColumn(key, row: batchRow) }
                cells[column] = readOnly
            }
            let values = parseValues(of: row, position: position, problems: &problems)
            if let keyColumn, let id = Self.rowID(forKey: values[keyColumn]) {
                if slot(of: id) != nil || !newIDs.insert(id).inserted { throw .duplicateID(id, row: batchRow) }
            }
            prepared.append(
                PreparedRow(values: values, readOnly: row.readOnly, readOnlyCells: cells, drillDown: row.drillDown)
            )
        }
        if !problems.isEmpty { throw .invalidValues(problems) }
        return prepared
    }

    /// The stored value of every column for `row` (empty where it gives none), the key checked
    /// as a key; each value that does not fit is empty and noted in `problems` (up to
    /// ``problemLimit``), under the row's place in the batch.
    func parseValues(of row: RowInput, position: Int, problems: inout [CellProblem]) -> [CellValue] {
        var values: [CellValue] = []
        values.reserveCapacity(columns.count)
        for (index, column) in columns.enumerated() {
            let input = row.values[column.key] ?? .null
            if column.isComputed {
                if input != .null, problems.count < Self.problemLimit {
                    problems.append(
                        CellProblem(
                            row: position,
                            column: column.key,
                            input: input.draftText,
                            message: "\(column.key) is computed from its expression; leave it out."
                        )
                    )
                }
                values.append(.empty)
                continue
            }
            do throws(ValidationFailure) {
                let value = try column.rules.parse(input)
                if index == keyColumn { try Self.checkKey(value) }
                values.append(value)
            } catch {
                if problems.count < Self.problemLimit {
                    problems.append(
                        CellProblem(row: position, column: column.key, input: input.draftText, message: error.message)
                    )
                }
                values.append(.empty)
            }
        }
        return values
    }

    /// A key column value must be given, and a number key must be a whole number.
    static func checkKey(_ value: CellValue) throws(ValidationFailure) {
        switch value {
        case .empty: throw ValidationFailure("A value is required: it is the row's id.")
        case .number(let number):
            guard number.rounded() == number, abs(number) < 9_007_199_254_740_992 else {
                throw ValidationFailure("The id must be a whole number.")
            }
        default: break
        }
    }

    /// The id a key column value gives its row.
    static func rowID(forKey value: CellValue) -> RowID? {
        switch value {
        case .number(let number): .number(Int64(number))
        case .text(let text): .text(text)
        default: nil
        }
    }
}
