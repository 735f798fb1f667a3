import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `select` (protocol.md, "select"): the selection and its mode.
    /// `within`: the filter of the connection's view, when the request asks for it.
    static func select(
        _ request: SelectRequest,
        _ server: ServerState,
        by requester: Requester,
        within filter: UInt64? = nil
    ) throws -> SelectRequest.Response {
        let mode = try WireSchema.selectionMode(request.mode, field: "params.mode")
        let ids = try request.ids.map { values throws(ResponseError) in
            try WireValues.rowIDs(values, field: "params.ids")
        }
        // The request's members go together (`SelectRequest.validate()`); bind their values.
        var change: (SelectAction, RowTarget)?
        switch request.effectiveAction {
        case nil: change = nil
        case "all": change = (.set, .all)
        case "none": change = (.set, .none)
        case let name?:
            guard let action = SelectAction(rawValue: name), ids != nil || request.from != nil else {
                // No such request passes validation; should one be let through, it is refused.
                try request.validate()
                preconditionFailure("SelectRequest.validate() let \(name) without rows through")
            }
            change = (action, ids.map { .ids($0) } ?? .range(from: request.from ?? 0, count: request.count ?? 1))
        }
        return try server.update(request.table, by: requester, needing: .write, ifVersion: request.ifVersion) { table in
            let before = table.version
            defer {
                if table.version != before {
                    server.publish(table, .selection, from: before) { $0.selected = table.selectedCount }
                }
            }
            if let change {
                try table.select(change.0, change.1, mode: mode, within: filter)
            } else if let mode {
                table.setSelectionMode(mode)
            }
            return SelectRequest.Response(
                table: table.name,
                version: Int(table.version),
                count: table.selectedCount,
                mode: table.selectionMode.rawValue
            )
        }
    }
}
