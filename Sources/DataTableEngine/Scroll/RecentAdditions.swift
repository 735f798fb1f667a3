import Collections

/// The rows added lately, oldest first, with the table version that added them: what a view
/// counts to say how many new rows appeared above it since it last looked.
///
/// It keeps the last ``capacity`` rows. A view that last looked before the oldest kept one gets
/// an incomplete count, which ``Table/rowsAdded(since:before:)`` makes up for.
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
        }
        while entries.count > Self.capacity {
            forgottenThrough = max(forgottenThrough, entries.removeFirst().version)
        }
    }
}

extension Table {
    /// How many rows added after `version` are still in the table and now come before
    /// `position` in the current order, and whether that count is exact (it is not when more
    /// rows were added since than are remembered).
    /// Only rows the view (`rows`) shows count, by their position among them.
    func rowsAdded(since version: UInt64, before position: Int, in rows: ViewRows = .all) -> (count: Int, exact: Bool) {
        var count = 0
        for entry in recentAdditions.entries.reversed() {
            guard entry.version > version else { break }
            guard slot(of: entry.id) == entry.slot, let at = self.position(in: rows, of: entry.slot) else { continue }
            if at < position { count += 1 }
        }
        return (count, version >= recentAdditions.forgottenThrough)
    }

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
}
