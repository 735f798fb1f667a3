import DataTableEngine
import DataTableProtocol

extension MethodTable {
    /// `collapse` and `expand` (protocol.md, "collapse"): groups of this connection's view of a
    /// table hidden or shown again. O(groups) under the table's lock: off the loop.
    mutating func registerCollapseMethods() {
        register(CollapseRequest.self) { request, context in
            try request.validate()
            return try Self.setCollapsed(true, table: request.table, request.group, request.level, &context)
        }
        register(ExpandRequest.self) { request, context in
            try request.validate()
            return try Self.setCollapsed(false, table: request.table, request.group, request.level, &context)
        }
    }

    /// The groups a `collapse` or `expand` names (one group, a level, or every group).
    private static func groupTarget(_ group: [JSONValue]?, level: Int?) throws -> GroupTarget {
        if let group {
            return .group(
                try group.enumerated().map { try WireValues.cellInput($1, field: "params.group[\($0)]") }
            )
        }
        if let level { return .level(level) }
        return .all
    }

    /// Collapses or expands the groups named by `group` or `level` (every group without
    /// either) in this connection's view of the table called `name`.
    private static func setCollapsed(
        _ collapsed: Bool,
        table name: String,
        _ group: [JSONValue]?,
        _ level: Int?,
        _ context: inout RequestContext
    ) throws -> CollapseRequest.Response {
        let target = try groupTarget(group, level: level)
        guard let view = context.views[name], view.state.sections != nil else {
            // Checked for the table's existence and the right to read it first.
            _ = try context.server.snapshot(name, by: context.requester)
            throw ResponseError.invalidValue(
                "Your view of \(name) has no sections: give scroll sections with columns first.",
                field: "params.table"
            )
        }
        let id = view.id
        return try context.server.readKeeping(name, by: context.requester) { table in
            let count = try table.setCollapsed(collapsed, target, view: id)
            return CollapseRequest.Response(
                table: name,
                collapsed: count,
                shown: table.sectionedShownCount(of: id) ?? table.rowCount
            )
        }
    }
}
