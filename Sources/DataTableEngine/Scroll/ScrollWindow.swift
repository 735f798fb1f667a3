import DataTableVocabulary

/// What a renderer draws for one viewport: the visible columns at their screen x, the visible
/// rows at their screen y with each cell's text cut to fit, the sticky parts, and the sizes.
///
/// Screen coordinates: (0, 0) is the viewport's top-left corner; the header is drawn at the top
/// of the viewport (y 0 to ``headerHeight``) over the rows that scrolled under it. Content
/// coordinates (``y``, ``x``, ``contentHeight``) start at the top of the header.
public struct ScrollWindow: Sendable {
    /// A column on screen.
    public struct Column: Sendable, Hashable {
        /// The column's key.
        public var key: String
        /// Left edge on screen (list mode: the text's left edge).
        public var x: Int
        /// Width on screen; a sticky first column's shrinks as the content scrolls sideways.
        public var width: Int
        /// How the cells' content aligns, as in the plan.
        public var align: ColumnLayout.Alignment
        /// Lines a cell may take: 2 for a column that wraps, else 1 (always 1 in list mode).
        public var lines: Int
        /// The header label as drawn.
        public var header: [String]
        /// Stays in place while the content scrolls sideways.
        public var sticky: Bool
        /// Some content may be wider than the column as drawn, and is cut with "…".
        public var truncated: Bool
        /// List mode: where the column goes in the object view.
        public var binding: ListBinding?
    }

    /// A row on screen.
    public struct Row: Sendable {
        /// The row's id.
        public var id: RowID
        /// Its position in the current order.
        public var index: Int
        /// Top on screen.
        public var y: Int
        /// Its height: the plan's row height, or its two-line row height when ``tall``.
        public var height: Int
        /// Whether a cell takes two lines (content top-aligned).
        public var tall: Bool
        /// Where the row's cells are in ``ScrollWindow/text``, one per column of
        /// ``ScrollWindow/columns``: display text cut with "…" to fit; a two-line cell's lines
        /// are joined by "\n". A cell with a draft shows the draft.
        public var cellRange: Range<Int>
        /// Whether the row is selected.
        public var selected: Bool
        /// 1 when just added, fading to 0 over two seconds.
        public var highlight: Double
        /// Rejected drafts: position in ``ScrollWindow/columns`` → draft.
        public var drafts: [(column: Int, draft: Draft)]
        /// Positions in ``ScrollWindow/columns`` of cells that are read-only.
        public var readOnly: [Int]
        /// What the row's `syncStatus` accessory shows: the display text of the column bound to
        /// `syncStatus`; `nil` when the left accessory is not `syncStatus` (or the cell is empty).
        public var syncStatus: String? = nil
        /// Whether the row has the drill-down chevron (``Table/drillsDown(_:column:)``); `nil`
        /// when the right accessory is not the chevron.
        public var drillDown: Bool? = nil
        /// The row's version (``Table/rowVersion(of:)``).
        public var version: UInt64 = 0
        /// The cells' values, one per column of ``ScrollWindow/columns``, when the scroll asked
        /// for them (``ScrollInput/values``).
        public var values: [CellValue]? = nil
    }

    /// The layout plan the window was drawn with.
    public var plan: LayoutPlan
    /// The content offsets used (after clamping), and the viewport's size.
    public var x: Int
    /// The vertical offset used: 0 to ``contentHeight`` − ``height`` (0 when the content is shorter).
    public var y: Int
    /// The viewport's width: the plan's container width.
    public var width: Int
    /// The viewport's height, header included.
    public var height: Int
    /// Width of everything drawn side by side (``LayoutPlan/contentWidth``).
    public var contentWidth: Int
    /// Header height plus every row's height.
    public var contentHeight: Int
    /// Height of the sticky header (0 in list mode).
    public var headerHeight: Int
    /// Rows have scrolled under the header (y > 0): draw its shadow.
    public var shadow: Bool
    /// The columns on screen, left to right: a sticky first column, then those reaching into view.
    /// List mode: the bound columns, in object-view order.
    public var columns: [Column]
    /// Rows from ``firstVisible`` − overscan to ``lastVisible`` + overscan, top to bottom.
    public var rows: [Row]
    /// The text of every row's cells (see ``Row/cellRange``).
    public var text: WindowText
    /// The first and last row visible below the header (without overscan); `nil` when none.
    public var firstVisible: Int?
    /// The last row visible below the header, by position in the current order; `nil` when none.
    public var lastVisible: Int?
    /// Rows added since the view last looked that are above its first visible row.
    public var newAbove: Int
    /// How many rows the table holds.
    public var rowCount: Int
    /// With a filter, how many rows it lets through (the rows positions count); `nil` without.
    public var shownCount: Int?
    /// With a filter, how many rows were added since the view last looked that it leaves out.
    public var hiddenNew: Int?
    /// With a filter, its conditions in words (``RowFilter/description(in:)``).
    public var filterDescription: String?
    /// With sections: those the window shows, and the index.
    public var sections: Sections?

    /// A view's sections as a window shows them.
    public struct Sections: Sendable, Hashable {
        /// The column whose values name the sections (the outermost groups).
        public var column: String
        /// The columns groups nest by, outermost first.
        public var columns: [String]
        public var style: SectionSpec.Style
        /// How many sections (outermost groups) the view has.
        public var count: Int
        /// How far rows and columns are inset from both edges (inset grouped).
        public var inset: Int
        /// The sections the window's rows are in, top to bottom.
        public var shown: [Section]
        /// Every section's title and the content offset that brings its header to the top
        /// (plain style with an index).
        public var index: [IndexEntry]?
        /// Where each section's aggregates are shown: its header or its footer.
        public var totals: TotalsPlacement = .header
        /// The row of the aggregates of every shown row, when asked for.
        public var grandTotal: GrandTotal? = nil
    }

    /// The grand total row on screen.
    public struct GrandTotal: Sendable, Hashable {
        public var placement: GrandTotalPlacement
        /// Its top on screen, and height.
        public var y: Int
        public var height: Int
        /// The aggregates of every row the view shows, in the order the view asked for them.
        public var aggregates: [AggregateResult]
    }

    /// One section on screen.
    public struct Section: Sendable, Hashable {
        /// Its value as the column shows it ("" for the empty value's section).
        public var title: String
        /// Its rows.
        public var count: Int
        /// Its header's top on screen, and height.
        public var y: Int
        public var height: Int
        /// Its footer's top on screen, when footers are shown.
        public var footerY: Int?
        /// The header sticks below the table's header (plain style).
        public var sticky: Bool
        /// The section's aggregates, in the order the view asked for them.
        public var aggregates: [AggregateResult] = []
        /// Its level: 0 for the outermost groups, one more for each nested one.
        public var level: Int = 0
        /// The titles of the groups holding it, from the outermost down to its own.
        public var path: [String] = []
        /// Its rows and nested groups are hidden: only the header shows.
        public var collapsed: Bool = false
        /// Where what follows the group starts on screen (what pushes a sticky header up).
        var end: Int = 0
    }

    /// One title of a section index.
    public struct IndexEntry: Sendable, Hashable {
        public var title: String
        public var y: Int
    }

    /// The display text of `row`'s cells, one per column.
    public func cells(of row: Row) -> [String] {
        row.cellRange.map { text[$0] }
    }
}
