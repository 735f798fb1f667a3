import DataTableEngine
import DataTableProtocol
import Synchronization

extension MethodTable {
    /// `filter` (protocol.md, "filter"): sets this connection's view's filter on a table.
    mutating func registerFilterMethod() {
        register(FilterRequest.self) { request, context in
            try await Self.filter(request, &context)
        }
    }

    /// The view's conditions and search, with what `request` gives in place of what it had,
    /// set in the table.
    static func filter(_ request: FilterRequest, _ context: inout RequestContext) async throws
        -> FilterRequest.Response
    {
        var view = context.views[request.table] ?? TableView(table: request.table)
        let id = view.id
        // Every row is looked at on a copy, off the table's lock; the filter is installed under
        // it (looked at again there only if the table changed meanwhile).
        let copy = try context.server.snapshot(request.table, by: context.requester)
        // Columns dropped under the view since it last heard: their conditions went first.
        var taken = view
        let lost = taken.take(copy.viewLosses(of: id, after: view.lossesSeen), keepsFilter: copy.hasFilter(id))
        let conditions = request.where ?? taken.conditions
        let search = request.search ?? view.search
        let inputs = try conditions.enumerated().map { position, term in
            try Self.termInput(term, field: "params.where[\(position)]")
        }
        let filter = try RowFilter(terms: inputs, search: search, in: copy)
        // The view's sections follow the filter: worked out on the copy too.
        let offLock = copy.rowCount >= ServerState.offLockRows
        let (admitted, sections) =
            offLock
            ? try await context.server.heavyWork.run { () -> (AdmittedRows?, PreparedSections?) in
                let admitted = filter.isEmpty ? nil : copy.admittedRows(filter)
                guard copy.sectionSpec(of: id) != nil else { return (admitted, nil) }
                var filtered = copy
                filtered.setFilter(filter, id: id, admitting: admitted)
                return (admitted, filtered.keptSections(of: id))
            }
            : (nil, nil)
        let shown = try context.server.readKeeping(request.table, by: context.requester) { table in
            table.setFilter(filter, id: id, admitting: admitted, sections: sections)
            return (
                version: Int(table.version),
                total: table.rowCount,
                shown: table.shownCount(filter: id),
                words: table.hasFilter(id) ? table.filterDescription(id) : "",
                kept: table.hasFilter(id)
            )
        }
        view = taken
        view.conditions = conditions
        view.search = search
        // A filter that lets every row through is not kept: the view shows the whole table.
        view.state.filter = shown.kept ? id : nil
        context.views[request.table] = view
        return FilterRequest.Response(
            table: request.table,
            version: shown.version,
            total: shown.total,
            shown: shown.shown,
            where: conditions,
            search: search,
            filter: shown.words,
            lost: lost
        )
    }

    /// A term as the engine takes it: its conditions' operators and values, its groups.
    static func termInput(_ term: FilterTermParam, field: String) throws -> FilterTerm.Input {
        switch term {
        case .condition(let condition): .condition(try conditionInput(condition, field: field))
        case .any(let terms):
            .any(try terms.enumerated().map { try termInput($1, field: "\(field).any[\($0)]") })
        case .all(let terms):
            .all(try terms.enumerated().map { try termInput($1, field: "\(field).all[\($0)]") })
        case .not(let term): .not(try termInput(term, field: "\(field).not"))
        }
    }

    /// A condition as the engine takes it: its operator, and the values it needs.
    static func conditionInput(_ condition: FilterConditionParam, field: String) throws
        -> FilterCondition.Input
    {
        let op = FilterOperator(condition.op)
        var values: [CellInput] = []
        switch op.operandCount {
        case 0:
            guard condition.value == nil, condition.values == nil else {
                throw ResponseError.invalidParams("\(op.rawValue) takes no value.", field: "\(field).value")
            }
        case 1:
            guard let value = condition.value, condition.values == nil else {
                throw ResponseError.invalidParams("\(op.rawValue) takes one value (value).", field: "\(field).value")
            }
            values = [try WireValues.cellInput(value, field: "\(field).value")]
        default:
            guard let given = condition.values, condition.value == nil else {
                let what = op == .between ? "two values (values: [lowest, highest])" : "a list of values (values)"
                throw ResponseError.invalidParams("\(op.rawValue) takes \(what).", field: "\(field).values")
            }
            values = try given.enumerated().map { index, value in
                try WireValues.cellInput(value, field: "\(field).values[\(index)]")
            }
        }
        return FilterCondition.Input(column: condition.column, operator: op, values: values)
    }
}

extension ServerState {
    private static let viewIDs = Atomic<UInt64>(0)

    /// An id for a view, unique in this process (tables keep views' filters and sections by it).
    static func nextViewID() -> UInt64 {
        viewIDs.add(1, ordering: .relaxed).newValue
    }

    /// Drops the filters and sections of a connection's views from their tables: the connection
    /// is gone. A view is no change to its table (no new version): nothing is recorded.
    func dropViews(of views: [String: TableView]) {
        for (name, view) in views where view.state.filter != nil || view.state.sections != nil {
            guard let entry = try? tables.entry(name) else { continue }
            _ = try? entry.update { table in table.dropView(view.id) }
        }
    }
}
