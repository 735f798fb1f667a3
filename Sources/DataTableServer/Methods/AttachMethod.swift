import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `attach` (protocol.md, "attach"): a table of a configured source's relation or query,
    /// owned by the requester, its rows read from the source; from then on kept current from it
    /// and, for a relation, written through to it.
    static func attach(_ request: AttachRequest, _ context: RequestContext) async throws -> AttachRequest.Response {
        let server = context.server
        try TableCatalog.checkName(request.table)
        // Asked before the source is: an unidentified peer reaches no source.
        let access = try context.requester.access(mode: server.tableMode(request.mode))
        guard let source = server.sources[request.source] else {
            let names = server.sources.keys.sorted()
            throw ResponseError.invalidValue(
                "There is no source \(request.source) "
                    + (names.isEmpty
                        ? "(the daemon was started with no --source)."
                        : "(the daemon's sources: \(names.joined(separator: ", ")))."),
                field: "params.source"
            )
        }
        if server.tables.contains(request.table) {
            throw ResponseError(
                code: .conflict,
                kind: .alreadyExists,
                message: "A table called \(request.table) exists already."
            )
        }
        let origin = SourceOrigin(
            relation: request.relation,
            query: request.query,
            key: request.key,
            columns: request.columns
        )
        // Listening first: whatever changes once the rows are read is heard (a relation's only;
        // a query's table is never changed).
        if request.relation != nil { _ = await server.listen(to: source) }
        let loaded: SourceRows
        do {
            loaded = try await source.load(origin)
        } catch {
            throw SourceError.response(for: error, source: source.name)
        }
        let shape = loaded.shape
        let readOnly = shape.relation == nil
        var table = try Table(
            name: request.table,
            columns: try WireSchema.columns(shape.columns.map(definition)),
            key: shape.key,
            readOnly: readOnly
        )
        // The rows go in as a load's do: parsed on every core, off the event loop and any lock.
        let columns = table.columns
        let csv = loaded.csv
        do {
            let rows = try await server.heavyWork.run {
                try TableLoader.parse(bytes: csv, format: .csv, columns: columns)
            }
            _ = try table.append(rows)
        } catch {
            throw ResponseError.invalidValue(
                "The rows of \(shape.relation ?? "the query") do not fit the columns: \(error)",
                field: request.relation == nil ? "params.query" : "params.relation"
            )
        }
        table.forgetHistory()
        table.access = access
        let created = table
        try server.checkMemory()
        try server.checkUserMemory(owner: created.access.owner, adding: created.estimatedBytes)
        try server.checkRows(created.rowCount, table: created.name)
        // Not kept in the state directory: the source holds the rows, and a restart forgets the
        // attachment (attach again). Its changes are not logged either (the log replays them,
        // if any are, to a table that is not there).
        try server.tables.insert(created, check: server.checkRoomForTable) { created in
            server.attached.add(created.name, .init(source: source, shape: shape, line: SerialLine()))
            server.publish(created, .schema, from: 0) { $0.change = "created" }
        }
        return AttachRequest.Response(
            table: created.name,
            version: Int(created.version),
            rows: created.rowCount,
            source: source.name,
            key: shape.key,
            readOnly: readOnly,
            columns: shape.columns.map { .init(key: $0.name, type: $0.type.rawValue, sourceType: $0.sourceType) }
        )
    }

    /// The definition of a table's column for a source's column.
    private static func definition(_ column: SourceColumn) -> ColumnDefinition {
        ColumnDefinition(
            key: column.name,
            type: column.type,
            required: column.required ? true : nil,
            maxLength: column.maxLength,
            decimals: column.decimals
        )
    }
}
