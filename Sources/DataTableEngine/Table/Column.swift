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

    /// The column's type (``ColumnRules/type``).
    public var type: ColumnType { rules.type }

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

/// How a column wants to be laid out: the hints stored with a column, and those a `layout`
/// gives for one layout in their place. `nil` means "not said": the table's own hint, or the
/// default, applies (see ``merging(_:)``).
public struct ColumnLayout: Sendable, Hashable {
    /// Points (or cells) when 1 or more, a fraction of the container when in 0 ..< 1, -1 for
    /// the one flexible column; `nil` sizes to content.
    public var width: Double?
    /// Like `width` (no -1): the least a truncated column gets, 25% of the container by default.
    public var minWidth: Double?
    /// The most a column gets when there are several, 50% of the container by default.
    public var maxWidth: Double?
    /// `leading`, `center` or `trailing`; `nil` follows the type (numbers trail).
    public var align: Alignment?
    /// Lines a cell may wrap to: 1 or 2; `nil` is 1 (see ``lineCount``).
    public var lines: Int?
    /// Stays in view while scrolling sideways; the first column only. `nil` is `false`.
    public var sticky: Bool?
    /// Where the column goes in the compact list report (or `syncStatus`: the left accessory);
    /// `nil` follows the default bindings.
    public var binding: ListBinding?
    /// Not shown (a view's column state, or the column's default).
    public var hidden: Bool?

    /// Hints as given; each one left `nil` is not said.
    public init(
        width: Double? = nil,
        minWidth: Double? = nil,
        maxWidth: Double? = nil,
        align: Alignment? = nil,
        lines: Int? = nil,
        sticky: Bool? = nil,
        binding: ListBinding? = nil,
        hidden: Bool? = nil
    ) {
        self.hidden = hidden
        self.width = width
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.align = align
        self.lines = lines
        self.sticky = sticky
        self.binding = binding
    }

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

    /// Horizontal alignment of a column's cells. (The vocabulary the engine shares with the wire.)
    public typealias Alignment = ColumnAlignment
}
