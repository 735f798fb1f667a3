import MemberwiseInit

/// `layout`: the column plan for a container — each column's x, width, alignment, truncation,
/// which columns are omitted, header and row heights, the content's size, or in compact width
/// without sideways scrolling the list-report bindings. Lengths are points (`unit: "pt"`, text
/// measured in a font) or terminal cells (`unit: "cell"`).
@dynamicMemberLookup
@MemberwiseInit
public struct LayoutRequest: DataTableRequest, Hashable, HasLayoutSettings {
    /// The `method` string on the wire.
    public static let method = "layout"
    /// The line `help` shows for the method.
    public static let summary =
        "Column widths, heights and omitted columns for a container (or the compact list report)."

    /// The table to lay out; the layout changes nothing in it.
    public var table: String
    /// The container's width.
    public var width: Double
    /// Unit, size class, fonts, paddings, shares, accessories and column hints (members of
    /// `params` themselves, beside `table` and `width`).
    public var settings: LayoutSettings = LayoutSettings()
    /// Lay out this connection's view of the table: row counts and heights of the rows its
    /// filter shows, with its sections' headers (`filter`, `scroll`).
    public var view: Bool?

    /// Params with the most used settings given one by one; the others take their defaults.
    public init(
        table: String,
        width: Double,
        sizeClass: SizeClass? = nil,
        horizontalScroll: Bool? = nil,
        unit: LengthUnit? = nil,
        stickyFirstColumn: Bool? = nil
    ) {
        self.init(
            table: table,
            width: width,
            settings: LayoutSettings(
                sizeClass: sizeClass,
                horizontalScroll: horizontalScroll,
                unit: unit,
                stickyFirstColumn: stickyFirstColumn
            )
        )
    }

    private enum CodingKeys: String, CodingKey {
        case table, width, view
    }

