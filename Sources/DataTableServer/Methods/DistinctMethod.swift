import DataTableEngine
import DataTableProtocol

extension MethodTable {
    /// `distinct` (protocol.md, "distinct"): a column's values with their counts, over the rows
    /// the connection's view lets through by its other conditions.
    mutating func registerDistinctMethod() {
        register(DistinctRequest.self) { request, context in
            try await Self.distinct(request, &context)
        }
    }

    /// The most values a reply lists.
    static let distinctLimit = 100_000

    static func distinct(_ request: DistinctRequest, _ context: inout RequestContext) async throws
        -> DistinctRequest.Response
    {
        let limit = request.limit ?? 1000
        guard (1...Self.distinctLimit).contains(limit) else {
            throw ResponseError.invalidParams(
                "limit must be from 1 to \(Self.distinctLimit).",
                field: "params.limit"
            )
        }
        // Every row is looked at on a copy, off the table's lock.
        let copy = try context.server.snapshot(request.table, by: context.requester)
        guard let column = copy.columnIndex(of: request.column) else {
            throw ResponseError(TableError.noSuchColumn(request.column, row: nil))
        }
        try copy.checkNotViewOrder(column, "counted by distinct value", field: "column")
        // The view's search and its conditions on the other columns that are still there (a
        // set filter's rule: a column's own conditions do not narrow its pick list).
        let view = request.view != false ? context.views[request.table] : nil
        let others = (view?.conditions ?? []).filter { term in
            !term.reads(request.column) && term.columnKeys.allSatisfy { copy.columnIndex(of: $0) != nil }
        }
        let inputs = try others.enumerated().map { position, term in
            try Self.termInput(term, field: "the view's filter, term \(position + 1)")
        }
        let filter = try RowFilter(terms: inputs, search: view?.search ?? "", in: copy)
        let prefix = request.prefix ?? ""
        let byCount = request.order == .count
        let found = try await context.server.heavyWork.run {
            copy.distinctValues(
                of: column,
                admitting: filter.isEmpty ? nil : filter,
                prefix: prefix,
                byCount: byCount,
                limit: limit
            )
        }
        let rules = copy.columns[column].rules
        return DistinctRequest.Response(
            table: copy.name,
            version: Int(copy.version),
            column: request.column,
            rows: found.rows,
            distinct: found.distinct,
            values: found.values.map {
                .init(value: WireValues.json($0.value, rules: rules), text: $0.text, count: $0.count)
            }
        )
    }
}
