extension Table {
    /// The most rows the table keeps, for logs and live feeds: adding past it drops the oldest
    /// rows (the first in the table's own order) in the same change. `nil`: no limit.
    public var rowLimit: Int? { limit }

    /// Drops the oldest rows past ``rowLimit`` after rows came in; returns what undo needs to
    /// bring them back (nothing when none went). The version goes up once more when rows go,
    /// so the drop is its own event (``droppedByLimit`` names them).
    mutating func dropPastLimit() -> UndoPart? {
        droppedByLimit = []
        let slots = slotsPastLimit
        guard !slots.isEmpty else { return nil }
        let saved = save(slots)
        droppedByLimit = saved.ids
        removeRows(slots)
        version += 1
        return .rowsRemoved(saved)
    }

    /// Gives a table with a row limit its own order as a tree (``RowOrder/buildTree()``): such a
    /// table drops its first rows as rows are added, and an `add` is answered on an event loop,
    /// where building the tree of a large table at its first drop would hold other requests up.
    /// Called wherever the order is made whole or the limit set, off the loop.
    mutating func settleNaturalOrder() {
        if limit != nil { natural.buildTree() }
    }

    /// The oldest rows past ``rowLimit``: the first of the table's own order.
    var slotsPastLimit: [UInt32] {
        guard let limit, rowCount > limit else { return [] }
        return natural.slots(from: 0, limit: rowCount - limit)
    }
}
