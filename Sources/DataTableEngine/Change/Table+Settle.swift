extension Table {
    // MARK: Beginning and ending a change

    /// Marks the start of a change to rows, cells, order, selection, drafts or columns. Changes
    /// nest (an upsert edits and adds, a load sorts): only the outermost one's end settles.
    mutating func beginChange() {
        if changeDepth == 0 { steps.from = version }
        changeDepth += 1
    }

    /// Marks the end of a change begun with ``beginChange()``: at the outermost, every derived
    /// structure takes in what the change did (``settle()``).
    mutating func endChange() {
        changeDepth -= 1
        if changeDepth == 0 { settle() }
    }

    /// Hands what the change did to the structures derived from the rows, in one place and in
    /// this order: the content widths (which the row heights are worked out from), the row
    /// offsets of the current order, the views' filtered rows (which their sections read),
    /// the views' sections; then makes the keyed ``lastChange``. Each takes in only the rows
    /// the change touched, O(log n) per row, unless the change rebuilt the order or the columns
    /// as a whole.
    mutating func settle() {
        let steps = self.steps
        self.steps = ChangeSteps()
        guard version != steps.from || !steps.isEmpty else { return }
        lastSteps = steps
        lastSteps.to = version
        guard !steps.isEmpty else { return }
        takeInRecent(steps)
        takeInWidths(steps)
        takeInViewOrderMagnitudes(steps)
        takeInOffsets(steps)
        takeInViews(steps)
    }

    /// What the last change did, keyed by row id and column key (see ``ChangeSet``): made from
    /// its steps when asked, so a change costs nothing for it when no one asks.
    public var lastChange: ChangeSet { keyedChange(lastSteps) }

    // MARK: Recording steps

    /// Notes that `slot` went into the current order at `position`.
    mutating func notePlaced(_ slot: UInt32, at position: Int) {
        assert(changeDepth > 0, "a change to the order outside beginChange() and endChange()")
        steps.order.append(.inserted(slot, at: position))
    }

    /// Notes that `slot` left the current order from `position`.
    mutating func noteTakenOut(_ slot: UInt32, from position: Int) {
        assert(changeDepth > 0, "a change to the order outside beginChange() and endChange()")
        steps.order.append(.removed(slot, at: position))
    }

    /// Notes that the order was rebuilt as a whole (`.order`), or the rows or columns were
    /// (`.rows`): derived structures start again rather than follow steps.
    mutating func noteRebuilt(_ rebuild: ChangeSteps.Rebuild) {
        steps.rebuilt = max(steps.rebuilt, rebuild)
    }

    // MARK: Taking steps in

    /// Rows added lately: when one of them moved, left or had a cell set (other than by the
    /// change that added it), or the rows were rebuilt, what views counted of them
    /// (``NewRowsCount``) no longer holds.
    private mutating func takeInRecent(_ steps: ChangeSteps) {
        if steps.rebuilt != .none || steps.schema || steps.tooManyCells || steps.appended != nil {
            recentStamp = Stamp.next()
            return
        }
        guard !recentAdditions.entries.isEmpty else { return }
        let new = Set(steps.newRows.map(\.slot))
        func moved(_ slot: UInt32) -> Bool { recentAdditions.holds(slot) && !new.contains(slot) }
        // A row given an id by this change in a slot a row added earlier held (an undone
        // delete, a redone add: the same row back, perhaps) makes that earlier row count again.
        if steps.order.contains(where: { moved($0.slot) }) || steps.cells.contains(where: { moved($0.slot) })
            || !recentAdditions.slotsHeld(addedThrough: steps.from, among: new).isEmpty
        {
            recentStamp = Stamp.next()
        }
    }

    /// Content widths: each cell set counts its new value in place of the one it had before
    /// the change; rows filled in bulk are measured.
    private mutating func takeInWidths(_ steps: ChangeSteps) {
        if steps.schema || steps.tooManyCells {
            // Measured again when a layout asks.
            contentWidths = []
            newLayoutGeneration()
            return
        }
        guard !contentWidths.isEmpty else { return }
        let widestBefore = contentWidths.map(\.widest)
        defer { if contentWidths.map(\.widest) != widestBefore { newLayoutGeneration() } }
        for touch in steps.firstTouches() {
            if let appended = steps.appended, appended.contains(touch.slot) { continue }
            let new = cell(touch.column, touch.slot)
            let rules = columns[touch.column].rules
            for index in contentWidths.indices {
                contentWidths[index].replace(touch.old, with: new, slot: touch.slot, column: touch.column, rules: rules)
            }
        }
        if let appended = steps.appended {
            // (Taken out while measuring, so the table handed to the measuring does not share
            // them and make them copy.)
            var widths = contentWidths
            contentWidths = []
            for index in widths.indices { widths[index].measureSlots(appended, of: self) }
            contentWidths = widths
        }
    }

    /// Row offsets and sums of the current order: the order's steps are replayed on each kept
    /// index in sequence, with the rows' heights and numbers as they are now; then rows whose
    /// cells were set get their height and numbers again.
    private mutating func takeInOffsets(_ steps: ChangeSteps) {
        if steps.rebuilt != .none || steps.schema {
            forgetRowOffsets()
            return
        }
        guard !keptOffsets.isEmpty || !keptSums.isEmpty else { return }
        for step in steps.order {
            switch step {
            case .inserted(let slot, let position):
                for kept in keptOffsets.indices {
                    keptOffsets[kept].index.insert(height(of: slot, under: keptOffsets[kept].rule), at: position)
                }
                for kept in keptSums.indices {
                    keptSums[kept].tree.insert(summedWeight(slot, keptSums[kept].column), at: position)
                }
            case .removed(_, let position):
                for kept in keptOffsets.indices { keptOffsets[kept].index.remove(at: position) }
                for kept in keptSums.indices { keptSums[kept].tree.remove(at: position) }
            }
        }
        for (slot, columns) in steps.cellColumns(except: []) {
            // Only a cell of a column that may wrap can change its row's height.
            if keptOffsets.contains(where: { kept in columns.contains(where: kept.rule.reads) }) {
                rowOffsetsUpdate(slot)
            }
            if keptSums.contains(where: { columns.contains($0.column) }), let position = orderPosition(of: slot) {
                for kept in keptSums.indices where columns.contains(keptSums[kept].column) {
                    keptSums[kept].tree.set(summedWeight(slot, keptSums[kept].column), at: position)
                }
            }
        }
    }

    /// The views' filtered rows and sections. Rows placed or taken out are first taken out of
    /// every view, then placed again where they are now; rows whose cells were set are looked
    /// at again where they are. (Each placing finds its spot by comparing positions in the
    /// current order, so every row a view holds while it places one must be in that order.)
    private mutating func takeInViews(_ steps: ChangeSteps) {
        guard !filters.isEmpty || !sections.isEmpty else { return }
        if steps.rebuilt == .rows || steps.schema {
            filtersReadmit()
            sectionsRebuild()
            return
        }
        let placed = steps.placedSlots()
        let set = steps.cellColumns(except: Set(placed))
        if steps.rebuilt == .order {
            // The rows each filter admitted still are (but those touched), in the new order.
            filtersFollowOrder()
            let touched = placed + set.map(\.slot)
            for slot in touched { filtersRemove(slot) }
            for slot in touched {
                if let position = orderPosition(of: slot) { filtersInsert(slot, at: position) }
            }
            sectionsRebuild()
            return
        }
        for slot in placed {
            filtersRemove(slot)
            sectionsRemove(slot)
        }
        for slot in placed {
            if let position = orderPosition(of: slot) { filtersInsert(slot, at: position) }
        }
        for (slot, columns) in set { filtersUpdate(slot, columns: columns) }
        if !sections.isEmpty {
            for slot in placed where natural.contains(slot) { sectionsInsert(slot) }
            for (slot, columns) in set { sectionsUpdate(slot, columns: columns) }
        }
    }

    // MARK: The keyed change set

    /// What the change did, by row id and column key (see ``ChangeSet``).
    private func keyedChange(_ steps: ChangeSteps) -> ChangeSet {
        var change = ChangeSet(from: steps.from, to: steps.to)
        change.wholesale = steps.rebuilt != .none
        change.schema = steps.schema
        /// Whether `slot` holds a row now.
        func present(_ slot: UInt32) -> Bool { natural.contains(slot) }
        var newSlots: Set<UInt32> = []
        var newIDs: Set<RowID> = []
        for row in steps.newRows where present(row.slot) && id(of: row.slot) == row.id {
            if newSlots.insert(row.slot).inserted { change.added.append(row.id) }
        }
        for row in steps.newRows { newIDs.insert(row.id) }
        // A row that came and went within the change is in neither list.
        change.removed =
            newIDs.isEmpty ? steps.removedIDs : steps.removedIDs.filter { !newIDs.contains($0) || slot(of: $0) != nil }
        guard !change.wholesale && !change.schema else { return change }
        for slot in steps.placedSlots() where !newSlots.contains(slot) && present(slot) {
            change.moved.append(id(of: slot))
        }
        for touch in steps.firstTouches()
        where !newSlots.contains(touch.slot) && present(touch.slot) && cell(touch.column, touch.slot) != touch.old {
            change.cells[columns[touch.column].key, default: []].append(id(of: touch.slot))
        }
        change.selection = Self.once(steps.selection).filter(present).map { id(of: $0) }
        change.drafts = Self.once(steps.drafts).filter(present).map { id(of: $0) }
        return change
    }

    /// `slots` with each one once, in their first order.
    private static func once(_ slots: [UInt32]) -> [UInt32] {
        guard slots.count > 1 else { return slots }
        var seen: Set<UInt32> = []
        return slots.filter { seen.insert($0).inserted }
    }
}

extension ChangeSet {
    /// A change set of nothing but a new version.
    init(from: UInt64, to version: UInt64) {
        self.init(at: version)
        self.from = from
    }
}
