extension Table {
    /// Takes back the last change `author` made (any change when `author` is `nil`): an edit,
    /// an add (the rows go), a delete or a clear (the rows come back with their ids, places,
    /// selection, read-only settings and drafts), an upsert, or an `alter`. Each part of the
    /// change is one step of the version.
    ///
    /// A person's change is theirs to take back, and only while it is the newest: when another
    /// user changed the table since, ``TableError/undoBehindOthers(redo:author:)`` refuses (the
    /// history names rows by place, and a later change by someone else may rest on it). A change
    /// of owner or mode ends the history (``changeAccess(to:)``), so no undo reaches back past it.
    public mutating func undo(by author: UInt32? = nil) throws(TableError) -> UndoOutcome {
        beginChange()
        defer { endChange() }
        let step = try nextStep(of: author, in: undoSteps, redo: false)
        undoSteps.removeLast()
        historyBytes -= step.bytes
        var outcome = UndoOutcome()
        var done: [UndoPart] = []
        for part in step.parts.reversed() {
            let (inverse, result) = takeBack(part)
            done.insert(inverse, at: 0)
            version += 1
            outcome.parts.append((result, version))
        }
        let inverse = UndoStep(parts: done, author: step.author)
        historyBytes += inverse.bytes
        redoSteps.append(inverse)
        return outcome
    }

    /// Makes again the last change `author` took back with ``undo(by:)``, under the same rule.
    public mutating func redo(by author: UInt32? = nil) throws(TableError) -> UndoOutcome {
        beginChange()
        defer { endChange() }
        let step = try nextStep(of: author, in: redoSteps, redo: true)
        redoSteps.removeLast()
        historyBytes -= step.bytes
        var outcome = UndoOutcome()
        var done: [UndoPart] = []
        for part in step.parts {
            let (again, result) = makeAgain(part)
            done.append(again)
            version += 1
            outcome.parts.append((result, version))
        }
        let again = UndoStep(parts: done, author: step.author)
        historyBytes += again.bytes
        undoSteps.append(again)
        return outcome
    }

    /// The step at the top of `steps` when `author` may take it: refuses when `author` has no
    /// step there, or when another user's step is above theirs.
    private func nextStep(of author: UInt32?, in steps: [UndoStep], redo: Bool) throws(TableError) -> UndoStep {
        guard let top = steps.last else { throw .nothingToUndo(redo: redo) }
        guard let author, let owner = top.author, owner != author else { return top }
        guard steps.contains(where: { $0.author == author || $0.author == nil }) else {
            throw .nothingToUndo(redo: redo)
        }
        throw .undoBehindOthers(redo: redo, author: owner)
    }

    /// Who made the change the next ``undo(by:)`` (or ``redo(by:)``) would take, when known.
    public func nextUndoAuthor(redo: Bool) -> UInt32? {
        (redo ? redoSteps.last : undoSteps.last)?.author
    }

    /// Whether ``undo()`` has something to take back.
    public var canUndo: Bool { !undoSteps.isEmpty }
    /// Whether ``redo()`` has something to make again; any new change clears it.
    public var canRedo: Bool { !redoSteps.isEmpty }

    /// Rows and cells the next ``undo()`` (or ``redo()``) touches: a large one is worth doing on
    /// a copy, off the table's lock.
    public func nextUndoWeight(redo: Bool) -> Int {
        (redo ? redoSteps.last : undoSteps.last)?.weight ?? 0
    }

    /// How many changes ``undo()`` can take back at most; the oldest go first. 0 keeps none.
    public var undoDepth: Int {
        get { undoLimit }
        set {
            undoLimit = max(0, newValue)
            trimHistory()
        }
    }

    /// Remembers a change for ``undo()``; a new change ends what ``redo()`` could make again.
    mutating func record(_ parts: [UndoPart]) {
        guard !parts.isEmpty else { return }
        let step = UndoStep(parts: parts, author: changeAuthor)
        historyBytes += step.bytes
        undoSteps.append(step)
        historyBytes -= redoSteps.reduce(0) { $0 + $1.bytes }
        redoSteps.removeAll()
        trimHistory()
    }

