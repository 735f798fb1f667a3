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
        return try await server.attach(request.table, from: source, as: origin, access: access)
    }

    /// The definition of a table's column for a source's column.
    static func definition(_ column: SourceColumn) -> ColumnDefinition {
        ColumnDefinition(
            key: column.name,
            type: column.type,
            required: column.required ? true : nil,
            maxLength: column.maxLength,
            decimals: column.decimals
        )
    }
}
