/// One cell to set: the row, the column and what was typed.
public struct CellEdit: Sendable {
    /// The row's id.
    public var id: RowID
    /// The column's key.
    public var column: String
    /// What was typed, parsed for the column's type by ``Table/edit(_:)``.
    public var input: CellInput
    /// Only if the row is still at this row version (``Table/rowVersion(of:)``).
    public var ifRowVersion: UInt64?

    /// An edit of one cell, only if its row is at `ifRowVersion` when that is given.
    public init(id: RowID, column: String, input: CellInput, ifRowVersion: UInt64? = nil) {
        self.id = id
        self.column = column
        self.input = input
        self.ifRowVersion = ifRowVersion
    }
}

/// A cell after a committed edit (or an undo or redo).
public struct EditedCell: Sendable {
    /// The row's id.
    public var id: RowID
    /// The column's key.
    public var column: String
    /// The value now stored.
    public var value: CellValue
    /// The value as a renderer shows it.
    public var display: String
    /// The row's position once every edit of the change is in.
    public var index: Int
}

/// One undoable change: every cell it set, with the value before and after.
struct EditStep: Sendable {
    struct Change: Sendable {
        var id: RowID
        var column: Int
        var old: CellValue
        var new: CellValue
    }

    var changes: [Change]
}

extension Table {
    /// Sets cells as one change. Unknown rows or columns and read-only cells refuse the whole
    /// change. When any value does not fit its column nothing is committed and every cell keeps
    /// what was typed, so nothing need be typed again: a rejected cell as a draft with the
    /// reason, a valid one as a draft saying it was not saved (``pendingMessage``); ``errorCount``
    /// counts the drafts, the version goes up, and ``TableError/invalidValues(_:)`` lists the
    /// rejected cells. Otherwise every cell commits, its draft clears, rows whose sort values
    /// changed move, and the change can be undone. An edit whose
    /// `ifRowVersion` is not its row's version refuses the whole change
    /// (``TableError/rowChanged(_:expected:current:)``).
    public mutating func edit(_ edits: [CellEdit]) throws(TableError) -> [EditedCell] {
        beginChange()
        defer { endChange() }
        var targets: [(slot: UInt32, column: Int)] = []
        targets.reserveCapacity(edits.count)
        for (position, edit) in edits.enumerated() {
            let slot = try requireSlot(edit.id)
            if let expected = edit.ifRowVersion, rowVersion(ofSlot: slot) != expected {
                throw .rowChanged(edit.id, expected: expected, current: rowVersion(ofSlot: slot))
            }
            guard let column = columnIndex[edit.column] else {
                throw .noSuchColumn(edit.column, row: edits.count > 1 ? position : nil)
            }
            guard !isReadOnly(slot: slot, column: column) else { throw .readOnly(edit.id, column: edit.column) }
            targets.append((slot, column))
        }
        var values: [CellValue] = []
        values.reserveCapacity(edits.count)
        var problems: [CellProblem] = []
        var valid: [Bool] = []
        valid.reserveCapacity(edits.count)
        for (edit, target) in zip(edits, targets) {
            do throws(ValidationFailure) {
                values.append(try columns[target.column].rules.parse(edit.input))
                valid.append(true)
            } catch {
                let input = edit.input.draftText
                problems.append(CellProblem(id: edit.id, column: edit.column, input: input, message: error.message))
                setDraft(Draft(text: input, message: error.message), slot: target.slot, column: target.column)
                values.append(.empty)
                valid.append(false)
            }
        }
        if !problems.isEmpty {
            for ((edit, target), isValid) in zip(zip(edits, targets), valid) where isValid {
                let draft = Draft(text: edit.input.draftText, message: Self.pendingMessage)
                setDraft(draft, slot: target.slot, column: target.column)
            }
            version += 1
            throw .invalidValues(Array(problems.prefix(Self.problemLimit)))
        }
        var step = EditStep(changes: [])
        step.changes.reserveCapacity(edits.count)
        for ((edit, target), value) in zip(zip(edits, targets), values) {
            step.changes.append(
                .init(id: edit.id, column: target.column, old: cell(target.column, target.slot), new: value)
            )
            setCell(value, slot: target.slot, column: target.column)
            setDraft(nil, slot: target.slot, column: target.column)
        }
        moveRowsAfterEdit(targets)
        record([.cells(step)])
        version += 1
        return targets.map { editedCell(slot: $0.slot, column: $0.column) }
    }

