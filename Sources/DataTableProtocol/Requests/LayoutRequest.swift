/// `layout`: the column plan for a container — each column's x, width, alignment, truncation,
/// which columns are omitted, header and row heights, the content's size, or in compact width
/// without sideways scrolling the list-report bindings. Lengths are points (`unit: "pt"`, text
/// measured in a font) or terminal cells (`unit: "cell"`).
@dynamicMemberLookup
public struct LayoutRequest: DataTableRequest, Hashable, HasLayoutSettings {
    public static let method = "layout"
    public static let summary =
        "Column widths, heights and omitted columns for a container (or the compact list report)."

    public var table: String
    /// The container's width.
    public var width: Double
    /// Unit, size class, fonts, paddings, shares, accessories and column hints (members of
    /// `params` themselves, beside `table` and `width`).
    public var settings: LayoutSettings

    public init(table: String, width: Double, settings: LayoutSettings = LayoutSettings()) {
        self.table = table
        self.width = width
        self.settings = settings
    }

    public init(
        table: String,
        width: Double,
        sizeClass: String? = nil,
        horizontalScroll: Bool? = nil,
        unit: String? = nil,
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
        case table, width
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decode(String.self, forKey: .table)
        width = try container.decode(Double.self, forKey: .width)
        settings = try LayoutSettings(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(table, forKey: .table)
        try container.encode(width, forKey: .width)
        try settings.encode(to: encoder)
    }

    /// A font by family and style (through fontconfig), or by file.
    public struct FontParam: Codable, Hashable, Sendable {
        public var family: String?
        /// `Regular`, `Bold`, `Semibold`, `Italic`, … or any style name the family has.
        public var style: String?
        /// Points.
        public var size: Double?
        /// A font file; used instead of `family` and `style`.
        public var file: String?
        /// The face within a font collection file (default 0).
        public var index: Int?

        public init(
            family: String? = nil,
            style: String? = nil,
            size: Double? = nil,
            file: String? = nil,
            index: Int? = nil
        ) {
            self.family = family
            self.style = style
            self.size = size
            self.file = file
            self.index = index
        }
    }

    /// Paddings and fixed sizes, in the layout's unit.
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

        public init(
            cell: Int? = nil,
            header: Int? = nil,
            row: Int? = nil,
            spacing: Int? = nil,
            minRowHeight: Int? = nil,
            image: Int? = nil,
            accessory: Int? = nil
        ) {
            self.cell = cell
            self.header = header
            self.row = row
            self.spacing = spacing
            self.minRowHeight = minRowHeight
            self.image = image
            self.accessory = accessory
        }
    }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        public var version: Int
        /// `table` (a grid of columns) or `list` (object views).
        public var mode: String
        public var unit: String
        public var sizeClass: String
        public var horizontalScroll: Bool
        public var width: Int
        /// Every column in order, shown or omitted.
        public var columns: [LayoutColumn]
        public var accessories: Accessories
        /// The sticky first column, when there is one.
        public var sticky: Sticky?
        public var header: Header
        public var rows: Rows
        public var contentWidth: Int
        /// Header height plus every row's height.
        public var contentHeight: Int
        /// List mode: which column goes to which place of the object view.
        public var bindings: [Binding]?
        /// The fonts measured with (pt only).
        public var fonts: Fonts?