    /// Forgets every change ``undo()`` could take back: after a change the history cannot take
    /// back in order (a `load`), or once a table's starting rows are in.
    public mutating func forgetHistory() {
        undoSteps.removeAll()
        redoSteps.removeAll()
        historyBytes = 0
    }

    /// Forgets the oldest steps past ``undoDepth`` (their memory with them).
    private mutating func trimHistory() {
        if undoSteps.count > undoLimit {
            let gone = undoSteps.count - undoLimit
            historyBytes -= undoSteps[..<gone].reduce(0) { $0 + $1.bytes }
            undoSteps.removeFirst(gone)
        }
        if redoSteps.count > undoLimit {
            let gone = redoSteps.count - undoLimit
            historyBytes -= redoSteps[..<gone].reduce(0) { $0 + $1.bytes }
            redoSteps.removeFirst(gone)
        }
    }

    /// Undoes one part; returns the part that makes it again, and what was done.
    private mutating func takeBack(_ part: UndoPart) -> (UndoPart, UndoOutcome.Part) {
        switch part {
        case .cells(let step):
            let cells = setCells(step.changes.reversed().map { ($0.id, $0.column, $0.old) })
            return (part, .cells(cells))
        case .rowsAdded(let rows):
            let saved = takeOut(rows.ids)
            return (.rowsAdded(saved), .rowsOut(saved.ids))
        case .rowsRemoved(let rows):
            let back = putBack(rows)
            return (.rowsRemoved(rows.idsOnly), .rowsBack(back))
        case .schema(let change):
            let (inverse, summary) = applySchema(change)
            return (.schema(inverse), .schema(summary))
        case .drafts(let change):
            setDrafts(change.entries.reversed().map { ($0.id, $0.column, $0.old) })
            return (part, .drafts(errors: errorCount))
        }
    }

    /// Redoes one part; returns the part that undoes it again, and what was done.
    private mutating func makeAgain(_ part: UndoPart) -> (UndoPart, UndoOutcome.Part) {
        switch part {
        case .cells(let step):
            let cells = setCells(step.changes.map { ($0.id, $0.column, $0.new) })
            return (part, .cells(cells))
        case .rowsAdded(let rows):
            let back = putBack(rows)
            return (.rowsAdded(rows.idsOnly), .rowsBack(back))
        case .rowsRemoved(let rows):
            let saved = takeOut(rows.ids)
            return (.rowsRemoved(saved), .rowsOut(saved.ids))
        case .schema(let change):
            let (inverse, summary) = applySchema(change)
            return (.schema(inverse), .schema(summary))
        case .drafts(let change):
            setDrafts(change.entries.map { ($0.id, $0.column, $0.new) })
            return (part, .drafts(errors: errorCount))
        }
    }

    /// Sets drafts from the history; rows not in the table are skipped.
    private mutating func setDrafts(_ drafts: [(id: RowID, column: Int, draft: Draft?)]) {
        for (id, column, draft) in drafts {
            guard let slot = slot(of: id), column < columns.count else { continue }
            setDraft(draft, slot: slot, column: column)
        }
    }

    /// Sets cells from the history, keeping rows in their sort place; rows not in the table are
    /// skipped.
    private mutating func setCells(_ changes: [(id: RowID, column: Int, value: CellValue)]) -> [EditedCell] {
        var targets: [(slot: UInt32, column: Int)] = []
        for change in changes {
            guard let slot = slot(of: change.id), change.column < columns.count else { continue }
            setCell(change.value, slot: slot, column: change.column)
            setDraft(nil, slot: slot, column: change.column)
            targets.append((slot, change.column))
        }
        moveRowsAfterEdit(targets)
        return targets.map { editedCell(slot: $0.slot, column: $0.column) }
    }

    // MARK: Rows out and back

    /// Takes the rows with `ids` out (those still in the table), keeping everything they hold.
    private mutating func takeOut(_ ids: [RowID]) -> SavedRows {
        var slots: [UInt32] = []
        var seen: Set<UInt32> = []
        for id in ids {
            if let slot = slot(of: id), seen.insert(slot).inserted { slots.append(slot) }
        }
        let saved = save(slots)
        removeRows(slots)
        return saved
    }

