import DataTableEngine
import DataTableProtocol

extension MethodTable {
    /// `copy` (protocol.md, "copy"): the selection's shown columns as displayed, three ways.
    /// Read from a snapshot, off the table's lock and the event loop: a selection may be every
    /// row.
    mutating func registerCopyMethod() {
        register(CopyRequest.self) { request, context in
            let server = context.server
            let view = request.view ?? true ? context.views[request.table] : nil
            let filter = view?.state.filter
            let table = try server.snapshot(request.table, by: context.requester)
            // Each text goes out three times (TSV, plain text, HTML): refused before any is made
            // when that is more than a reply may hold.
            let only = request.columns.map { keys in
                table.columns.map { keys.contains($0.key) }
            }
            let estimate = ServerState.estimatedGetBytes(of: table, rows: table.selectedCount, only: only)
            try server.checkReplySize(estimate.multipliedReportingOverflow(by: 3).partialValue, what: "This copy")
            let settings = view?.layout.settings
            let copied = try await server.heavyWork.run {
                try table.copiedSelection(
                    columns: settings?.columns ?? [:],
                    order: settings?.columnOrder ?? [],
                    keys: request.columns,
                    within: filter
                )
            }
            return CopyRequest.Response(
                table: table.name,
                version: Int(table.version),
                rows: copied.rows.count,
                columns: copied.keys,
                tsv: copied.tsv,
                text: copied.text,
                html: copied.html
            )
        }
    }
}
