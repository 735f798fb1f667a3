import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `select` (protocol.md, "select"): the selection and its mode.
    static func select(_ request: SelectRequest, _ server: ServerState, by requester: Requester) throws
        -> SelectRequest.Response
    {
        let mode = try WireSchema.selectionMode(request.mode, field: "params.mode")
        let ids = try request.ids.map { values throws(ResponseError) in
            try WireValues.rowIDs(values, field: "params.ids")
        }
        let actionName = request.action ?? (ids == nil && request.from == nil && mode != nil ? nil : "set")
        var change: (SelectAction, RowTarget)?
        if let actionName {
            let target: RowTarget
            let action: SelectAction
            switch actionName {
            case "all": (action, target) = (.set, .all)
            case "none": (action, target) = (.set, .none)
            default:
                guard let named = SelectAction(rawValue: actionName) else {
                    throw ResponseError.invalidValue(
                        "action must be set, add, remove, toggle, all or none.",
                        field: "params.action"
                    )
                }
                action = named
                if let ids {
                    guard request.from == nil else {
                        throw ResponseError.invalidParams("Give ids or from/count, not both.", field: "params.from")
                    }
                    target = .ids(ids)
                } else if let from = request.from {
                    target = .range(from: from, count: request.count ?? 1)
                } else {
                    throw ResponseError.invalidParams(
                        "Name the rows: ids, or from and count (or action all / none).",
                        field: "params.ids"
                    )
                }
            }
            change = (action, target)
        }
        return try server.update(request.table, by: requester, needing: .write) { table in
            let before = table.version
            defer {
                if table.version != before {
                    server.publish(table, .selection, from: before) { $0.selected = table.selectedCount }
                }
            }
            if let change {
                try table.select(change.0, change.1, mode: mode)
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
