import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `alter` (protocol.md, "alter"): logged as what it changed. A large table
    /// is changed on a copy off its lock (an added column is a new store of every row).
    static func alter(_ request: AlterRequest, _ writer: TableWriter, by requester: Requester) async throws
        -> AlterRequest.Response
    {
        let server = writer.server
        var alteration = TableAlteration()
        alteration.change = try WireSchema.columns(request.change ?? [], field: "params.change")
        alteration.rename = (request.rename ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        alteration.drop = request.drop ?? []
        let added = try WireSchema.columns(request.add ?? [], field: "params.add")
        let addedKeys = Set(added.map(\.key))
        for key in (request.values ?? [:]).keys.sorted() where !addedKeys.contains(key) {
            throw ResponseError.invalidParams(
                "values gives the cells of added columns; \(key) is not among params.add.",
                field: "params.values.\(key)"
            )
        }
        alteration.add = try added.map { column throws(ResponseError) in
            let value = try (request.values?[column.key]).map { json throws(ResponseError) in
                try WireValues.cellInput(json, field: "params.values.\(column.key)")
            }
            return NewColumn(column: column, value: value ?? .null)
        }
        alteration.readOnly = request.readOnly
        alteration.limit = request.limit
        alteration.keepBrokenAsDrafts = request.keepAsDrafts ?? false
        let change = TableChange(.alter(alteration), by: requester.uid)
        writer.note(change, for: request.table)
        return try await writer.updateOffLock(request.table, by: requester, ifVersion: request.ifVersion) { table in
            guard case .altered(let summary) = try table.apply(change) else {
                preconditionFailure("an alter made something else")
            }
            return summary
        } install: { (table: inout Table, summary: SchemaSummary, before: UInt64) in
            server.publish(table, .schema, from: before, thenDropped: table.droppedByLimit) { event in
                event.change = "altered"
                event.columns = summary.columns.isEmpty ? nil : summary.columns
            }
            let kept = summary.keptAsDrafts
            return AlterRequest.Response(
                table: table.name,
                version: Int(table.version),
                columns: table.columns.map(\.key),
                altered: schemaReply(summary),
                drafts: kept > 0 ? kept : nil,
                errors: kept > 0 ? table.errorCount : nil
            )
        }
    }
}
