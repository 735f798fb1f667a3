// The fixed sets of names params take, each a ``WireChoice``: the cases are the names in the
// order an error lists them, and each says how a name outside the set is refused.

/// What a layout's lengths are in (`unit`).
public enum LengthUnit: String, WireChoice {
    /// Points, with text measured in a font.
    case pt
    /// Terminal columns and lines.
    case cell

    /// An unknown unit is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

/// The width class a layout is for (`sizeClass`).
public enum SizeClass: String, WireChoice {
    /// Phone width: a list report unless the container scrolls sideways.
    case compact
    /// The grid.
    case regular

    /// An unknown size class is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

/// What sits beside every row, outside the columns (`leftAccessory`, `rightAccessory`, and an
/// accessory's `kind` in a reply).
public enum RowAccessory: String, WireChoice {
    /// No accessory.
    case none
    /// Selection checkboxes (left).
    case checkbox
    /// The row's sync status (left).
    case syncStatus
    /// A drill-down chevron (right).
    case chevron

    /// An unknown accessory is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

/// How a column's cells line up (`align`).
public enum ColumnAlignment: String, WireChoice {
    /// Against the leading edge.
    case leading
    /// Centred.
    case center
    /// Against the trailing edge.
    case trailing
}

/// Where a column goes in the compact list report's object view, or the accessory it drives
/// (`binding`).
public enum ColumnBinding: String, WireChoice {
    /// The first text line.
    case headline
    /// The second text line.
    case subheadline
    /// The third text line.
    case footnote
    /// The status text (shares its place with `statusImage`).
    case status
    /// The substatus text (shares its place with `substatusImage`).
    case substatus
    /// The status image (image columns only).
    case statusImage
    /// The substatus image (image columns only).
    case substatusImage
    /// The detail image (image columns only).
    case detailImage
    /// The icon (image columns only; never bound by default).
    case icon
    /// Not a place: the column's value is the row's sync-status icon in the left accessory.
    case syncStatus
    /// Not a place: the column says whether the row has a drill-down chevron.
    case drillDown
}

/// What kind of values a column holds (a column's `type`).
public enum ColumnValueType: String, WireChoice {
    /// Free text.
    case text
    /// A decimal number.
    case number
    /// A calendar day, `YYYY-MM-DD`.
    case date
    /// A time of day, `HH:MM` or `HH:MM:SS`.
    case time
    /// A length of time in whole seconds.
    case duration
    /// One of the column's `options`.
    case picker
    /// A reference to an image (a name or URL).
    case image
    /// True or false.
    case boolean
    /// An instant, ISO 8601 with an offset.
    case datetime
}

/// Whether a view sticks to an edge as rows arrive (`scroll`'s `follow`).
public enum FollowEdge: String, WireChoice {
    /// Keep the anchored row in place.
    case none
    /// While at the top, stay at the top.
    case top
    /// While at the bottom, stay at the bottom.
    case bottom

    /// An unknown edge is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

/// Where `scroll`'s `to` puts the row it brings into view (`to.align`).
public enum TargetAlignment: String, WireChoice {
    /// Its top just below the header.
    case top
    /// Its middle in the middle of the space below the header.
    case center
    /// Its bottom at the viewport's bottom.
    case bottom
    /// As little scrolling as brings it fully into view.
    case nearest

    /// An unknown alignment is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}

/// How a view's sections look (Apple HIG's table styles; `sections.style`).
public enum SectionStyle: String, WireChoice {
    /// Headers stick to the top while their section scrolls.
    case plain
    /// Sections set apart by space.
    case grouped
    /// Grouped, with the rows inset from both edges.
    case insetGrouped
}

/// How many rows may be selected at once (`create`'s `selection`, `select`'s `mode`).
public enum RowSelectionMode: String, WireChoice {
    /// No row can be selected.
    case none
    /// At most one row.
    case single
    /// Any number of rows.
    case multiple

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

/// The formats `load` reads and `export` writes (`format`); a name is read in any case.
public enum DataFileFormat: String, WireChoice {
    /// Comma-separated values.
    case csv
    /// Newline-delimited JSON.
    case ndjson

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