    /// The reason a valid cell of a refused edit gives for its draft.
    public static let pendingMessage = "Not saved: another cell of this edit was refused."

    /// Sets `column` to `input` in every selected row (`within` a view's filter: every selected
    /// row it shows), as one change (see ``edit(_:)``).
    public mutating func editSelection(column: String, input: CellInput, within filter: UInt64? = nil)
        throws(TableError) -> [EditedCell]
    {
        beginChange()
        defer { endChange() }
        guard columnIndex[column] != nil else { throw .noSuchColumn(column, row: nil) }
        let edits = selectedSlotsInOrder(within: filter).map { CellEdit(id: id(of: $0), column: column, input: input) }
        guard !edits.isEmpty else { return [] }
        return try edit(edits)
    }

    /// Clears drafts: of one cell, of one row, or of the whole table; returns how many.
    public mutating func revert(id: RowID?, column: String?) throws(TableError) -> Int {
        beginChange()
        defer { endChange() }
        var cleared = 0
        if let id {
            let slot = try requireSlot(id)
            if let column {
                guard let index = columnIndex[column] else { throw .noSuchColumn(column, row: nil) }
                if drafts[slot]?[index] != nil {
                    setDraft(nil, slot: slot, column: index)
                    cleared = 1
                }
            } else if let cells = drafts.removeValue(forKey: slot) {
                cleared = cells.count
                errorCount -= cells.count
                draftBytes -= Draft.estimatedBytes(of: cells)
            }
        } else {
            if let column, columnIndex[column] == nil { throw .noSuchColumn(column, row: nil) }
            let index = column.flatMap { columnIndex[$0] }
            for (slot, cells) in drafts {
                for cell in cells.keys where index == nil || cell == index {
                    setDraft(nil, slot: slot, column: cell)
                    cleared += 1
                }
            }
        }
        if cleared > 0 { version += 1 }
        return cleared
    }

    mutating func moveRowsAfterEdit(_ targets: [(slot: UInt32, column: Int)]) {
        let sortColumns = Set(resolvedSortKeys.map(\.column))
        guard !sortColumns.isEmpty else { return }
        var moved: Set<UInt32> = []
        for target in targets
        where sortColumns.contains(target.column)
            || computed.dependents(of: target.column).contains(where: sortColumns.contains)
        {
            moved.insert(target.slot)
        }
        resort(moved)
    }

    func editedCell(slot: UInt32, column: Int) -> EditedCell {
        let value = cell(column, slot)
        return EditedCell(
            id: id(of: slot),
            column: columns[column].key,
            value: value,
            display: columns[column].rules.displayText(value),
            index: orderPosition(of: slot)!
        )
    }

    /// Sets or clears one cell's draft, keeping ``errorCount`` right; either is a change of the
    /// row (its row version).
    mutating func setDraft(_ draft: Draft?, slot: UInt32, column: Int) {
        let previous = drafts[slot]?[column]
        let had = previous != nil
        if draft != nil || had { steps.drafts.append(slot) }
        if draft != nil || had { rowVersions.set(slot, to: version + 1, slotCount: slotCount) }
        draftBytes += (draft?.estimatedBytes ?? 0) - (previous?.estimatedBytes ?? 0)
        if let draft {
            drafts[slot, default: [:]][column] = draft
            if !had { errorCount += 1 }
        } else if had {
            drafts[slot]![column] = nil
            if drafts[slot]!.isEmpty { drafts[slot] = nil }
            errorCount -= 1
        }
    }
}
