/// One condition of a ``RowFilter``: a column, an operator and the values it compares with.
public struct FilterCondition: Sendable, Equatable {
    /// A condition as a client gives it: a column key, an operator and its values as typed.
    public struct Input: Sendable, Equatable {
        /// The column's key.
        public var column: String
        /// What the cells are tested for.
        public var `operator`: FilterOperator
        /// The values, as typed (none for `empty` / `notEmpty`, two for `between`, one or more
        /// for `in`, else one).
        public var values: [CellInput]

        /// A condition on the column `column`.
        public init(column: String, operator: FilterOperator, values: [CellInput]) {
            self.column = column
            self.operator = `operator`
            self.values = values
        }
    }

    /// The column's index in the table.
    public var column: Int
    /// What the cells are tested for.
    public var `operator`: FilterOperator
    /// The values compared with: of the column's type, folded text for `contains` and
    /// `startsWith`, the pattern as given for `matches`.
    public var operands: [CellValue]
    /// For `matches`, the compiled pattern.
    var pattern: TextPattern?
}

/// How a condition tests a cell. The comparisons order values as a sort does (numbers as
/// numbers, dates as days); an empty cell meets only `≠`, `empty` and `notEmpty`.
public enum FilterOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "="
    case notEqual = "≠"
    case less = "<"
    case lessOrEqual = "≤"
    case greater = ">"
    case greaterOrEqual = "≥"
    /// From the first value to the second, both included.
    case between
    /// Equal to one of the values (a picker's options, say).
    case oneOf = "in"
    /// The display text contains the value, ignoring case.
    case contains
    /// The display text starts with the value, ignoring case.
    case startsWith
    /// The display text matches a regular expression (``TextPattern``: RE2's syntax, found
    /// anywhere in the text, time linear in the text).
    case matches
    /// The cell has no value.
    case empty
    /// The cell has a value.
    case notEmpty

    /// The operator spelt `text`: its symbol or name, or the ASCII forms `==`, `!=`, `<=`, `>=`.
    public init?(spelt text: String) {
        switch text {
        case "==": self = .equal
        case "!=", "<>": self = .notEqual
        case "<=": self = .lessOrEqual
        case ">=": self = .greaterOrEqual
        default:
            guard let known = Self(rawValue: text) else { return nil }
            self = known
        }
    }

    /// How many values it takes; `nil` for one or more (`in`).
    public var operandCount: Int? {
        switch self {
        case .empty, .notEmpty: 0
        case .between: 2
        case .oneOf: nil
        default: 1
        }
    }

    /// Whether it tests display text, folded to lower case, rather than typed values.
    public var comparesText: Bool { self == .contains || self == .startsWith }
}