    /// Everything the rows in `slots` hold, in the order of the table's own order.
    func save(_ slots: [UInt32]) -> SavedRows {
        var inOrder: [(position: Int, slot: UInt32)] = []
        inOrder.reserveCapacity(slots.count)
        if slots.count > 1000 && slots.count > rowCount / 8 {
            // Many rows: one pass over the order instead of a search per row.
            var wanted = [Bool](repeating: false, count: slotCount)
            for slot in slots { wanted[Int(slot)] = true }
            var position = 0
            natural.forEachSlot { slot in
                if wanted[Int(slot)] { inOrder.append((position, slot)) }
                position += 1
            }
        } else {
            for slot in slots { inOrder.append((natural.position(of: slot)!, slot)) }
            inOrder.sort { $0.position < $1.position }
        }
        let ordered = inOrder.map(\.slot)
        var readOnlyCells: [Int: [Int: Bool]] = [:]
        var savedDrafts: [Int: [Int: Draft]] = [:]
        if !cellReadOnly.isEmpty || !drafts.isEmpty {
            for (row, slot) in ordered.enumerated() {
                if let cells = cellReadOnly[slot] { readOnlyCells[row] = cells }
                if let cells = drafts[slot] { savedDrafts[row] = cells }
            }
        }
        return SavedRows(
            ids: ordered.map { id(of: $0) },
            positions: inOrder.map(\.position),
            stores: stores.map { $0.gathering(ordered) },
            flags: ordered.map { flags[Int($0)] },
            readOnlyCells: readOnlyCells,
            drafts: savedDrafts
        )
    }

    /// Puts saved rows back where they were, with their ids; returns the ids. A row whose id is
    /// taken meanwhile stays out (the history's order rules this out).
    private mutating func putBack(_ saved: SavedRows) -> [RowID] {
        // (Rows saved for other columns than the table's cannot come from its own history.)
        guard saved.stores.count == stores.count, zip(saved.stores, stores).allSatisfy({ $0.type == $1.type }),
            saved.positions.count == saved.ids.count, saved.flags.count == saved.ids.count,
            saved.stores.allSatisfy({ $0.count == saved.ids.count })
        else { return [] }
        if saved.ids.count > 64 { reserve(extra: saved.ids.count) }
        var back: [RowID] = []
        back.reserveCapacity(saved.ids.count)
        let selectable: Int =
            switch selectionMode {
            case .none: 0
            case .single: selectedCount == 0 ? 1 : 0
            case .multiple: .max
            }
        var selectedBack = 0
        for (row, id) in saved.ids.enumerated() where slot(of: id) == nil {
            let slot = allocateSlot()
            for column in stores.indices {
                setCell(saved.stores[column][UInt32(row)], slot: slot, column: column, derive: false)
            }
            if !computed.isEmpty { deriveRow(slot) }
            var rowFlags = saved.flags[row]
            if rowFlags.selected {
                if selectedBack < selectable {
                    selectedBack += 1
                    selectedCount += 1
                } else {
                    rowFlags.selected = false
                }
            }
            flags[Int(slot)] = rowFlags
            if let cells = saved.readOnlyCells[row] { cellReadOnly[slot] = cells }
            if let cells = saved.drafts[row] {
                for (column, draft) in cells { setDraft(draft, slot: slot, column: column) }
            }
            giveID(id, to: slot)
            insertNatural(slot, at: min(saved.positions[row], natural.count))
            placeInSortedOrder(slot)
            back.append(id)
        }
        return back
    }

    /// Gives the row in `slot` the id it had before it was taken out.
    private mutating func giveID(_ id: RowID, to slot: UInt32) {
        steps.newRows.append((slot, id))
        if keyColumn != nil {
            keyIndex.insert(slot, id: id, idOf: keyReader())
        } else if case .number(let number) = id {
            slotOfGeneratedID[Int(number - 1)] = slot
            generatedIDs[Int(slot)] = number
        }
    }
}
