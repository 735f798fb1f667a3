import DataTableEngine
import DataTableProtocol

extension MethodTable {
    /// `clear`: every row goes as one change. A large
    /// table is emptied on a copy off its lock; the copy takes its place in O(1).
    static func clear(
        _ request: ClearRequest,
        _ writer: TableWriter,
        by requester: Requester
    ) async throws -> ClearRequest.Response {
        let server = writer.server
        let change = TableChange(.clear, by: requester.uid)
        writer.note(change, for: request.table)
        return try await writer.updateOffLock(request.table, by: requester, ifVersion: request.ifVersion) { table in
            // The ids, only when someone will be told about them and they are few enough to list.
            let listed: [RowID]? =
                server.events.hasSubscribers(table.name) && table.rowCount <= TableEvent.maximumIDs
                ? table.ids(from: 0, limit: table.rowCount) : nil
            return (deleted: try table.apply(change).count, listed: listed)
        } install: { (table: inout Table, outcome: (deleted: Int, listed: [RowID]?), before: UInt64) in
            if outcome.deleted > 0 {
                server.publish(table, .deleted, from: before) { event in
                    if let listed = outcome.listed { event.list(listed) } else { event.count = outcome.deleted }
                }
            }
            return ClearRequest.Response(
                table: table.name,
                version: Int(table.version),
                deleted: outcome.deleted,
                rows: table.rowCount
            )
        }
    }
}
