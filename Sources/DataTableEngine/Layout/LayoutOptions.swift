import DataTableVocabulary
import TextMeasure

/// What a layout is for: the container, the size class, whether it scrolls sideways, how text
/// is measured, paddings, and per-column overrides of the table's layout hints. Every length is
/// in whole layout units: points, or terminal cells.
public struct LayoutOptions: Sendable, Equatable {
    /// Compact (phone-width) or regular. (The vocabulary the engine shares with the wire.)
    public typealias SizeClass = DataTableVocabulary.SizeClass

    /// What a layout is measured in. (The vocabulary the engine shares with the wire.)
    public typealias Unit = LengthUnit

    /// Points or terminal cells; also picks the default paddings (see ``init(unit:width:data:header:)``).
    public var unit: Unit
    /// The container's width.
    public var width: Int
    /// Regular by default; compact without ``horizontalScroll`` lays the table out as a list report.
    public var sizeClass: SizeClass
    /// Whether the container scrolls sideways; without it, columns that do not fit are omitted.
    public var horizontalScroll: Bool
    /// How data cells and header labels are measured.
    public var data: TextStyle
    /// How header labels are measured (the header font at its size, or cells).
    public var header: TextStyle
    /// Space between neighbouring columns (FUIGridTableViewCell `spacing`).
    public var spacing: Int
    /// Padding inside a cell on the left and on the right (part of the column's width).
    public var cellPadding: Int
    /// Padding above and below a header label.
    public var headerPadding: Int
    /// Padding above and below a data row's content.
    public var rowPadding: Int
    /// The least height of a data row.
    public var minRowHeight: Int
    /// The width of an image column that sets none.
    public var imageWidth: Int
    /// The width of a left or right accessory.
    public var accessoryWidth: Int
    /// What the left and right accessories show; `nil` follows the table (see ``Accessory``).
    public var leftAccessory: Accessory?
    /// `nil` or `.none`: no right accessory; `.chevron`: the chevron. Anything else is refused (`invalidLayout`).
    public var rightAccessory: Accessory?
    /// Whether the first column stays in view while scrolling sideways; `nil` follows the
    /// column's own `sticky`.
    public var stickyFirstColumn: Bool?
    /// A column narrower than its content gets at least this share of the container, and no
    /// column (of several) gets more than the maximum share, unless the column says otherwise.
    public var minShare = ColumnSolver.Settings.defaultMinShare
    /// The most share of the container one of several columns takes without sideways scrolling.
    public var maxShare = ColumnSolver.Settings.defaultMaxShare
    /// Layout hints that replace the table's, by column key.
    public var columns: [String: ColumnLayout] = [:]
    /// The keys shown first, in this order; the other columns follow in the table's order.
    public var columnOrder: [String] = []
    /// The zone datetimes are shown in, in place of each column's own; `nil` keeps theirs.
    public var zone: DisplayZone?

    /// The defaults for `unit`: in points, 12 padding either side of a cell, 8 above and below
    /// a header, 16 above and below a row, rows at least 44 high, 44-wide accessories, 56-wide
    /// image columns, no extra spacing; in cells, no padding, 1 cell between columns, 3-cell
    /// accessories, 2-cell image columns.
    public init(unit: Unit, width: Int, data: TextStyle, header: TextStyle) {
        self.unit = unit
        self.width = width
        self.data = data
        self.header = header
        sizeClass = .regular
        horizontalScroll = false
        switch unit {
        case .pt:
            spacing = 0
            cellPadding = 12
            headerPadding = 8
            rowPadding = 16
            minRowHeight = 44
            imageWidth = 56
            accessoryWidth = 44
        case .cell:
            spacing = 1
            cellPadding = 0
            headerPadding = 0
            rowPadding = 0
            minRowHeight = 1
            imageWidth = 2
            accessoryWidth = 3
        }
    }
}

/// What sits beside a row, outside the columns. (The vocabulary the engine shares with the wire.)
public typealias Accessory = RowAccessory
