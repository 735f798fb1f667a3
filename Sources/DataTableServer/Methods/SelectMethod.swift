import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `select` (protocol.md, "select"): the selection and its mode.
    /// `within`: the filter of the connection's view, when the request asks for it.
    static func select(
        _ request: SelectRequest,
        _ writer: TableWriter,
        by requester: Requester,
        within filter: UInt64? = nil
    ) throws -> SelectRequest.Response {
        let server = writer.server
        let mode = request.mode
        let ids = try request.ids.map { values throws(ResponseError) in
            try WireValues.rowIDs(values, field: "params.ids")
        }
        // The request's members go together (`SelectRequest.validate()`); bind their values.
        var change: (SelectAction, RowTarget)?
        switch request.effectiveAction {
        case nil: change = nil
        case .all?: change = (.set, .all)
        case .none?: change = (.set, .none)
        case let named?:
            guard let action = SelectAction(named), ids != nil || request.from != nil else {
                // No such request passes validation; should one be let through, it is refused.
                try request.validate()
                preconditionFailure("SelectRequest.validate() let \(named.rawValue) without rows through")
            }
            change = (action, ids.map { .ids($0) } ?? .range(from: request.from ?? 0, count: request.count ?? 1))
        }
        return try writer.update(request.table, by: requester, needing: .write, ifVersion: request.ifVersion) { table in
            let before = table.version
            defer {
                if table.version != before {
                    server.publish(table, .selection, from: before) { $0.selected = table.selectedCount }
                }
            }
            // The log keeps rows named through a view by id.
            if let change {
                let target = try table.resolved(change.1, within: filter)
                _ = try writer.make(.init(.select(change.0, target, mode: mode), by: requester.uid), to: &table)
            } else if let mode {
                _ = try writer.make(.init(.selectionMode(mode), by: requester.uid), to: &table)
            }
            return SelectRequest.Response(
                table: table.name,
                version: Int(table.version),
                count: table.selectedCount,
                mode: table.selectionMode
            )
        }
    }
}
