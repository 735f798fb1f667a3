/// What a renderer draws for a table in a container: the mode, each column's place, the
/// accessories, heights, the content's size, and in list mode the object-view bindings.
/// Lengths are whole points or cells (``LayoutOptions/Unit``); y = 0 is the top of the header,
/// and rows start below it.
public struct LayoutPlan: Sendable, Hashable {
    /// A grid of columns, or (compact width without sideways scrolling) a list of object views.
    public enum Mode: String, Sendable, Hashable {
        /// `table`: columns side by side under a header; `list`: each row drawn as an object view.
        case table, list
    }

    /// One column's place.
    public struct PlacedColumn: Sendable, Hashable {
        /// The column's key.
        public var key: String
        /// Left edge; `nil` when omitted. In list mode, where the bound field starts across the
        /// row (``ObjectViewGeometry``).
        public var x: Int?
        /// Width including the cell padding on both sides; 0 when omitted. In list mode, the
        /// bound field's own width (no padding).
        public var width: Int
        /// The column's `align` hint, else by type: numbers and durations trailing, images centred, the rest leading.
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
        /// The place in the object view.
        public var binding: ListBinding
        /// The key of the column bound there.
        public var column: String
    }

    /// An accessory beside every row.
    public struct PlacedAccessory: Sendable, Hashable {
        /// What the accessory shows (never `.none`).
        public var kind: Accessory
        /// Left edge in the container: 0 on the left, the container's width less the accessory's on the right.
        public var x: Int
        /// ``LayoutOptions/accessoryWidth``.
        public var width: Int
    }

    /// A first column that stays in view while scrolling sideways.
    public struct StickyColumn: Sendable, Hashable {
        /// The column's key.
        public var key: String
        /// Its placed width, before any sideways scroll.
        public var width: Int
        /// The width it shrinks to (the sticky panel: 25% of the container).
        public var minWidth: Int

        /// Its width once the content has scrolled `offset` to the left.
        public func width(atOffset offset: Int) -> Int {
            ColumnSolver.stickyWidth(width: width, least: minWidth, offset: offset)
        }
    }

    /// Grid or list report (compact width without sideways scrolling).
    public var mode: Mode
    /// Points or cells, as in the options.
    public var unit: LayoutOptions.Unit
    /// The size class the plan was made for.
    public var sizeClass: LayoutOptions.SizeClass
    /// Whether the content scrolls sideways; always `false` in list mode.
    public var horizontalScroll: Bool
    /// The container's width.
    public var width: Int
    /// Every column in table order, except those bound to `syncStatus` or `drillDown` (they drive
    /// the accessories).
    public var columns: [PlacedColumn]
    /// The accessory on the left (checkboxes or sync status); `nil` when none, and always in list mode.
    public var leftAccessory: PlacedAccessory?
    /// The chevron on the right; `nil` when none, and always in list mode.
    public var rightAccessory: PlacedAccessory?
    /// The sticky first column; `nil` unless the content scrolls sideways with one.
    public var sticky: StickyColumn?
    /// Header height: its tallest label's lines × the header line height + padding above and
    /// below; 0 in list mode.
    public var headerHeight: Int
    /// Lines of the tallest header label: 1 or 2; 0 in list mode.
    public var headerLines: Int
    /// Height of a row whose cells take one line (content centred vertically).
    public var rowHeight: Int
    /// Height of a row with a cell on two lines (content top-aligned).
    public var twoLineRowHeight: Int
    /// How many rows have a cell on two lines.
    public var twoLineRows: Int
    /// Rows in the table when the plan was made.
    public var rowCount: Int
    /// Height of one line of data text: the data font's line height rounded up, or 1 in cells.
    public var lineHeight: Int
    /// Height of one line of a header label: the header font's line height rounded up, or 1 in cells.
    public var headerLineHeight: Int
    /// Width of everything drawn side by side (accessories and columns).
    public var contentWidth: Int
    /// Header height plus every row's height.
    public var contentHeight: Int
    /// List mode: which column goes where, in object-view order.
    public var bindings: [ListPlacement]
    /// Which rows are tall: what the offset index of this plan's row heights is built from.
    public var heightRule: RowHeightRule
    /// The key of the column bound to `syncStatus`, whose value each row's left accessory shows
    /// when the accessory is `syncStatus`; `nil` when no column is bound so.
    public var syncStatusColumn: String? = nil
    /// The key of the column bound to `drillDown`, which says whether each row has the chevron;
    /// `nil` when no column is bound so.
    public var drillDownColumn: String? = nil

    /// The column with `key`.
    public func column(_ key: String) -> PlacedColumn? { columns.first { $0.key == key } }
}
