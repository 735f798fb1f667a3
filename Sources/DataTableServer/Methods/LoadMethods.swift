import DataTableEngine
import DataTableProtocol
import Foundation
import Synchronization

extension MethodTable {
    /// `load`: reads the text (from the file or the request), parses it without holding the
    /// tables, then adds the rows (creating the table when it does not exist) in one change.
    static func load(_ request: LoadRequest, _ context: inout RequestContext) async throws -> LoadRequest.Response {
        // Reading and parsing leave much freed memory behind: once the rows are in and the text
        // and parsed rows are gone with `loadRows`' frame, hand it back to the system.
        defer { ProcessMemory.releaseFreedMemory() }
        var uploaded: [UInt8]?
        if request.upload == true {
            // Taken whether the load succeeds or not: an upload is loaded once.
            guard let text = context.uploads.removeValue(forKey: request.table)?.take() else {
                throw ResponseError.invalidParams(
                    "Nothing was uploaded for \(request.table) on this connection; send it with upload first.",
                    field: "params.upload"
                )
            }
            uploaded = text
        }
        return try await loadRows(request, uploaded: uploaded, context)
    }

    /// `upload`: keeps a piece of text for a later `load` on the connection.
    static func upload(_ request: UploadRequest, _ context: inout RequestContext) throws -> UploadRequest.Response {
        let uploaded = context.uploads[request.table] ?? UploadedText()
        try context.server.checkRoomToLoad(bytes: uploaded.count + request.text.utf8.count)
        context.uploads[request.table] = uploaded
        return UploadRequest.Response(table: request.table, bytes: uploaded.append(request.text))
    }

    private static func loadRows(_ request: LoadRequest, uploaded: [UInt8]?, _ context: RequestContext) async throws
        -> LoadRequest.Response
    {
        let server = context.server
        let writer = context.writer
        let requester = context.requester
        // Asked before any text is read: a load into a table the peer may not change, or with a
        // mode that is not one, reads nothing.
        var existing = try Self.tableToLoadInto(request.table, server, by: requester)
        let mode = try server.tableMode(request.mode)
        // A new table needs an owner: an unidentified peer is refused before any text is read.
        if existing == nil { _ = try requester.access(mode: mode) }
        // The rows count against the memory of the table's owner (the peer's, for a new table):
        // about twice their text once in.
        let owner = existing?.owner ?? requester.uid
        func checkOwnersRoom(forText bytes: Int) throws(ResponseError) {
            try server.checkUserMemory(owner: owner, adding: bytes.multipliedReportingOverflow(by: 2).partialValue)
        }
        if existing != nil { try Self.refuseCreationParams(request) }
        if (request.replace == true || request.ifVersion != nil) && existing == nil {
            // Nothing to replace, or to be at a version: said before any text is read.
            throw ResponseError(CatalogError.noSuchTable(request.table))
        }
        let locale = try request.locale.map { name throws(ResponseError) in
            try WireSchema.locale(name, field: "params.locale")
        }
        let bytes: [UInt8]
        if let uploaded {
            try checkOwnersRoom(forText: uploaded.count)
            // Joined from whole strings: valid UTF-8.
            bytes = uploaded
        } else if let path = request.path {
            // Opened as the peer may, without blocking; read and checked off the event loop and
            // every lock.
            let file = try server.files.openForLoad(path, peer: context.connection.peer)
            try server.checkRoomToLoad(bytes: file.size)
            try checkOwnersRoom(forText: file.size)
            let read = try await server.heavyWork.run { [file = consume file] in
                let bytes = try file.readAll(limit: server.loadByteLimit)
                return (bytes: bytes, valid: UTF8Check.isValid(bytes))
            }
            guard read.valid else {
                throw ResponseError.invalidValue("The file \(path) is not UTF-8 text.", field: "params.path")
            }
            bytes = read.bytes
        } else {
            let text = request.text!
            try server.checkRoomToLoad(bytes: text.utf8.count)
            try checkOwnersRoom(forText: text.utf8.count)
            bytes = Array(text.utf8)
        }
        let format = dataFormat(request.format, path: request.path, text: bytes)
        // Created meanwhile, maybe.
        existing = try Self.tableToLoadInto(request.table, server, by: requester)
        if existing != nil { try Self.refuseCreationParams(request) }
        if existing == nil { try TableCatalog.checkName(request.table) }
        try server.checkMemory()
        let given =
            try existing?.columns
            ?? request.columns.map { definitions throws(ResponseError) in
                try WireSchema.columns(definitions)
            }
        let progress = progressReporter(table: request.table, context: context)
        // Off the event loop and every lock: the reply, written back on the loop, queues behind
        // the progress notifications sent meanwhile.
        let loaded = try await server.heavyWork.run {
            try TableLoader.parse(bytes: bytes, format: format, columns: given, locale: locale, progress: progress)
        }
        let logsWhole = writer.isRecording
        if request.replace == true && existing == nil {
            throw ResponseError(CatalogError.noSuchTable(request.table))
        }
        if existing == nil {
            let access = try requester.access(mode: mode)
            return try await loadNew(request, loaded, access: access, writer, logsWhole: logsWhole)
        }
        return try await loadInto(
            request.table,
            loaded,
            replacing: request.replace == true,
            ifVersion: request.ifVersion,
            writer,
            by: requester,
            logsWhole: logsWhole
        )
    }

