import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `edit` (protocol.md, "edit"): cells set, or kept as drafts with the reason.
    /// `within`: the filter of the connection's view, when the request asks for it.
    static func edit(
        _ request: EditRequest,
        _ writer: TableWriter,
        by requester: Requester,
        within filter: UInt64? = nil
    ) throws -> EditRequest.Response {
        let server = writer.server
        let shape = try EditShape(request, limits: server.limits)
        return try writer.update(request.table, by: requester, needing: .write, ifVersion: request.ifVersion) { table in
            let before = table.version
            let cells: [EditedCell]
            do {
                // The log keeps the cells by row id, never the selection seen through a view.
                let edits = try shape.edits(in: table, within: filter)
                cells = edits.isEmpty ? [] : try writer.make(.init(.edit(edits), by: requester.uid), to: &table).edited
            } catch {
                // A refused edit still keeps its drafts.
                if table.version != before {
                    server.publish(table, .drafts, from: before) { $0.errors = table.errorCount }
                }
                throw error
            }
            if !cells.isEmpty {
                server.publish(table, .edited, from: before) {
                    $0.list(cells)
                    $0.errors = table.errorCount
                }
            }
            return EditRequest.Response(
                table: table.name,
                version: Int(table.version),
                edited: cells.count,
                cells: WireValues.cells(cells, in: table, limit: 1000),
                errors: table.errorCount
            )
        }
    }
}

/// The cells an `edit` sets: named one by one, or one column of the selection.
enum EditShape: Sendable {
    case cells([CellEdit])
    case selection(column: String, input: CellInput)

    /// The request's cells, read and checked (a batch within `limits`).
    init(_ request: EditRequest, limits: ServerLimits) throws {
        if let edits = request.edits {
            guard edits.count <= limits.maxBatchSize else {
                throw ResponseError.limitExceeded(
                    "A batch may set at most \(limits.maxBatchSize) cells.",
                    limit: "maxBatchSize",
                    value: limits.maxBatchSize
                )
            }
            self = .cells(
                try edits.enumerated().map { index, edit throws(ResponseError) in
                    let field = "params.edits[\(index)]"
                    return CellEdit(
                        id: try WireValues.rowID(edit.id, field: field + ".id"),
                        column: edit.column,
                        input: try WireValues.cellInput(edit.value, field: field + ".value"),
                        ifRowVersion: try MethodTable.rowVersion(edit.ifRowVersion, field: field + ".ifRowVersion")
                    )
                }
            )
        } else if let column = request.column, let value = request.value {
            let input = try WireValues.cellInput(value, field: "params.value")
            if let id = request.id {
                self = .cells([
                    CellEdit(
                        id: try WireValues.rowID(id, field: "params.id"),
                        column: column,
                        input: input,
                        ifRowVersion: try MethodTable.rowVersion(request.ifRowVersion, field: "params.ifRowVersion")
                    )
                ])
            } else {
                self = .selection(column: column, input: input)
            }
        } else {
            // No other shape passes validation; should one be let through, it is refused.
            try request.validate()
            preconditionFailure("EditRequest.validate() let an edit without column or value through")
        }
    }

    /// The cells by row id (the log keeps them so, never the selection seen through a view).
    func edits(in table: Table, within filter: UInt64?) throws -> [CellEdit] {
        switch self {
        case .cells(let given): given
        case .selection(let column, let input): try table.selectionEdits(column: column, input: input, within: filter)
        }
    }
}

extension MethodTable {
    /// A row version as the engine takes it; a negative one is `invalid_value`.
    static func rowVersion(_ given: Int?, field: String) throws(ResponseError) -> UInt64? {
        guard let given else { return nil }
        guard given >= 0 else { throw .invalidValue("A row version is a whole number, 0 or more.", field: field) }
        return UInt64(given)
    }
}