        public init(
            table: String,
            version: Int,
            mode: String,
            unit: String,
            sizeClass: String,
            horizontalScroll: Bool,
            width: Int,
            columns: [LayoutColumn],
            accessories: Accessories,
            sticky: Sticky?,
            header: Header,
            rows: Rows,
            contentWidth: Int,
            contentHeight: Int,
            bindings: [Binding]?,
            fonts: Fonts?
        ) {
            self.table = table
            self.version = version
            self.mode = mode
            self.unit = unit
            self.sizeClass = sizeClass
            self.horizontalScroll = horizontalScroll
            self.width = width
            self.columns = columns
            self.accessories = accessories
            self.sticky = sticky
            self.header = header
            self.rows = rows
            self.contentWidth = contentWidth
            self.contentHeight = contentHeight
            self.bindings = bindings
            self.fonts = fonts
        }
    }

    /// One column's place.
    public struct LayoutColumn: Codable, Hashable, Sendable {
        public var key: String
        /// Left edge; absent when omitted or in list mode.
        public var x: Int?
        public var width: Int
        /// `leading`, `center` or `trailing`.
        public var align: String
        public var lines: Int
        public var truncated: Bool
        public var omitted: Bool
        /// The header label as drawn: one or two lines.
        public var header: [String]
        /// List mode: where the column goes.
        public var binding: String?

        public init(
            key: String,
            x: Int?,
            width: Int,
            align: String,
            lines: Int,
            truncated: Bool,
            omitted: Bool,
            header: [String],
            binding: String?
        ) {
            self.key = key
            self.x = x
            self.width = width
            self.align = align
            self.lines = lines
            self.truncated = truncated
            self.omitted = omitted
            self.header = header
            self.binding = binding
        }
    }

    /// What sits left and right of every row; absent when nothing does.
    public struct Accessories: Codable, Hashable, Sendable {
        public var left: Accessory?
        public var right: Accessory?

        public init(left: Accessory?, right: Accessory?) {
            self.left = left
            self.right = right
        }
    }

    /// An accessory: `checkbox`, `syncStatus` or `chevron`, where it is drawn (it sticks to
    /// its side while the content scrolls sideways).
    public struct Accessory: Codable, Hashable, Sendable {
        public var kind: String
        public var x: Int
        public var width: Int

        public init(kind: String, x: Int, width: Int) {
            self.kind = kind
            self.x = x
            self.width = width
        }
    }

    /// A first column that stays in view: its width at horizontal offset `x` is
    /// `max(minWidth, width − x)`.
    public struct Sticky: Codable, Hashable, Sendable {
        public var column: String
        public var width: Int
        public var minWidth: Int

        public init(column: String, width: Int, minWidth: Int) {
            self.column = column
            self.width = width
            self.minWidth = minWidth
        }
    }

    public struct Header: Codable, Hashable, Sendable {
        public var height: Int
        public var lines: Int
        public var lineHeight: Int

        public init(height: Int, lines: Int, lineHeight: Int) {
            self.height = height
            self.lines = lines
            self.lineHeight = lineHeight
        }
    }

    /// Row heights: one-line rows are `height` (content centred), rows with a cell on two
    /// lines `twoLineHeight` (content top-aligned).
    public struct Rows: Codable, Hashable, Sendable {
        public var count: Int
        public var height: Int
        public var twoLineHeight: Int
        public var twoLineCount: Int
        public var lineHeight: Int

        public init(count: Int, height: Int, twoLineHeight: Int, twoLineCount: Int, lineHeight: Int) {
            self.count = count
            self.height = height
            self.twoLineHeight = twoLineHeight
            self.twoLineCount = twoLineCount
            self.lineHeight = lineHeight
        }
    }

    public struct Binding: Codable, Hashable, Sendable {
        /// `headline`, `subheadline`, `footnote`, `status`, `substatus`, `statusImage`,
        /// `substatusImage`, `detailImage` or `icon`.
        public var binding: String
        public var column: String

        public init(binding: String, column: String) {
            self.binding = binding
            self.column = column
        }
    }

    public struct Fonts: Codable, Hashable, Sendable {
        public var data: FontReply
        public var header: FontReply

        public init(data: FontReply, header: FontReply) {
            self.data = data
            self.header = header
        }
    }

    /// A font as found: the family fontconfig matched, the file, the size.
    public struct FontReply: Codable, Hashable, Sendable {
        public var family: String?
        public var style: String?
        public var file: String
        public var size: Double

        public init(family: String?, style: String?, file: String, size: Double) {
            self.family = family
            self.style = style
            self.file = file
            self.size = size
        }
    }
}
