import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `delete` (protocol.md, "delete"): rows by id, or the selection.
    /// `within`: the filter of the connection's view, when the request asks for it.
    static func delete(
        _ request: DeleteRequest,
        _ server: ServerState,
        by requester: Requester,
        within filter: UInt64? = nil
    ) throws -> DeleteRequest.Response {
        let ids = try request.ids.map { values throws(ResponseError) in
            try WireValues.rowIDs(values, field: "params.ids")
        }
        return try server.update(request.table, by: requester, needing: .write, ifVersion: request.ifVersion) { table in
            let before = table.version
            // The selection's ids, only when someone will be told about them.
            let selected =
                ids == nil && server.events.hasSubscribers(table.name) ? table.selectedIDs(within: filter) : nil
            let deleted =
                try ids.map { ids throws(TableError) in try table.delete(ids) } ?? table.deleteSelection(within: filter)
            if deleted > 0 {
                server.publish(table, .deleted, from: before) { event in
                    if let listed = ids ?? selected {
                        var seen: Set<RowID> = []
                        event.list(listed.filter { seen.insert($0).inserted })
                    } else {
                        event.count = deleted
                    }
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
