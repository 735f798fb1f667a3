@_exported import DataTableVocabulary

// The fixed sets of names params take, each a ``WireChoice``: the cases are the names in the
// order an error lists them, and each says how a name outside the set is refused.

extension LengthUnit: WireChoice {
    /// An unknown unit is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

extension SizeClass: WireChoice {
    /// An unknown size class is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

extension RowAccessory: WireChoice {
    /// An unknown accessory is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

extension ColumnAlignment: WireChoice {}

extension ColumnBinding: WireChoice {}

extension ColumnValueType: WireChoice {}

extension FollowEdge: WireChoice {
    /// An unknown edge is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

extension TargetAlignment: WireChoice {
    /// An unknown alignment is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

extension SectionStyle: WireChoice {}

extension RowSelectionMode: WireChoice {
    /// "`field` must be none, single or multiple."
    public static func unknownNameMessage(_ name: String, field: String) -> String {
        "\(field) must be none, single or multiple."
    }
}

/// What a `select` does (`action`).
public enum SelectionAction: String, WireChoice {
    /// Exactly these rows.
    case set
    /// These rows too.
    case add
    /// Not these rows.
    case remove
    /// Selected ones off, others on.
    case toggle
    /// Every row.
    case all
    /// No row.
    case none

    /// Whether it names rows (`ids`, or `from` and `count`): all but `all` and `none`.
    public var namesRows: Bool { self != .all && self != .none }

    /// "action must be set, add, remove, toggle, all or none."
    public static func unknownNameMessage(_ name: String, field: String) -> String {
        "action must be set, add, remove, toggle, all or none."
    }
}

extension DataFileFormat: WireChoice {
    /// The format named, in any case.
    public init?(wireName name: String) { self.init(rawValue: name.lowercased()) }

    /// "format must be csv or ndjson."
    public static func unknownNameMessage(_ name: String, field: String) -> String {
        "format must be csv or ndjson."
    }
}

/// How a filter condition tests a cell (`op`): a symbol or a name, or an ASCII spelling of a
/// symbol (`==`, `!=`, `<>`, `<=`, `>=`). A condition keeps the spelling it was given: the
/// view's conditions come back as set.
public enum FilterOp: String, WireChoice {
    /// Equal.
    case equal = "="
    /// Not equal.
    case notEqual = "≠"
    /// Less.
    case less = "<"
    /// Less or equal.
    case lessOrEqual = "≤"
    /// Greater.
    case greater = ">"
    /// Greater or equal.
    case greaterOrEqual = "≥"
    /// From the first value to the second, both included.
    case between
    /// Equal to one of the values.
    case oneOf = "in"
    /// The display text contains the value, ignoring case.
    case contains
    /// The display text starts with the value, ignoring case.
    case startsWith
    /// The display text matches a regular expression (RE2 syntax, found anywhere in the text).
    case matches
    /// The cell has no value.
    case empty
    /// The cell has a value.
    case notEmpty
    /// `=` spelt in ASCII.
    case equalASCII = "=="
    /// `≠` spelt in ASCII.
    case notEqualASCII = "!="
    /// `≠` spelt as SQL spells it.
    case notEqualSQL = "<>"
    /// `≤` spelt in ASCII.
    case lessOrEqualASCII = "<="
    /// `≥` spelt in ASCII.
    case greaterOrEqualASCII = ">="

    /// The operator this one is a spelling of: itself, for the symbols and names.
    public var canonical: FilterOp {
        switch self {
        case .equalASCII: .equal
        case .notEqualASCII, .notEqualSQL: .notEqual
        case .lessOrEqualASCII: .lessOrEqual
        case .greaterOrEqualASCII: .greaterOrEqual
        default: self
        }
    }

    /// The operators, each in its own spelling (the symbols and names, without the ASCII
    /// spellings), in the order an error lists them.
    public static var operators: [FilterOp] { allCases.filter { $0.canonical == $0 } }

    /// "\"`name`\" is not a filter operator (=, ≠, <, …)."
    public static func unknownNameMessage(_ name: String, field: String) -> String {
        "\"\(name)\" is not a filter operator (\(operators.map(\.rawValue).joined(separator: ", ")))."
    }
}

extension AggregateFunction: WireChoice {
    /// An unknown function is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

extension TotalsPlacement: WireChoice {
    /// An unknown place is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

extension GrandTotalPlacement: WireChoice {
    /// An unknown place is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}