    /// Reads `table` and `width`, and the layout settings from the same params object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decode(String.self, forKey: .table)
        width = try container.decode(Double.self, forKey: .width)
        view = try container.decodeIfPresent(Bool.self, forKey: .view)
        settings = try LayoutSettings(from: decoder)
    }

    /// Writes `table`, `width` and the settings given side by side in one params object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(table, forKey: .table)
        try container.encode(width, forKey: .width)
        try container.encodeIfPresent(view, forKey: .view)
        try settings.encode(to: encoder)
    }

    /// A font by family and style (through fontconfig), or by file.
    @MemberwiseInit
    public struct FontParam: Codable, Hashable, Sendable {
        /// The family to find through fontconfig (default `DejaVu Sans`); one not installed is `invalid_params`.
        public var family: String?
        /// `Regular`, `Bold`, `Semibold`, `Italic`, … or any style name the family has.
        public var style: String?
        /// Points.
        public var size: Double?
        /// A font file; used instead of `family` and `style`.
        public var file: String?
        /// The face within a font collection file (default 0).
        public var index: Int?
    }

    /// Paddings and fixed sizes, in the layout's unit.
    @MemberwiseInit
    public struct PaddingParam: Codable, Hashable, Sendable {
        /// Left and right inside every cell (pt 12, cell 0).
        public var cell: Int?
        /// Above and below header labels (pt 8, cell 0).
        public var header: Int?
        /// Above and below row content (pt 16, cell 0).
        public var row: Int?
        /// Between columns (pt 0, cell 1).
        public var spacing: Int?
        /// Least row height (pt 44, cell 1).
        public var minRowHeight: Int?
        /// Width of an image column that sets none (pt 56, cell 2).
        public var image: Int?
        /// Width of an accessory (pt 44, cell 3).
        public var accessory: Int?
    }

    /// The `result` of a `layout`: the plan, every length in whole `unit`s.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version; a layout does not change it.
        public var version: Int
        /// `table` (a grid of columns) or `list` (object views).
        public var mode: String
        /// `pt` or `cell`: what every length in the reply is in.
        public var unit: LengthUnit
        /// `regular` or `compact`, as laid out.
        public var sizeClass: SizeClass
        /// Whether the container scrolls sideways, as laid out.
        public var horizontalScroll: Bool
        /// The container's width, in whole units.
        public var width: Int
        /// Every column in order, shown or omitted.
        public var columns: [LayoutColumn]
        /// The accessories beside every row; `{}` when there are none (always in list mode).
        public var accessories: Accessories
        /// The sticky first column, when there is one.
        public var sticky: Sticky?
        /// The header's height and lines.
        public var header: Header
        /// The rows' count and heights.
        public var rows: Rows
        /// Width of the accessories and columns side by side: `width`, or more when the container scrolls
        /// sideways.
        public var contentWidth: Int
        /// Header height plus every row's height.
        public var contentHeight: Int
        /// List mode: which column goes to which place of the object view.
        public var bindings: [Binding]?
        /// The fonts measured with (pt only).
        public var fonts: Fonts?
        /// What assistive technology announces for the grid's parts.
        public var accessibility: Accessibility = .grid
    }

    /// The roles a renderer gives the grid's parts for assistive technology, and the hint a
    /// read-only cell gives (the columns' `sort` and `readOnly`, and the rows' `selected` and
    /// `readOnly` in `scroll`, say the rest).
    public struct Accessibility: Codable, Hashable, Sendable {
        /// The role of a header cell: `columnheader`.
        public var header: String
        /// The role of a row: `row`.
        public var row: String
        /// The role of a data cell: `cell`.
        public var cell: String
        /// What a read-only cell says when it is focused: `This cell is read-only`.
        public var readOnlyHint: String

        /// The roles of every layout, table or list report.
        public static let grid = Accessibility(
            header: "columnheader",
            row: "row",
            cell: "cell",
            readOnlyHint: "This cell is read-only"
        )

        /// Roles as given.
        public init(header: String, row: String, cell: String, readOnlyHint: String) {
            self.header = header
            self.row = row
            self.cell = cell
            self.readOnlyHint = readOnlyHint
        }
    }

    /// One column's place.
    @MemberwiseInit
    public struct LayoutColumn: Codable, Hashable, Sendable {
        /// The column's key.
        public var key: String
        /// Left edge; absent when omitted. In list mode, where the bound field starts across the row.
        public var x: Int?
        /// Width, cell padding included; 0 when omitted. In list mode, the bound field's own width.
        public var width: Int
        /// `leading`, `center` or `trailing`.
        public var align: ColumnAlignment
        /// Lines a cell may take: 2 for a column with `lines: 2` (not an image column), else 1; 1 in list mode.
        public var lines: Int
        /// Some content is wider than the column; `scroll` cuts it with "…".
        public var truncated: Bool
        /// Not shown: it did not fit (table mode) or is not bound (list mode).
        public var omitted: Bool
        /// The header label as drawn: one or two lines.
        public var header: [String]
        /// List mode: where the column goes.
        public var binding: ColumnBinding?
        /// For assistive technology: `ascending` or `descending` when the table is sorted by the
        /// column; absent when it is not.
        public var sort: String?
        /// For assistive technology: present (true) when the column's cells are read-only (unless a
        /// row or cell says otherwise).
        public var readOnly: Bool?
    }

    /// What sits left and right of every row; absent when nothing does.
    @MemberwiseInit
    public struct Accessories: Codable, Hashable, Sendable {
        /// The left accessory, `checkbox` or `syncStatus`; absent when none.
        public var left: Accessory?
        /// The right accessory, `chevron`; absent when none.
        public var right: Accessory?
    }

    /// An accessory: `checkbox`, `syncStatus` or `chevron`, where it is drawn (it sticks to
    /// its side while the content scrolls sideways).
    @MemberwiseInit
    public struct Accessory: Codable, Hashable, Sendable {
        /// `checkbox`, `syncStatus` or `chevron`.
        public var kind: RowAccessory
        /// Left edge: 0 on the left; the container's width minus the accessory's on the right.
        public var x: Int
        /// Its width: `padding.accessory` (pt 44, cell 3 by default).
        public var width: Int
    }

    /// A first column that stays in view: its width at horizontal offset `x` is
    /// `max(minWidth, width − x)`.
    @MemberwiseInit
    public struct Sticky: Codable, Hashable, Sendable {
        /// The first column's key.
        public var column: String
        /// Its full width, at horizontal offset 0.
        public var width: Int
        /// The width it shrinks to: `minShare` of the container (a quarter by default), or its own when narrower.
        public var minWidth: Int
    }

    /// The header: a label wraps to two lines (by words) when its column is narrower than it.
    @MemberwiseInit
    public struct Header: Codable, Hashable, Sendable {
        /// `lines` × `lineHeight` + `padding.header` above and below; 0 in list mode, which has no header.
        public var height: Int
        /// The most lines a shown column's label takes (1 or 2); 0 in list mode.
        public var lines: Int
        /// The header font's line height, from its metrics, rounded up (1 in cells).
        public var lineHeight: Int
    }

    /// Row heights: one-line rows are `height` (content centred), rows with a cell on two
    /// lines `twoLineHeight` (content top-aligned).
    @MemberwiseInit
    public struct Rows: Codable, Hashable, Sendable {
        /// Rows in the table.
        public var count: Int
        /// Height of a row whose cells take one line: a line + `padding.row` above and below, at least
        /// `padding.minRowHeight`. List mode: every row's, with a line for each bound headline, subheadline
        /// and footnote.
        public var height: Int
        /// Height of a row with a cell on two lines; `height` in list mode.
        public var twoLineHeight: Int
        /// How many rows have a cell on two lines; 0 in list mode.
        public var twoLineCount: Int
        /// The data font's line height, from its metrics, rounded up (1 in cells).
        public var lineHeight: Int
    }

    /// A place of the list report's object view and the column shown there.
    @MemberwiseInit
    public struct Binding: Codable, Hashable, Sendable {
        /// `headline`, `subheadline`, `footnote`, `status`, `substatus`, `statusImage`,
        /// `substatusImage`, `detailImage` or `icon`.
        public var binding: ColumnBinding
        /// The key of the column shown there.
        public var column: String
    }

    /// The fonts a layout in points measured with.
    @MemberwiseInit
    public struct Fonts: Codable, Hashable, Sendable {
        /// The font of data cells.
        public var data: FontReply
        /// The font of header labels.
        public var header: FontReply
    }

    /// A font as found: the family fontconfig matched, the file, the size.
    @MemberwiseInit
    public struct FontReply: Codable, Hashable, Sendable {
        /// The family fontconfig matched, for a font found by name; absent for one named by `file`.
        public var family: String?
        /// The style fontconfig matched ("Book", or "Bold" for a Semibold the family lacks); absent
        /// like `family`.
        public var style: String?
        /// The font file measured with.
        public var file: String
        /// The size, in points.
        public var size: Double
        /// Fonts that measured characters this one lacks (CJK in a Latin font, say), as fontconfig
        /// found them; absent when none was needed.
        public var fallbacks: [Fallback]?

        /// A font characters were measured with in place of the one asked for.
        @MemberwiseInit
        public struct Fallback: Codable, Hashable, Sendable {
            /// Its family, as fontconfig names it.
            public var family: String
            /// Its font file.
            public var file: String
        }
    }
}
