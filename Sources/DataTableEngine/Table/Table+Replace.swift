/// What ``Table/replaceRows(with:)`` did.
public struct ReplaceResult: Sendable {
    /// Rows whose key was there before: same id, selection, drafts and read-only settings.
    public var kept: Int
    /// Of those, rows whose values changed (the others keep their row version).
    public var changed: Int
    /// Rows whose key is new (or every row, in a table without a key column).
    public var added: Int
    /// Rows whose key is not among the new rows: gone.
    public var removed: Int
}

extension Table {
    /// Swaps in a whole new set of rows as one change (a refresh): the rows become exactly
    /// `loaded`, in its order. In a table with a key column a row whose key was there keeps its
    /// id, selection, drafts and read-only settings, so a view anchored on it stays where it
    /// was, and keeps its row version when none of its values changed; in a table without one
    /// every row is new and ids go on after the last one given. The sort, filters and sections
    /// of views and the column states kept by name stay and are worked out for the new rows. The table's limit applies. Like a
    /// `load`, a replace cannot be undone, and the changes before it can no longer be.
    ///
    /// The new rows are checked first (a key given twice, or missing, refuses the whole);
    /// the work is O(rows) and meant for a copy of the table, off its lock.
    public mutating func replaceRows(with loaded: LoadedRows) throws(TableError) -> ReplaceResult {
        precondition(loaded.columns.map(\.key) == columns.map(\.key), "rows parsed for other columns")
        var fresh = try Table(
            name: name,
            columns: columns,
            key: keyColumn.map { columns[$0].key },
            readOnly: readOnly,
            selectionMode: selectionMode
        )
        fresh.access = access
        fresh.undoLimit = undoLimit
        fresh.savedColumnStates = savedColumnStates
        fresh.columnStateBytes = columnStateBytes
        fresh.version = version
        if keyColumn == nil {
            // Ids go on after the last one this table gave: none is given twice.
            fresh.slotOfGeneratedID = [UInt32](repeating: .max, count: slotOfGeneratedID.count)
        }
        _ = try fresh.append(loaded)
        var result = ReplaceResult(kept: 0, changed: 0, added: 0, removed: 0)
        var seen = 0
        var new: [(UInt32, RowID)] = []
        // (Every slot holds a row: the limit applies below.)
        for slot in 0..<UInt32(fresh.slotCount) {
            let id = fresh.id(of: slot)
            guard keyColumn != nil, let old = self.slot(of: id) else {
                result.added += 1
                new.append((slot, id))
                continue
            }
            seen += 1
            result.kept += 1
            fresh.flags[Int(slot)] = flags[Int(old)]
            if fresh.flags[Int(slot)].selected { fresh.selectedCount += 1 }
            if let cells = cellReadOnly[old] { fresh.cellReadOnly[slot] = cells }
            if let cells = drafts[old] {
                fresh.drafts[slot] = cells
                fresh.errorCount += cells.count
                fresh.draftBytes += Draft.estimatedBytes(of: cells)
            }
            if stores.indices.allSatisfy({ cell($0, old) == fresh.cell($0, slot) }) {
                fresh.rowVersions.set(slot, to: rowVersion(ofSlot: old), slotCount: fresh.slotCount)
            } else {
                result.changed += 1
            }
        }
        result.removed = rowCount - seen
        // The sort and the views' filters and sections, for the new rows.
        if !sortKeys.isEmpty { try fresh.sort(by: sortKeys) }
        fresh.filters = filters.map { FilteredRows(views: $0.views, filter: $0.filter, rows: RowOrder()) }
        fresh.sections = sections
        fresh.filterGeneration = filterGeneration
        fresh.lostByViews = lostByViews
        // (append's own change is this one: the version goes up once.) Only rows whose key is
        // new are news to a view counting rows added above it.
        fresh.version = version + 1
        fresh.recentAdditions = RecentAdditions(forgettingThrough: version)
        fresh.recentAdditions.note(
            Array(new.suffix(RecentAdditions.capacity)),
            version: fresh.version,
            more: max(0, new.count - RecentAdditions.capacity)
        )
        fresh.forgetHistory()
        fresh.droppedByLimit = []
        fresh.limit = limit
        // One change from the table as it was: the views look at every row again when it settles.
        fresh.beginChange()
        fresh.steps.from = version
        fresh.noteRebuilt(.rows)
        fresh.steps.newRows = new.map { (slot: $0.0, id: $0.1) }
        natural.forEachSlot { slot in
            let id = id(of: slot)
            if keyColumn == nil || fresh.slot(of: id) == nil { fresh.steps.removedIDs.append(id) }
        }
        fresh.removeRows(fresh.slotsPastLimit)
        fresh.endChange()
        self = fresh
        return result
    }
}