    /// What a load did to a table that was there: rows added (and those the limit dropped), or
    /// the rows replaced.
    private enum LoadChange: Sendable {
        case appended(count: Int, ids: [RowID], dropped: [RowID])
        case replaced(ReplaceResult)
    }

    /// A load into a table that exists: the rows added, or (`replacing`) the rows replaced,
    /// worked out on a copy off the table's lock; the lock is held only to put the result in
    /// place, log it and publish it.
    private static func loadInto(
        _ name: String,
        _ loaded: LoadedRows,
        replacing: Bool,
        ifVersion: Int?,
        _ writer: TableWriter,
        by requester: Requester,
        logsWhole: Bool
    ) async throws -> LoadRequest.Response {
        let server = writer.server
        let keys = loaded.columns.map(\.key)
        return try await writer.updateOffLock(name, by: requester, ifVersion: ifVersion) { table in
            guard table.columns.map(\.key) == keys else {
                throw ResponseError.invalidValue(
                    "The table \(name) changed while the file was read; load again.",
                    field: "params.table"
                )
            }
            try server.checkRows((replacing ? 0 : table.rowCount) + loaded.count, table: name)
            let bytesBefore = table.estimatedBytes
            let change: LoadChange
            if replacing {
                change = .replaced(try table.replaceRows(with: loaded))
            } else {
                let added = try table.append(loaded)
                let ids = added <= TableEvent.maximumIDs ? table.idsOfLastSlots(added) : []
                change = .appended(count: added, ids: ids, dropped: table.droppedByLimit)
            }
            let grew = table.estimatedBytes - bytesBefore
            // The file may change or go: the log keeps the table as the load left it, encoded
            // here rather than under the lock.
            return (change: change, grew: grew, image: logsWhole ? TableImageCoding.encode(table) : nil)
        } install: { table, outcome, before in
            if !replacing || outcome.grew > 0 {
                try server.checkUserMemory(owner: table.access.owner, adding: outcome.grew)
            }
            if let image = outcome.image {
                try writer.claimRoom(forImage: image)
                writer.recordWhole(image: image)
            }
            var reply = LoadRequest.Response(
                table: table.name,
                version: Int(table.version),
                created: false,
                added: 0,
                rows: table.rowCount,
                columns: table.columns.map(WireSchema.definition)
            )
            switch outcome.change {
            case .appended(let count, let ids, let dropped):
                server.publish(table, .added, from: before, thenDropped: dropped) { $0.listAdded(ids, count: count) }
                reply.added = count
            case .replaced(let result):
                server.publish(table, .replaced, from: before) { $0.count = result.added }
                reply.added = result.added
                reply.kept = result.kept
                reply.removed = result.removed
            }
            return reply
        }
    }

