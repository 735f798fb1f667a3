import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `create` (protocol.md, "create"): the table, owned by the requester, logged whole.
    static func create(_ request: CreateRequest, _ context: RequestContext) throws -> CreateRequest.Response {
        let server = context.server
        let writer = context.writer
        try TableCatalog.checkName(request.table)
        // Asked before the table is built: an unidentified peer makes nothing.
        let access = try context.requester.access(mode: server.tableMode(request.mode))
        var table = try Table(
            name: request.table,
            columns: try WireSchema.columns(request.columns),
            key: request.key,
            readOnly: request.readOnly ?? false,
            selectionMode: request.selection ?? .multiple,
            limit: request.limit
        )
        if let sort = request.sort { try table.sort(by: WireSchema.sortKeys(sort), field: "sort") }
        if let rows = request.rows, !rows.isEmpty {
            let inputs = try rows.enumerated().map { index, row throws(ResponseError) in
                try WireValues.rowInput(row, field: "params.rows[\(index)]")
            }
            // Rows a table is created with are its starting content, not news: no highlight.
            _ = try table.add(inputs, now: 0)
            // Nor something to undo.
            table.forgetHistory()
        }
        table.access = access
        let created = table
        try server.checkMemory()
        try server.checkUserMemory(owner: created.access.owner, adding: created.estimatedBytes)
        try server.checkRows(created.rowCount, table: created.name)
        try server.tables.insert(created, check: server.checkRoomForTable) { created in
            // The whole table, not the request: its owner is the peer who made it, and its mode
            // what --table-mode said then (a replay has neither).
            if writer.isRecording {
                let image = TableImageCoding.encode(created)
                try writer.claimRoom(forImage: image)
                writer.recordWhole(image: image)
            }
            server.publish(created, .schema, from: 0) { $0.change = "created" }
        }
        return TableVersion(table: created.name, version: Int(created.version), rows: created.rowCount)
    }
}
