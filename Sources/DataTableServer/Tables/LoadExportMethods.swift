import DataTableEngine
import DataTableProtocol
import Foundation
import Synchronization

extension MethodTable {
    /// `load`: reads the text (from the file or the request), parses it without holding the
    /// tables, then adds the rows (creating the table when it does not exist) in one change.
    static func load(_ request: LoadRequest, _ context: inout RequestContext) async throws -> LoadRequest.Response {
        let format = try dataFormat(request.format, path: request.path)
        guard (request.path == nil) != (request.text == nil) else {
            throw ResponseError.invalidParams("Give path or text (one of them).", field: "params.path")
        }
        let text: String
        if let path = request.path {
            // A device or a pipe could be read forever (/dev/zero); only files have an end.
            var status = stat()
            if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                throw ResponseError.invalidValue("\(path) is not a regular file.", field: "params.path")
            }
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ResponseError.invalidValue(
                    "The file \(path) could not be read: \(error.localizedDescription)",
                    field: "params.path"
                )
            }
            guard let decoded = String(validating: data, as: UTF8.self) else {
                throw ResponseError.invalidValue("The file \(path) is not UTF-8 text.", field: "params.path")
            }
            text = decoded
        } else {
            text = request.text!
        }
        let server = context.server
        let existing = server.catalog.withLock { catalog in catalog[request.table]?.columns }
        if existing != nil, request.columns != nil || request.key != nil {
            throw ResponseError.invalidParams(
                "The table \(request.table) exists; columns and key only apply when load creates it.",
                field: "params.columns"
            )
        }
        if existing == nil { try TableCatalog.checkName(request.table) }
        try server.checkMemory()
        let given =
            try existing
            ?? request.columns.map { definitions throws(ResponseError) in
                try WireSchema.columns(definitions)
            }
        let progress = progressReporter(table: request.table, context: context)
        // Off the connection's event loop (see MethodTable.inline): the reply, written back on
        // the loop, queues behind the progress notifications sent meanwhile.
        let loaded = try TableLoader.parse(text, format: format, columns: given, progress: progress)
        // Parsing leaves much freed memory behind; hand it back to the system once the rows are in.
        defer { ProcessMemory.releaseFreedMemory() }
        return try server.catalog.withLock { catalog in
            var created = false
            try server.checkRows((catalog[request.table]?.rowCount ?? 0) + loaded.count, table: request.table)
            let added: Int
            let before: UInt64
            if catalog[request.table] == nil {
                // A new table goes in only once every row is in it: a load that fails leaves no
                // empty table behind.
                try server.checkRoomForTable(catalog)
                var table = try Table(name: request.table, columns: loaded.columns, key: request.key)
                if let sort = request.sort { try table.sort(by: WireSchema.sortKeys(sort)) }
                before = table.version
                added = try table.append(loaded)
                try catalog.insert(table)
                created = true
            } else {
                (added, before) = try catalog.update(request.table) { table in
                    let before = table.version
                    guard table.columns.map(\.key) == loaded.columns.map(\.key) else {
                        throw ResponseError.invalidValue(
                            "The table \(request.table) changed while the file was read; load again.",
                            field: "params.table"
                        )
                    }
                    return (try table.append(loaded), before)
                }
            }
            let table = catalog[request.table]!
            // The file may change or go; the log keeps the table as the load left it.
            server.recordWhole(table)
            if created { server.publish(table, .schema, from: 0) { $0.change = "created" } }
            server.publish(table, .added, from: before) { $0.count = added }
            return LoadRequest.Response(
                table: table.name,
                version: Int(table.version),
                created: created,
                added: added,
                rows: table.rowCount,
                columns: table.columns.map(WireSchema.definition)
            )
        }
    }

    static func export(_ request: ExportRequest, _ server: ServerState) throws -> ExportRequest.Response {
        let format = try dataFormat(request.format, path: nil)
        return try server.read(request.table) { table in
            let (text, rows) = table.export(format, selectedOnly: request.selection ?? false)
            return ExportRequest.Response(
                table: table.name,
                version: Int(table.version),
                format: format.rawValue,
                rows: rows,
                text: text
            )
        }
    }

    private static func dataFormat(_ name: String?, path: String?) throws(ResponseError) -> DataFormat {
        if let name {
            guard let format = DataFormat(rawValue: name.lowercased()) else {
                throw .invalidValue("format must be csv or ndjson.", field: "params.format")
            }
            return format
        }
        if let path, path.hasSuffix(".ndjson") || path.hasSuffix(".jsonl") { return .ndjson }
        return .csv
    }

    /// Sends `progress` notifications on the request's connection, at most one per 100,000 rows.
    private static func progressReporter(
        table: String,
        context: RequestContext
    ) -> @Sendable (Int, Int) -> Void {
        guard let notify = context.notify, context.requestID != .null else { return { _, _ in } }
        let request = context.requestID
        return { done, total in
            notify(
                ReplyEncoding.notification(
                    method: "progress",
                    params: LoadProgress(request: request, table: table, done: done, total: total)
                )
            )
        }
    }
}
