/// What a computed column defined by a view-order function works out: a value that follows
/// from the rows a view shows and their order, not from its own row alone. Such a column
/// stores nothing; its values are worked out for the rows a read shows, from sums kept in the
/// order of the view's rows (``Table/viewOrderValues(_:rows:from:)``).
enum ViewOrderFunction: Sendable, Hashable {
    /// The sum of a number column (by index) over the view's rows from the first through this
    /// one; an empty cell adds nothing.
    case runningSum(Int)
    /// How many of the view's rows there are from the first through this one.
    case runningCount
    /// 1 and how many of the view's rows come before the first row whose sort values this
    /// row's equal in every key (rows that tie share a rank); without a sort, the row's place
    /// from 1.
    case rank
    /// A number column's value (by index) as a percentage of that column's sum over every row
    /// the view shows; empty when the value is or the sum is 0.
    case percentOfTotal(Int)

    /// The functions, by name in lower case, and how each is called.
    static let usages: [String: String] = [
        "runningsum": "runningSum(column)", "runningcount": "runningCount()", "rank": "rank()",
        "percentoftotal": "percentOfTotal(column)",
    ]

    /// The number column it sums, if any.
    var summed: Int? {
        switch self {
        case .runningSum(let column), .percentOfTotal(let column): column
        case .runningCount, .rank: nil
        }
    }

    /// The view-order function `tree` is, when it is one; `nil` when it is an expression of
    /// another kind. A view-order function takes a number column named alone (not one that is
    /// itself worked out from the view's order), or nothing.
    static func recognize(
        _ tree: SyntaxNode,
        in scope: ExpressionScope,
        viewOrder: (Int) -> Bool
    ) throws(ExpressionError) -> ViewOrderFunction? {
        guard case .call(let name, let arguments) = tree.kind, let usage = usages[name.lowercased()] else {
            return nil
        }
        let lowered = name.lowercased()
        if lowered == "runningcount" || lowered == "rank" {
            guard arguments.isEmpty else {
                throw ExpressionError("\(usage) takes no arguments; it was given \(arguments.count).", at: tree.offset)
            }
            return lowered == "rank" ? .rank : .runningCount
        }
        guard arguments.count == 1, case .column(let columnName) = arguments[0].kind else {
            throw ExpressionError("\(usage) takes one column, named alone.", at: arguments.first?.offset ?? tree.offset)
        }
        let column: Int
        switch scope.resolve(columnName) {
        case .success(let found): column = found
        case .failure(let error): throw ExpressionError(error.message, at: arguments[0].offset)
        }
        guard !viewOrder(column) else {
            throw ExpressionError(
                "\(scope.columns[column].key) follows the view's order itself; \(usage) sums a column of the rows.",
                at: arguments[0].offset
            )
        }
        guard scope.types[column] == .number else {
            let type = scope.types[column].map { ExpressionCompiler.article($0) } ?? "no type yet"
            throw ExpressionError(
                "\(usage) sums a number column; \(scope.columns[column].key) holds \(type).",
                at: arguments[0].offset
            )
        }
        return lowered == "runningsum" ? .runningSum(column) : .percentOfTotal(column)
    }

    /// The refusal of a view-order function inside a larger expression, at `offset`.
    static func notWhole(_ name: String, at offset: Int) -> ExpressionError? {
        guard let usage = usages[name.lowercased()] else { return nil }
        return ExpressionError(
            "\(usage) works over the rows a view shows, in its order: it must be the whole expression.",
            at: offset
        )
    }
}
