import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `get` (protocol.md, "get"): rows by id or position, within the reply cap.
    /// `within`: the filter of the connection's view, when the request asks for it.
    static func get(_ request: GetRequest, _ server: ServerState, by requester: Requester, within filter: UInt64? = nil)
        throws -> GetReply
    {
        let ids = try request.ids.map { values throws(ResponseError) in
            try WireValues.rowIDs(values, field: "params.ids")
        }
        let from = request.from ?? 0
        let count = request.count ?? 100
        guard from >= 0 else { throw ResponseError.invalidValue("from must be 0 or more.", field: "params.from") }
        guard count >= 0 else { throw ResponseError.invalidValue("count must be 0 or more.", field: "params.count") }
        guard count <= GetRequest.maximumCount, (ids?.count ?? 0) <= GetRequest.maximumCount else {
            throw ResponseError.limitExceeded(
                "get returns at most \(GetRequest.maximumCount) rows at a time.",
                limit: "count",
                value: GetRequest.maximumCount
            )
        }
        let now = Date().timeIntervalSince1970
        return try server.read(request.table, by: requester) { table in
            // Per column, whether the reply shows it (a mask: no set of indices hashed at
            // every column of every row).
            var only: [Bool]?
            if let keys = request.columns {
                var mask = [Bool](repeating: false, count: table.columns.count)
                for key in keys {
                    guard let index = table.columns.firstIndex(where: { $0.key == key }) else {
                        throw TableError.noSuchColumn(key, row: nil)
                    }
                    mask[index] = true
                }
                only = mask
            }
            let asked = ids?.count ?? max(0, min(count, table.shownCount(filter: filter) - from))
            try server.checkReplySize(
                ServerState.estimatedGetBytes(of: table, rows: asked, only: only),
                what: "This get"
            )
            let rows =
                try ids.map { ids throws(TableError) in
                    try table.rows(ids: ids, now: now, columns: only, within: filter)
                }
                ?? table.rows(from: from, count: count, now: now, columns: only, within: filter)
            return GetReply(rows, table: table, only: only)
        }
    }
}
