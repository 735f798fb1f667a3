/// One term of a ``RowFilter``: a condition, or a group of terms that any or all of must hold,
/// or a term that must not. Groups nest up to ``RowFilter/maximumDepth`` deep.
public indirect enum FilterTerm: Sendable, Equatable {
    /// A row meets it when its cell meets the condition.
    case condition(FilterCondition)
    /// A row meets it when it meets at least one of the terms.
    case any([FilterTerm])
    /// A row meets it when it meets every one of the terms.
    case all([FilterTerm])
    /// A row meets it when it does not meet the term.
    case not(FilterTerm)

    /// A term as a client gives it: conditions by column key, values as typed.
    public indirect enum Input: Sendable, Equatable {
        case condition(FilterCondition.Input)
        case any([Input])
        case all([Input])
        case not(Input)
    }

    /// Whether a row's meeting the term may depend on its cell in `column`.
    func reads(_ column: Int) -> Bool {
        switch self {
        case .condition(let condition): condition.column == column
        case .any(let terms), .all(let terms): terms.contains { $0.reads(column) }
        case .not(let term): term.reads(column)
        }
    }

    /// The term with its columns renumbered by `map`; `nil` when it reads a column `map` drops.
    func renumbered(_ map: (Int) -> Int?) -> FilterTerm? {
        switch self {
        case .condition(var condition):
            guard let column = map(condition.column) else { return nil }
            condition.column = column
            return .condition(condition)
        case .any(let terms): return Self.renumbered(terms, map).map { .any($0) }
        case .all(let terms): return Self.renumbered(terms, map).map { .all($0) }
        case .not(let term):
            return term.renumbered(map).map { .not($0) }
        }
    }

    /// Each of `terms` renumbered by `map`; `nil` when one of them reads a column it drops.
    private static func renumbered(_ terms: [FilterTerm], _ map: (Int) -> Int?) -> [FilterTerm]? {
        var moved: [FilterTerm] = []
        for term in terms {
            guard let term = term.renumbered(map) else { return nil }
            moved.append(term)
        }
        return moved
    }
}
