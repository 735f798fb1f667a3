import DataTableEngine
import DataTableProtocol

extension ServerState {
    /// Publishes a `kind` event of `table`, which was at version `previous` before the change;
    /// `fill` adds the details. Call it while holding the table's lock, so its events leave in
    /// version order. Costs nothing but a look-up when nobody subscribed.
    ///
    /// It does not record the change in the state directory's log:
    /// ``TableWriter/update(_:by:needing:ifVersion:_:)`` records whatever changed the table's version, and a table created or dropped is recorded
    /// where the catalog adds or removes it.
    /// `at` is the version after the change when it is not the table's version now (a change
    /// of two steps, each its own event).
    func publish(
        _ table: Table,
        _ kind: TableEvent.Kind,
        from previous: UInt64,
        at version: UInt64? = nil,
        _ fill: (inout TableEvent) -> Void = { _ in }
    ) {
        watches.changed(table.name)
        events.publish(table.name, access: table.access, kind) {
            var event = TableEvent(
                table: table.name,
                kind: kind,
                version: Int(version ?? table.version),
                previous: Int(previous),
                rows: table.rowCount
            )
            fill(&event)
            return event
        }
    }
}

extension ServerState {
    /// Publishes the `kind` event of a change that may have dropped rows past the table's limit:
    /// the change at the version before the drop, then a `deleted` event naming the rows that
    /// went (see ``Table/droppedByLimit``). A change that made no step of its own before the
    /// drop publishes only the drop.
    func publish(
        _ table: Table,
        _ kind: TableEvent.Kind,
        from previous: UInt64,
        thenDropped dropped: [RowID],
        _ fill: (inout TableEvent) -> Void = { _ in }
    ) {
        let changedAt = dropped.isEmpty ? table.version : table.version - 1
        if changedAt > previous { publish(table, kind, from: previous, at: changedAt, fill) }
        if !dropped.isEmpty { publish(table, .deleted, from: changedAt) { $0.list(dropped) } }
    }
}

extension TableEvent {
    /// Sets `ids` (when there are few enough to list) and `count`.
    mutating func list(_ rowIDs: some Collection<RowID>) {
        count = rowIDs.count
        ids = rowIDs.count <= Self.maximumIDs ? rowIDs.map(WireValues.json) : nil
    }

    /// Sets `count`, and `ids` when there are few enough to list (`ids` is then every one).
    mutating func listAdded(_ rowIDs: [RowID], count: Int) {
        if count <= Self.maximumIDs && rowIDs.count == count {
            list(rowIDs)
        } else {
            self.count = count
        }
    }

    /// Sets `ids`, `columns` and `count` from edited cells.
    mutating func list(_ cells: [EditedCell]) {
        var seen: Set<RowID> = []
        list(cells.map(\.id).filter { seen.insert($0).inserted })
        var keys: [String] = []
        for cell in cells where !keys.contains(cell.column) { keys.append(cell.column) }
        columns = keys
    }
}
