import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `delete` (protocol.md, "delete"): rows by id, or the selection.
    /// `within`: the filter of the connection's view, when the request asks for it.
    static func delete(
        _ request: DeleteRequest,
        _ writer: TableWriter,
        by requester: Requester,
        within filter: UInt64? = nil
    ) throws -> DeleteRequest.Response {
        let server = writer.server
        let ids = try request.ids.map { values throws(ResponseError) in
            try WireValues.rowIDs(values, field: "params.ids")
        }
        return try writer.update(request.table, by: requester, needing: .write, ifVersion: request.ifVersion) { table in
            let before = table.version
            // The log keeps the rows by id, never the selection seen through a view.
            let named = ids ?? table.selectedIDs(within: filter)
            let deleted =
                named.isEmpty ? 0 : try writer.make(.init(.delete(named), by: requester.uid), to: &table).count
            if deleted > 0 {
                server.publish(table, .deleted, from: before) { event in
                    var seen: Set<RowID> = []
                    event.list(named.filter { seen.insert($0).inserted })
                }
            }
            return DeleteRequest.Response(
                table: table.name,
                version: Int(table.version),
                deleted: deleted,
                rows: table.rowCount
            )
        }
    }
}
