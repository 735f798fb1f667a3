import DataTableVocabulary

/// One column of a table: its key, header, type and constraints, whether its cells may be edited,
/// and the layout hints the layout work reads.
public struct Column: Sendable {
    /// The name rows use for this column's cells; unique in the table, never starting with `$`.
    public internal(set) var key: String
    /// Header text; may carry a unit ("Price ($)").
    public var label: String
    /// Type and constraints.
    public internal(set) var rules: ColumnRules
    /// Whether cells may be edited; `nil` follows the table. Cells and rows can override it.
    public var editable: Bool?
    /// The column's own layout hints; a layout's hints for the column replace them for that layout.
    public var layout: ColumnLayout
    /// What the column's values are computed from, when they are not stored by clients: the
    /// column is then read-only, and its type is the expression's (``Table`` works it out).
    public internal(set) var expression: ColumnExpression?

    /// The column's type (``ColumnRules/type``).
    public var type: ColumnType { rules.type }

    /// Whether the column's values come from an expression.
    public var isComputed: Bool { expression != nil }

    /// A computed column: its type, display decimals and style are those `expression` says,
    /// checked when a table takes the column (until then the type is a placeholder).
    public init(key: String, label: String? = nil, expression: ColumnExpression, layout: ColumnLayout = .init()) {
        self.key = key
        self.label = label ?? key
        // Rules without constraints: a computed value is never typed in.
        self.rules = (try? ColumnRules(type: expression.declaredType ?? .text)) ?? Self.placeholderRules
        self.editable = false
        self.layout = layout
        self.expression = expression
    }

    private static let placeholderRules = try! ColumnRules(type: .text)

    /// A column; `label` defaults to `key`, and `editable` to `false` for an image column (`nil` for the rest).
    public init(
        key: String,
        label: String? = nil,
        rules: ColumnRules,
        editable: Bool? = nil,
        layout: ColumnLayout = .init()
    ) {
        self.key = key
        self.label = label ?? key
        self.rules = rules
        // An image is a reference, never typed into a cell.
        self.editable = editable ?? (rules.type == .image ? false : nil)
        self.layout = layout
    }
}

/// A computed column's expression as written, and how its values are shown.
public struct ColumnExpression: Sendable, Hashable {
    /// The expression's text (see ``ExpressionCompiler`` and protocol.md for the language).
    public var source: String
    /// The type the definition asks for: the expression must give it. Once a table has
    /// checked the expression, the type it gives.
    public var declaredType: ColumnType?
    /// Number results: the digits after the decimal point they show with.
    public var decimals: Int?
    /// Number and date results: how they are shown beyond their plain form.
    public var style: DisplayStyle?

    /// An expression as written, with what its definition says of its type and display.
    public init(source: String, declaredType: ColumnType? = nil, decimals: Int? = nil, style: DisplayStyle? = nil) {
        self.source = source
        self.declaredType = declaredType
        self.decimals = decimals
        self.style = style
    }
}

/// How a column wants to be laid out: the hints stored with a column, and those a `layout`
/// gives for one layout in their place. (One type with the wire's.)
public typealias ColumnLayout = ColumnHints

extension ColumnHints {
    /// Lines a cell may wrap to.
    public var lineCount: Int { lines ?? 1 }

    /// Whether the column stays in view while scrolling sideways.
    public var isSticky: Bool { sticky ?? false }

    /// These hints with every hint `other` says in place of this one's.
    public func merging(_ other: ColumnLayout) -> ColumnLayout {
        ColumnLayout(
            width: other.width ?? width,
            minWidth: other.minWidth ?? minWidth,
            maxWidth: other.maxWidth ?? maxWidth,
            align: other.align ?? align,
            lines: other.lines ?? lines,
            sticky: other.sticky ?? sticky,
            binding: other.binding ?? binding,
            hidden: other.hidden ?? hidden
        )
    }

    /// Horizontal alignment of a column's cells.
    public typealias Alignment = ColumnAlignment
}
