/// What an upsert did.
public struct UpsertResult: Sendable {
    /// The rows whose keys were new, where they landed (as ``Table/add(_:at:now:)`` gives them).
    public var added: [AddedRow]
    /// The rows whose keys were there already and whose values were replaced: id and position.
    public var replaced: [(id: RowID, index: Int)]
    /// The cells the replacements changed (as an edit gives them).
    public var changed: [EditedCell]
    /// The table's version once the rows were replaced, before the new ones went in: the
    /// replacements and the additions are two steps of the version (each its own event).
    public var versionAfterReplacing: UInt64?
}

extension Table {
    /// Adds the rows whose keys are new and replaces the rows whose keys are there, as one
    /// change; a table without a key column refuses. A replaced row takes every value given
    /// (a column left out becomes empty, the key stays), keeps its id, selection and place
    /// in an unsorted table, moves under a sort like an edited row, loses its drafts, and takes
    /// its own read-only and drill-down settings when they are given. Every value is checked
    /// first: one bad value refuses the whole batch and changes nothing. Undo takes back the
    /// added rows and the replaced values, as one change. The version goes up once for the
    /// replacements and once for the additions.
    public mutating func upsert(_ rows: [RowInput], now: Double) throws(TableError) -> UpsertResult {
        beginChange()
        defer { endChange() }
        guard let keyColumn else {
            throw .invalidArgument("upsert matches rows by their key; this table has no key column.", field: "upsert")
        }
        let keyName = columns[keyColumn].key
        var fresh: [RowInput] = []
        var freshPositions: [Int] = []
        var replacing: [(position: Int, slot: UInt32, row: RowInput)] = []
        var seen: Set<RowID> = []
        for (position, row) in rows.enumerated() {
            if let input = row.values[keyName], let value = try? columns[keyColumn].rules.parse(input),
                let id = Self.rowID(forKey: value)
            {
                guard seen.insert(id).inserted else { throw .duplicateID(id, row: rows.count > 1 ? position : nil) }
                if let slot = slot(of: id) {
                    replacing.append((position, slot, row))
                    continue
                }
            }
            fresh.append(row)
            freshPositions.append(position)
        }
        // Every value checked before anything changes.
        var problems: [CellProblem] = []
        var replacements: [(slot: UInt32, values: [CellValue], row: RowInput)] = []
        for (position, slot, row) in replacing {
            for key in row.values.keys where columnIndex[key] == nil {
                throw .noSuchColumn(key, row: rows.count > 1 ? position : nil)
            }
            for key in row.readOnlyCells.keys where columnIndex[key] == nil {
                throw .noSuchColumn(key, row: rows.count > 1 ? position : nil)
            }
            replacements.append((slot, parseValues(of: row, position: position, problems: &problems), row))
        }
        var prepared: [PreparedRow] = []
        do {
            prepared = try prepare(fresh, positions: freshPositions, batchSize: rows.count)
        } catch {
            guard case .invalidValues(let more) = error else { throw error }
            problems += more
        }
        if !problems.isEmpty {
            throw .invalidValues(Array(problems.sorted { ($0.row ?? 0) < ($1.row ?? 0) }.prefix(Self.problemLimit)))
        }

        // The replacements, as an edit of the cells that change.
        var step = EditStep(changes: [])
        var targets: [(slot: UInt32, column: Int)] = []
        for (slot, values, row) in replacements {
            let id = id(of: slot)
            for (column, value) in values.enumerated() where column != keyColumn && !columns[column].isComputed {
                setDraft(nil, slot: slot, column: column)
                let old = cell(column, slot)
                guard old != value else { continue }
                step.changes.append(.init(id: id, column: column, old: old, new: value))
                setCell(value, slot: slot, column: column)
                targets.append((slot, column))
            }
            if let readOnly = row.readOnly { flags[Int(slot)].readOnly = readOnly }
            if let drillDown = row.drillDown { flags[Int(slot)].drillDown = drillDown }
            if !row.readOnlyCells.isEmpty {
                cellReadOnly[slot] = Dictionary(
                    uniqueKeysWithValues: row.readOnlyCells.map { (columnIndex[$0.key]!, $0.value) }
                )
            }
        }
        moveRowsAfterEdit(targets)
        var versionAfterReplacing: UInt64?
        if !replacements.isEmpty {
            version += 1
            versionAfterReplacing = version
        }
        let added = prepared.isEmpty ? [] : insert(prepared, now: now)
        var parts: [UndoPart] = step.changes.isEmpty ? [] : [.cells(step)]
        if !added.isEmpty { parts.append(.rowsAdded(SavedRows(ids: added.map(\.id)))) }
        if let dropped = dropPastLimit() { parts.append(dropped) }
        record(parts)
        // Rows the limit dropped are left out: they are gone.
        let stillIn = Set(replacements.map(\.slot).filter { orderPosition(of: $0) != nil })
        return UpsertResult(
            added: stillInTable(added),
            replaced: replacements.filter { stillIn.contains($0.slot) }.map {
                (id(of: $0.slot), orderPosition(of: $0.slot)!)
            },
            changed: targets.filter { stillIn.contains($0.slot) }.map { editedCell(slot: $0.slot, column: $0.column) },
            versionAfterReplacing: versionAfterReplacing
        )
    }
}