    /// Refuses params that only apply when `load` creates the table (it exists), naming the first.
    private static func refuseCreationParams(_ request: LoadRequest) throws(ResponseError) {
        let given: [(String, Bool)] = [
            ("columns", request.columns != nil), ("key", request.key != nil), ("sort", request.sort != nil),
            ("mode", request.mode != nil), ("locale", request.locale != nil),
        ]
        guard let (name, _) = given.first(where: { $0.1 }) else { return }
        let instead = name == "mode" ? " (see chmod)" : name == "sort" ? " (see sort)" : ""
        throw ResponseError.invalidParams(
            "The table \(request.table) exists; \(name) only applies when load creates it\(instead).",
            field: "params.\(name)"
        )
    }

    /// A load that creates its table: the table is built whole off every lock, then goes in at
    /// once; a load that fails leaves no empty table behind.
    private static func loadNew(
        _ request: LoadRequest,
        _ loaded: LoadedRows,
        access: TableAccess,
        _ writer: TableWriter,
        logsWhole: Bool
    ) async throws -> LoadRequest.Response {
        let server = writer.server
        try server.checkRows(loaded.count, table: request.table)
        let sort = request.sort.map { WireSchema.sortKeys($0) }
        let (name, key) = (request.table, request.key)
        let (table, before, added, image) = try await server.heavyWork.run {
            var table = try Table(name: name, columns: loaded.columns, key: key)
            table.access = access
            if let sort { try table.sort(by: sort, field: "sort") }
            let before = table.version
            let added = try table.append(loaded)
            let ids = added <= TableEvent.maximumIDs ? table.idsOfLastSlots(added) : []
            return (table, before, (count: added, ids: ids), logsWhole ? TableImageCoding.encode(table) : nil)
        }
        try server.checkUserMemory(owner: table.access.owner, adding: table.estimatedBytes)
        try server.tables.insert(table, check: server.checkRoomForTable) { table in
            if let image {
                try writer.claimRoom(forImage: image)
                writer.recordWhole(image: image)
            } else {
                writer.recordChange(of: table)
            }
            server.publish(table, .schema, from: 0) { $0.change = "created" }
            server.publish(table, .added, from: before) { $0.listAdded(added.ids, count: added.count) }
        }
        return LoadRequest.Response(
            table: table.name,
            version: Int(table.version),
            created: true,
            added: added.count,
            rows: table.rowCount,
            columns: table.columns.map(WireSchema.definition),
            dateForms: loaded.dateForms.isEmpty ? nil : loaded.dateForms.mapValues(\.rawValue)
        )
    }

    /// The columns and owner of the table a load adds to, once its owner and mode let
    /// `requester` change it; `nil` when there is no such table (the load makes it).
    private static func tableToLoadInto(_ name: String, _ server: ServerState, by requester: Requester) throws
        -> (columns: [Column], owner: UInt32)?
    {
        do {
            return try server.read(name, by: requester) { table in
                try requester.check(.write, table)
                return (table.columns, table.access.owner)
            }
        } catch CatalogError.noSuchTable {
            return nil
        }
    }

    /// The format given, else the one `path` says (NDJSON for `.ndjson` and `.jsonl`, JSON for
    /// `.json`, CSV for `.csv`), else the one `text` (UTF-8) starts as (`[`: a JSON array; `{`:
    /// NDJSON), else CSV.
    static func dataFormat(_ given: DataFileFormat?, path: String?, text: [UInt8]? = nil) -> DataFormat {
        if let given { return given }
        let lowered = path?.lowercased() ?? ""
        if lowered.hasSuffix(".ndjson") || lowered.hasSuffix(".jsonl") { return .ndjson }
        if lowered.hasSuffix(".json") { return .json }
        if lowered.hasSuffix(".csv") { return .csv }
        let first = text?.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        switch first {
        case UInt8(ascii: "["): return .json
        case UInt8(ascii: "{"): return .ndjson
        default: return .csv
        }
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
