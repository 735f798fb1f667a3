import DataTableEngine
import DataTableProtocol
import Foundation
import Logging

extension ServerState {
    /// Attaches the table called `name` to `source` as `origin` says, owned as `access` says:
    /// its columns described and rows read by the source, then the table made, kept current
    /// and its attachment saved in the state directory. For `attach`, and for the attachments a
    /// restart finds.
    func attach(
        _ name: String,
        from source: any TableSource,
        as origin: SourceOrigin,
        access: TableAccess
    ) async throws -> AttachRequest.Response {
        // Listening first: whatever changes once the rows are read is heard (a relation's only;
        // a query's table is never changed).
        if origin.relation != nil { _ = await listen(to: source) }
        let loaded: SourceRows
        do {
            loaded = try await source.load(origin)
        } catch {
            throw SourceError.response(for: error, source: source.name)
        }
        let shape = loaded.shape
        let readOnly = shape.relation == nil
        var table = try Table(
            name: name,
            columns: try WireSchema.columns(shape.columns.map(MethodTable.definition)),
            key: shape.key,
            readOnly: readOnly
        )
        // The rows go in as a load's do: parsed on every core, off the event loop and any lock.
        let columns = table.columns
        let csv = loaded.csv
        do {
            let rows = try await heavyWork.run {
                try TableLoader.parse(bytes: csv, format: .csv, columns: columns)
            }
            _ = try table.append(rows)
        } catch {
            throw ResponseError.invalidValue(
                "The rows of \(shape.relation ?? "the query") do not fit the columns: \(error)",
                field: origin.relation == nil ? "params.query" : "params.relation"
            )
        }
        table.forgetHistory()
        table.access = access
        let created = table
        try checkMemory()
        try checkUserMemory(owner: created.access.owner, adding: created.estimatedBytes)
        try checkRows(created.rowCount, table: created.name)
        // The rows are not kept in the state directory (the source holds them; a snapshot leaves
        // the table out and its changes are not logged), the attachment is: a restart attaches
        // the table again (``attachSaved(logger:)``).
        let saved = SavedAttachment(table: name, source: source.name, origin: origin, access: access)
        try savedAttachments?.save(saved)
        do {
            try tables.insert(created, check: checkRoomForTable) { created in
                attached.add(created.name, .init(source: source, shape: shape, line: SerialLine()))
                publish(created, .schema, from: 0) { $0.change = "created" }
            }
        } catch {
            try? savedAttachments?.forget(saved)
            throw error
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
}
