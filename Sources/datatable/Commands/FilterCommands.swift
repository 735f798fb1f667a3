import ArgumentParser
import DataTableClient
import DataTableProtocol

/// `datatable filter TABLE CONDITION…`: the rows of a table that meet conditions, as the
/// daemon lays them out (a filter lives with its connection, so this shows it and ends).
struct Filter: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the rows meeting conditions (and containing --search text).",
        discussion: """
            A condition is COLUMN, an operator and a value, in one word:
              qty>=100   qty<5   qty!=0   received<=2024-05-01   (also ≥ ≤ ≠ > =)
              qty=10..50            between, both ends included
              status=Low,Reorder    one of these
              item~valve            contains, ignoring case
              item^valve            starts with, ignoring case
              item=~'^V[0-9]+$'     matches a regular expression (RE2 syntax)
              notes=   notes!=      empty, not empty
            'qty<5|status=Reorder' meets either condition; '!item~valve' does not meet it.
            datatable filter stock 'qty>=100' status=Low,Reorder --search valve
            """
    )
    @OptionGroup var common: CommonOptions
    @OptionGroup var layout: LayoutFlags
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Argument(help: "Conditions, every one of which a row must meet.") var conditions: [String] = []
    @Option(help: "Text one of the row's cells must contain, ignoring case.") var search: String?
    @Option(help: "Rows shown (default 20).") var rows = 20

    func validate() throws {
        guard !conditions.isEmpty || search != nil else {
            throw ValidationError("Give at least one condition or --search TEXT.")
        }
        _ = try conditions.map(FilterConditionSyntax.term)
    }

    func run() throws {
        try showFiltered(
            table: table,
            conditions: try conditions.map(FilterConditionSyntax.term),
            search: search,
            rows: rows,
            common: common,
            layout: layout
        )
    }
}

/// `datatable search TABLE TEXT`: the rows with a cell containing TEXT.
struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the rows with a cell containing the text, ignoring case.",
        discussion: "datatable search stock valve"
    )
    @OptionGroup var common: CommonOptions
    @OptionGroup var layout: LayoutFlags
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Argument(help: "The text to find.") var text: String
    @Option(help: "Rows shown (default 20).") var rows = 20

    func run() throws {
        try showFiltered(table: table, conditions: [], search: text, rows: rows, common: common, layout: layout)
    }
}

/// Sets the filter on this connection's view and prints the filter in words, how many rows it
/// shows, and the first `rows` of them as `datatable scroll` would.
private func showFiltered(
    table: String,
    conditions: [FilterTermParam],
    search: String?,
    rows: Int,
    common: CommonOptions,
    layout: LayoutFlags
) throws {
    try common.withSession { session in
        let filtered = try session.send(FilterRequest(table: table, where: conditions, search: search ?? ""))
        let viewport = ScrollRequest.Viewport(width: Double(layout.resolvedWidth), height: Double(rows + 1))
        let window = try session.sendForJSON(layout.scrollRequest(table, viewport: viewport, to: nil))
        guard !common.json else { return }
        for line in WindowText(window: window).lines { print(line) }
        Output.summary("\(filtered.filter): \(filtered.shown) of \(Output.count(filtered.total, "row"))")
    }
}

/// The one-word condition syntax of `datatable filter` (see its help).
enum FilterConditionSyntax {
    /// Operators as typed, longest first so that `>=` is not read as `>`.
    private static let operators: [(typed: String, op: FilterOp)] = [
        (">=", .greaterOrEqual), ("<=", .lessOrEqual), ("!=", .notEqual), ("=~", .matches), ("≥", .greaterOrEqual),
        ("≤", .lessOrEqual), ("≠", .notEqual), ("=", .equal), ("<", .less), (">", .greater), ("~", .contains),
        ("^", .startsWith),
    ]

    /// The term `word` states: conditions joined by `|` (any of them), each led by `!` when it
    /// must not hold; or a usage error naming it.
    static func term(_ word: String) throws -> FilterTermParam {
        let parts = word.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let terms = try parts.map { part -> FilterTermParam in
            part.hasPrefix("!") && !part.hasPrefix("!=")
                ? .not(.condition(try parse(String(part.dropFirst())))) : .condition(try parse(part))
        }
        return terms.count == 1 ? terms[0] : .any(terms)
    }

    /// The condition `word` states, or a usage error naming it.
    static func parse(_ word: String) throws -> FilterConditionParam {
        var found: (column: Substring, typed: String, op: FilterOp, value: Substring)?
        for (index, _) in word.enumerated() {
            let rest = word.dropFirst(index)
            if let match = operators.first(where: { rest.hasPrefix($0.typed) }) {
                found = (word.prefix(index), match.typed, match.op, rest.dropFirst(match.typed.count))
                break
            }
        }
        guard let found, !found.column.isEmpty else {
            throw ValidationError("\(word) is not a condition: write COLUMN, an operator and a value, like qty>=100.")
        }
        let column = String(found.column)
        let value = String(found.value)
        switch found.op {
        case .equal where value.isEmpty:
            return FilterConditionParam(column: column, op: .empty)
        case .notEqual where value.isEmpty:
            return FilterConditionParam(column: column, op: .notEmpty)
        case .equal where value.contains(".."):
            let ends = value.components(separatedBy: "..")
            guard ends.count == 2, !ends[0].isEmpty, !ends[1].isEmpty else {
                throw ValidationError("\(word): a range is LOW..HIGH, like qty=10..50.")
            }
            return FilterConditionParam(column: column, op: .between, values: ends.map(JSONValue.string))
        case .equal where value.contains(","):
            let options = value.split(separator: ",", omittingEmptySubsequences: false).map {
                JSONValue.string(String($0))
            }
            return FilterConditionParam(column: column, op: .oneOf, values: options)
        default:
            guard !value.isEmpty else { throw ValidationError("\(word): the operator needs a value after it.") }
            return FilterConditionParam(column: column, op: found.op, value: .string(value))
        }
    }
}
