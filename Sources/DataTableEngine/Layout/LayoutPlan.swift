/// What a renderer draws for a table in a container: the mode, each column's place, the
/// accessories, heights, the content's size, and in list mode the object-view bindings.
/// Lengths are whole points or cells (``LayoutOptions/Unit``); y = 0 is the top of the header,
/// and rows start below it.
public struct LayoutPlan: Sendable, Hashable {
    /// A grid of columns, or (compact width without sideways scrolling) a list of object views.
    public enum Mode: String, Sendable, Hashable {
        case table, list
    }

    /// One column's place.
    public struct PlacedColumn: Sendable, Hashable {
        public var key: String
        /// Left edge; `nil` when omitted or in list mode.
        public var x: Int?
        public var width: Int
        public var align: ColumnLayout.Alignment
        /// Lines a cell may take (1, or 2 when the column wraps).
        public var lines: Int
        /// Some content is wider than the column and is cut with "…".
        public var truncated: Bool
        /// Not shown: it did not fit (table mode) or is not bound (list mode).
        public var omitted: Bool
        /// The header label as drawn: one or two lines, the last cut with "…" when needed.
        public var header: [String]
        /// Where the column goes in list mode.
        public var binding: ListBinding?
    }

    /// A column bound to a place of the object view.
    public struct ListPlacement: Sendable, Hashable {
        public var binding: ListBinding
        public var column: String
    }

    /// An accessory beside every row.
    public struct PlacedAccessory: Sendable, Hashable {
        public var kind: Accessory
        public var x: Int
        public var width: Int
    }

    /// A first column that stays in view while scrolling sideways.
    public struct StickyColumn: Sendable, Hashable {
        public var key: String
        public var width: Int
        /// The width it shrinks to (the sticky panel: 25% of the container).
        public var minWidth: Int

        /// Its width once the content has scrolled `offset` to the left.
        public func width(atOffset offset: Int) -> Int {
            ColumnSolver.stickyWidth(width: width, least: minWidth, offset: offset)
        }
    }

    public var mode: Mode
    public var unit: LayoutOptions.Unit
    public var sizeClass: LayoutOptions.SizeClass
    public var horizontalScroll: Bool
    /// The container's width.
    public var width: Int
    public var columns: [PlacedColumn]
    public var leftAccessory: PlacedAccessory?
    public var rightAccessory: PlacedAccessory?
    public var sticky: StickyColumn?
    /// Header height: its tallest label's lines × the header line height + padding above and
    /// below; 0 in list mode.
    public var headerHeight: Int
    public var headerLines: Int
    /// Height of a row whose cells take one line (content centred vertically).
    public var rowHeight: Int
    /// Height of a row with a cell on two lines (content top-aligned).
    public var twoLineRowHeight: Int
    /// How many rows have a cell on two lines.
    public var twoLineRows: Int
    public var rowCount: Int
    public var lineHeight: Int
    public var headerLineHeight: Int
    /// Width of everything drawn side by side (accessories and columns).
    public var contentWidth: Int
    /// Header height plus every row's height.
    public var contentHeight: Int
    /// List mode: which column goes where, in object-view order.
    public var bindings: [ListPlacement]
    /// Which rows are tall: what the offset index of this plan's row heights is built from.
    public var heightRule: RowHeightRule

    /// The column with `key`.
    public func column(_ key: String) -> PlacedColumn? { columns.first { $0.key == key } }
}
