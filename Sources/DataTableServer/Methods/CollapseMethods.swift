import DataTableEngine
import DataTableProtocol

extension MethodTable {
    /// `collapse` and `expand` (protocol.md, "collapse"): groups of this connection's view of a
    /// table hidden or shown again. O(groups): on the loop.
    mutating func registerCollapseMethods() {
        registerImmediate(CollapseRequest.self) { request, context in
            try request.validate()
            return try Self.setCollapsed(
                true,
                table: request.table,
                target: Self.groupTarget(request.group, level: request.level),
                &context
            )
        }
        registerImmediate(ExpandRequest.self) { request, context in
            try request.validate()
            return try Self.setCollapsed(
                false,
                table: request.table,
                target: Self.groupTarget(request.group, level: request.level),
                &context
            )
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

    private static func setCollapsed(
        _ collapsed: Bool,
        table name: String,
        target: GroupTarget,
        _ context: inout RequestContext
    ) throws -> CollapseRequest.Response {
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
