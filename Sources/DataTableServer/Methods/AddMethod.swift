import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `add` (protocol.md, "add"): rows where the sort puts them, within the budgets.
    static func add(_ request: AddRequest, _ context: inout RequestContext) throws -> AddRequest.Response {
        let server = context.server
        let writer = context.writer
        var inputs: [RowInput] = []
        if let row = request.row { inputs.append(try WireValues.rowInput(row, field: "params.row")) }
        for (index, row) in (request.rows ?? []).enumerated() {
            inputs.append(try WireValues.rowInput(row, field: "params.rows[\(index)]"))
        }
        guard inputs.count <= server.limits.maxBatchSize else {
            throw ResponseError.limitExceeded(
                "A batch may add at most \(server.limits.maxBatchSize) rows; use load for more.",
                limit: "maxBatchSize",
                value: server.limits.maxBatchSize
            )
        }
        let upsert = request.upsert == true
        if upsert, request.index != nil {
            throw ResponseError.invalidParams(
                "upsert puts replaced rows where they are and new ones where add would; leave out index.",
                field: "params.index"
            )
        }
        // Rows a replay brings back are not news: no highlight.
        let now = context.isReplay ? 0 : Date().timeIntervalSince1970
        var view = context.views[request.table]
        let reply = try writer.update(
            request.table,
            by: context.requester,
            needing: .write,
            ifVersion: request.ifVersion
        ) { table in
            let before = table.version
            try server.checkMemory()
            try server.checkRows(table.rowCount + inputs.count, table: table.name)
            try server.checkUserMemory(
                owner: table.access.owner,
                adding: ServerState.estimatedBytes(rows: inputs.count, columns: table.columns.count)
            )
            let added: [AddedRow]
            var replaced: [AddRequest.Replaced]?
            var addedFrom = before
            let author = context.requester.uid
            if upsert {
                guard
                    case .upserted(let result) = try writer.make(
                        .init(.upsert(inputs), by: author),
                        to: &table,
                        now: now
                    )
                else { preconditionFailure("an upsert made something else") }
                added = result.added
                replaced = result.replaced.map { .init(id: WireValues.json($0.id), index: $0.index) }
                if let replacedAt = result.versionAfterReplacing {
                    server.publish(table, .edited, from: before, at: replacedAt) { $0.list(result.changed) }
                    addedFrom = replacedAt
                }
            } else {
                added = try writer.make(.init(.add(inputs, index: request.index), by: author), to: &table, now: now)
                    .added
            }
            // Rows past the table's limit went in the same change, one version later.
            server.publish(table, .added, from: addedFrom, thenDropped: table.droppedByLimit) {
                $0.list(added.map(\.id))
            }
            return AddRequest.Response(
                table: table.name,
                version: Int(table.version),
                rows: table.rowCount,
                added: added.map { row in
                    var scrollTo: Int?
                    if let options = view?.resolved?.options {
                        scrollTo = try? table.offset(bringingIntoView: row.id, options: options, view: &view!.state)
                    }
                    return .init(
                        id: WireValues.json(row.id),
                        index: row.index,
                        addedAt: WireValues.timestamp(row.addedAt),
                        scrollTo: scrollTo
                    )
                },
                replaced: replaced
            )
        }
        if let view { context.views[request.table] = view }
        return reply
    }
}

extension AddRequest {
    /// How many rows the request adds (or, with `upsert`, may add).
    var givenRows: Int { (row == nil ? 0 : 1) + (rows?.count ?? 0) }
}
