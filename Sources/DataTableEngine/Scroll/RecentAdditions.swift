import Collections

/// The rows added lately, oldest first, with the table version that added them: what a view
/// counts to say how many new rows appeared above it since it last looked.
///
/// It keeps the last ``capacity`` rows. A view that last looked before the oldest kept one gets
/// an incomplete count (``NewRowsCount/exact``), which its scroll makes up for.
struct RecentAdditions: Sendable {
    struct Entry: Sendable {
        var slot: UInt32
        var id: RowID
        var version: UInt64
    }

    /// How many rows are remembered.
    static let capacity = 4096

    private(set) var entries: Deque<Entry> = []
    /// Rows added at versions up to this one may have been forgotten.
    private(set) var forgottenThrough: UInt64 = 0
    /// How many entries hold each slot (a slot freed and used again may be held twice).
    private var slots: [UInt32: Int] = [:]

    /// A memory of nothing, where rows added at versions up to `version` count as forgotten
    /// (the rows changed slots wholesale: a replace).
    init(forgettingThrough version: UInt64) { forgottenThrough = version }

    init() {}

    /// Remembers `rows` (slot and id), the last of the rows added at `version`; `more` rows
    /// added before them in the same change are not remembered.
    mutating func note(_ rows: [(UInt32, RowID)], version: UInt64, more: Int = 0) {
        if more > 0 || rows.count > Self.capacity { forgottenThrough = version }
        for (slot, id) in rows.suffix(Self.capacity) {
            entries.append(Entry(slot: slot, id: id, version: version))
            slots[slot, default: 0] += 1
        }
        while entries.count > Self.capacity {
            let forgotten = entries.removeFirst()
            forgottenThrough = max(forgottenThrough, forgotten.version)
            if slots[forgotten.slot] == 1 { slots[forgotten.slot] = nil } else { slots[forgotten.slot]! -= 1 }
        }
    }

    /// Whether a remembered row is in `slot`.
    func holds(_ slot: UInt32) -> Bool { slots[slot] != nil }

    /// The slots of rows remembered as added at `version` or before, among `candidates`.
    func slotsHeld(addedThrough version: UInt64, among candidates: Set<UInt32>) -> Set<UInt32> {
        var later: [UInt32: Int] = [:]
        for entry in entries.reversed() {
            guard entry.version > version else { break }
            later[entry.slot, default: 0] += 1
        }
        return candidates.filter { (slots[$0] ?? 0) > later[$0, default: 0] }
    }
}

/// What a view counted of the rows added since it last looked: how many are above its first
/// visible row and how many its filter leaves out, as of a table version. Kept in the view, so
/// the next count looks only at the rows added after that version: a live window that does not
/// look at the rows, worked out again many times a second, would otherwise count every row
/// added since its viewer last scrolled, each time.
///
/// The rows counted before stay where they were counted, relative to the first visible row,
/// as long as the table's ``Table/recentStamp`` is the same (no row added lately moved, left,
/// or changed a cell, which may move it between sections or through a filter), the view's rows
/// are the same (its filter and sections, ``Table/filterGeneration``), and the first visible
/// row is the same row at the same row version (it did not move either). Rows added, or other
/// rows moved or gone, change neither side of that comparison.
struct NewRowsCount: Sendable {
    /// The version the view last looked at (rows added after it are new).
    var since: UInt64
    /// The table version counted up to.
    var through: UInt64
    /// The view's filter and sections, and the table's filter generation, counted under.
    var filter: UInt64?
    var sections: UInt64?
    var filterGeneration: UInt64
    /// ``Table/recentStamp`` when counted.
    var stamp: UInt64
    /// The first visible row's slot, id and row version.
    var anchorSlot: UInt32
    var anchorID: RowID
    var anchorVersion: UInt64
    /// Rows counted above the first visible row, and rows the view's rows leave out.
    var above: Int
    var hidden: Int
    /// Whether every row added since `since` was remembered when the count began.
    var exact: Bool
}

extension Table {
    /// How many rows added after `version` are still in the table but not among `rows` (a
    /// view's filter leaves them out), as far as they are remembered.
    func rowsAddedHidden(since version: UInt64, from rows: ViewRows) -> Int {
        var count = 0
        for entry in recentAdditions.entries.reversed() {
            guard entry.version > version else { break }
            guard slot(of: entry.id) == entry.slot, self.position(in: rows, of: entry.slot) == nil else { continue }
            count += 1
        }
        return count
    }

    /// The rows added since `view` last looked, counted against its first visible row (at
    /// `position` of `rows`, in `slot`): from what the view counted before when that still
    /// holds (``NewRowsCount``), else from the start. The view keeps the count.
    func countNewRows(before position: Int, anchor slot: UInt32, in rows: ViewRows, view: inout ViewState)
        -> NewRowsCount
    {
        let since = view.seenVersion ?? version
        let anchorID = id(of: slot)
        let anchorVersion = rowVersion(ofSlot: slot)
        var count: NewRowsCount
        if let kept = view.newRows, kept.since == since, kept.through <= version, kept.stamp == recentStamp,
            kept.filter == view.filter, kept.sections == view.sections, kept.filterGeneration == filterGeneration,
            kept.anchorSlot == slot, kept.anchorID == anchorID, kept.anchorVersion == anchorVersion
        {
            count = kept
        } else {
            count = NewRowsCount(
                since: since,
                through: since,
                filter: view.filter,
                sections: view.sections,
                filterGeneration: filterGeneration,
                stamp: recentStamp,
                anchorSlot: slot,
                anchorID: anchorID,
                anchorVersion: anchorVersion,
                above: 0,
                hidden: 0,
                exact: since >= recentAdditions.forgottenThrough
            )
        }
        // Rows added since the last count that are no longer remembered go uncounted.
        if count.through < recentAdditions.forgottenThrough { count.exact = false }
        for entry in recentAdditions.entries.reversed() {
            guard entry.version > count.through else { break }
            guard self.slot(of: entry.id) == entry.slot else { continue }
            if let at = self.position(in: rows, of: entry.slot) {
                if at < position { count.above += 1 }
            } else {
                count.hidden += 1
            }
        }
        count.through = version
        view.newRows = count
        return count
    }
}
