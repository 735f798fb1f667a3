import MemberwiseInit

/// `scroll`: the visible window of the caller's view of a table — visible rows with each cell's
/// text cut to fit and its state, visible columns after sideways scrolling, the sticky header and
/// first column, sizes, and how many rows appeared above since the view last looked.
///
/// A view belongs to one connection and one table. Its first `scroll` gives the viewport's
/// `width` and `height` and, like `layout`, the unit, size class, fonts and the rest; later ones
/// give only what changes. Without `viewport.y` or `to`, the view keeps its anchor row at the
/// same place on screen.
@dynamicMemberLookup
@MemberwiseInit
public struct ScrollRequest: DataTableRequest, HasLayoutSettings {
    /// The `method` string on the wire.
    public static let method = "scroll"
    /// The line `help` shows for the method.
    public static let summary =
        "The visible rows and columns of your view for a viewport, a target row, or where your view was."

    /// The most rows of overscan one `scroll` accepts.
    public static let maximumOverscan = 1000
    /// The tallest viewport accepted, in layout units (points or lines).
    public static let maximumHeight = 10_000_000

    /// The table the caller's view looks at; the connection keeps one view per table.
    public var table: String
    /// The part of the content to show; the first scroll of a view gives its `width` and `height`.
    public var viewport: Viewport?
    /// A row to bring into view instead of `viewport.y`.
    public var to: Target?
    /// Rows to add above and below the visible ones (default 0).
    public var overscan: Int?
    /// `none` (default), `top` or `bottom`: while at that edge, stay there as rows arrive.
    public var follow: FollowEdge?
    /// Divides the view into sections, one per distinct value of a column (Apple HIG), or into
    /// groups nested by several: replaces the view's; `{}` (no `column`) ends them; absent
    /// keeps them.
    public var sections: Sections?
    /// `true`: each row also carries `values`, its cells' typed values in the order of
    /// `cells`, as `get` gives them (absent: `false`).
    public var values: Bool?
    /// The layout of the view, as `layout` takes it (members of `params` themselves); absent
    /// members keep the view's.
    public var settings: LayoutSettings = LayoutSettings()

    /// Params whose only layout setting is `unit`.
    public init(
        table: String,
        viewport: Viewport? = nil,
        to: Target? = nil,
        overscan: Int? = nil,
        follow: FollowEdge? = nil,
        unit: LengthUnit?
    ) {
        self.init(
            table: table,
            viewport: viewport,
            to: to,
            overscan: overscan,
            follow: follow,
            settings: LayoutSettings(unit: unit)
        )
    }

    private enum CodingKeys: String, CodingKey {
        case table, viewport, to, overscan, follow, sections, values
    }

    /// Reads `table`, `viewport`, `to`, `overscan` and `follow`, and the layout settings from the same params
    /// object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decode(String.self, forKey: .table)
        viewport = try container.decodeIfPresent(Viewport.self, forKey: .viewport)
        to = try container.decodeIfPresent(Target.self, forKey: .to)
        overscan = try container.decodeIfPresent(Int.self, forKey: .overscan)
        follow = try container.decodeIfPresent(FollowEdge.self, forKey: .follow)
        sections = try container.decodeIfPresent(Sections.self, forKey: .sections)
        values = try container.decodeIfPresent(Bool.self, forKey: .values)
        settings = try LayoutSettings(from: decoder)
    }

    /// Writes the request's own members and the settings given side by side in one params object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(table, forKey: .table)
        try container.encodeIfPresent(viewport, forKey: .viewport)
        try container.encodeIfPresent(to, forKey: .to)
        try container.encodeIfPresent(overscan, forKey: .overscan)
        try container.encodeIfPresent(follow, forKey: .follow)
        try container.encodeIfPresent(sections, forKey: .sections)
        try container.encodeIfPresent(values, forKey: .values)
        try settings.encode(to: encoder)
    }

    /// The part of the content shown: offsets `x`, `y` (content coordinates, from the top of the
    /// header) and the size. Absent members keep the view's.
    @MemberwiseInit
    public struct Viewport: Codable, Hashable, Sendable {
        /// Horizontal offset, 0 or more, cut to a whole unit; clamped to the content, and taken as 0 unless the
        /// view scrolls sideways.
        public var x: Double?
        /// Vertical offset from the top of the header, 0 or more, cut to a whole unit (not with `to`); absent
        /// keeps the anchor row where it was on screen, unless `follow` holds the view at an edge.
        public var y: Double?
        /// The viewport's width, which is the layout's container width: 1 to 1,000,000.
        public var width: Double?
        /// The viewport's height, header included: 1 to ``ScrollRequest/maximumHeight``.
        public var height: Double?
    }

    /// How a view is divided into sections.
    @MemberwiseInit
    public struct Sections: Codable, Hashable, Sendable {
        /// The column whose values name the sections; absent (and no `columns`) ends the
        /// view's sections.
        public var column: String?
        /// Groups nested by up to 4 columns, outermost first, in place of `column`: a group per
        /// value of the first, within it one per value of the second, and so on; each group has
        /// a header (indented by its `level`), and groups can be collapsed (`collapse`).
        public var columns: [String]? = nil
        /// `plain` (default: headers stick to the top), `grouped` (sections set apart) or
        /// `insetGrouped` (grouped, rows inset from both edges).
        public var style: SectionStyle?
        /// An index of section titles down the right edge (`plain` only).
        public var index: Bool?
        /// A footer after each section.
        public var footers: Bool?
        /// What each section sums up, by column key: a function or a list of them (`count`,
        /// `sum`, `avg`, `min`, `max`, `countDistinct`, `median`, `first`, `last`), as in
        /// `{"qty": "sum", "weight": ["avg", "max"]}`. Empty cells are skipped: `count` counts the
        /// cells that hold a value. Shown in the table's column order, each column's functions
        /// in the order of that list.
        public var aggregates: [String: AggregateFunctions]?
        /// Where a section's aggregates are shown: `header` (default) or `footer` (which turns
        /// footers on).
        public var totals: TotalsPlacement?
        /// A row of the aggregates of every row the view shows: `top` or `bottom` (scrolling with
        /// the rows), `pinnedTop` (below the table's header) or `pinnedBottom` (at the bottom of
        /// the viewport).
        public var grandTotal: GrandTotalPlacement?
    }

    /// One function or a list of them, as `sections.aggregates` takes for a column.
    public struct AggregateFunctions: Codable, Hashable, Sendable {
        /// The functions, in the order given.
        public var functions: [AggregateFunction]

        /// The functions given.
        public init(_ functions: [AggregateFunction]) { self.functions = functions }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let name = try? container.decode(String.self) {
                guard let function = AggregateFunction(wireName: name) else {
                    throw UnknownChoice(AggregateFunction.self, name: name, codingPath: decoder.codingPath)
                }
                functions = [function]
            } else {
                do {
                    functions = try container.decode([AggregateFunction].self)
                } catch DecodingError.typeMismatch(_, let context)
                    where context.codingPath.count == decoder.codingPath.count
                {
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: decoder.codingPath,
                            debugDescription: "give a function's name or a list of them."
                        )
                    )
                }
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if functions.count == 1 { try container.encode(functions[0]) } else { try container.encode(functions) }
        }
    }

    /// A view's sections as a window shows them.
    @MemberwiseInit
    public struct SectionsReply: Codable, Hashable, Sendable {
        /// The column whose values name the sections (the outermost groups).
        public var column: String
        /// With nested groups, the columns they nest by, outermost first.
        public var columns: [String]? = nil
        /// `plain`, `grouped` or `insetGrouped`.
        public var style: SectionStyle
        /// How many sections (outermost groups) the view has.
        public var count: Int
        /// How far rows and columns stand in from both edges (inset grouped; 0 otherwise).
        public var inset: Int
        /// The sections the window's rows are in, top to bottom.
        public var shown: [ShownSection]
        /// Every section's title and the `viewport.y` that brings its header to the top
        /// (plain style with `index`).
        public var index: [IndexEntry]?
        /// Where the sections' aggregates are shown, `header` or `footer`; absent without aggregates.
        public var totals: TotalsPlacement? = nil
        /// The grand total row, when asked for.
        public var grandTotal: GrandTotalReply? = nil
    }

    /// One section on screen.
    @MemberwiseInit
    public struct ShownSection: Codable, Hashable, Sendable {
        /// The section's value as its column shows it ("" for the rows without one).
        public var title: String
        /// Its rows.
        public var count: Int
        /// Its header's top on screen.
        public var y: Int
        /// Its header's height.
        public var height: Int
        /// Its footer's top on screen, when footers are shown.
        public var footerY: Int?
        /// The header sticks below the table's header (plain style, the top section).
        public var sticky: Bool?
        /// The section's aggregates (`sections.aggregates`), in the table's column order.
        public var aggregates: [AggregateReply]? = nil
        /// With nested groups, the group's level: 0 for the outermost, one more for each
        /// nested one (a renderer indents by it).
        public var level: Int? = nil
        /// With nested groups, the titles of the groups holding it, outermost first, its own
        /// last: what tells apart two groups of one title.
        public var path: [String]? = nil
        /// `true` when the group is collapsed: its header (and its count and aggregates) shows,
        /// its rows and nested groups do not, nor its footer.
        public var collapsed: Bool? = nil
    }

    /// One aggregate of a section or of the grand total.
    @MemberwiseInit
    public struct AggregateReply: Codable, Hashable, Sendable {
        /// The column's key.
        public var column: String
        /// The function: `count`, `sum`, `avg`, `min`, `max`, `countDistinct`, `median`, `first` or `last`.
        public var function: AggregateFunction
        /// What it comes to, typed as the column's values are (a count is a whole number); absent
        /// when the rows have no value to give it (the `min` of empty cells).
        public var value: JSONValue?
        /// The value as the column shows it; "" when absent.
        public var text: String
    }

    /// The grand total row on screen.
    @MemberwiseInit
    public struct GrandTotalReply: Codable, Hashable, Sendable {
        /// `top`, `bottom`, `pinnedTop` or `pinnedBottom`.
        public var placement: GrandTotalPlacement
        /// Its top on screen.
        public var y: Int
        /// Its height (a section header's).
        public var height: Int
        /// The aggregates of every row the view shows, in the table's column order.
        public var aggregates: [AggregateReply]
    }

    /// One title of a section index.
    @MemberwiseInit
    public struct IndexEntry: Codable, Hashable, Sendable {
        /// The section's title.
        public var title: String
        /// The `viewport.y` that brings its header to the top.
        public var y: Int
    }

    /// A row by `id` or by `index` (or a section by its value), and where to put it: `top`,
    /// `center`, `bottom` or `nearest` (default: as little scrolling as brings it fully into view).
    @MemberwiseInit
    public struct Target: Codable, Hashable, Sendable {
        /// The row's id (not with `index`); an unknown id is `no_such_row`.
        public var id: JSONValue?
        /// The row's position in the current order (not with `id`); out of range is `invalid_value`.
        public var index: Int?
        /// `top`, `center`, `bottom` or `nearest` (the default).
        public var align: TargetAlignment?
        /// Instead of a row: the section with this value, its header brought to the top (a view
        /// with sections).
        public var section: JSONValue?
    }

    /// The `result` of a `scroll`: the view's window, every length in whole `unit`s.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version the window shows; a scroll does not change it.
        public var version: Int
        /// `table` or `list` (the compact list report).
        public var mode: String
        /// `pt` or `cell`: what every length in the reply is in.
        public var unit: LengthUnit
        /// Rows in the table.
        public var total: Int
        /// Selected rows, and cells holding a rejected draft, in the table.
        public var selected: Int
        /// Cells holding a rejected draft in the table.
        public var errors: Int
        /// The viewport used, after clamping to the content.
        public var viewport: ViewportReply
        /// Width of the accessories and columns side by side (as `layout` gives it).
        public var contentWidth: Int
        /// Header height plus every row's height.
        public var contentHeight: Int
        /// The sticky header's height and shadow.
        public var header: Header
        /// The columns on screen, left to right (list mode: the bound columns).
        public var columns: [Column]
        /// The accessories beside every row, sticking to their sides; `{}` when none (always in list mode).
        public var accessories: LayoutRequest.Accessories
        /// The rows from `first` - overscan to `last` + overscan, top to bottom.
        public var rows: [Row]
        /// First and last row visible below the header; absent when no row is.
        public var first: Int?
        /// Position of the last row visible below the header; absent when no row is.
        public var last: Int?
        /// Rows added since this view last looked that are now above its first visible row.
        public var newAbove: Int
        /// With a filter on the view (`filter`): how many rows it lets through, which positions
        /// (`index`, `first`, `last`) count.
        public var shown: Int?
        /// With a filter on the view: its conditions in words, for a filter feedback bar.
        public var filter: String?
        /// With a filter on the view: rows added since it last looked that the filter leaves out.
        public var hiddenNew: Int?
        /// With sections: the sections on screen (and the index).
        public var sections: SectionsReply?
        /// What the view lost since it last heard (columns it filtered or grouped by were
        /// dropped), once; absent otherwise.
        public var lost: ViewLost?
    }

    /// The viewport used: content offsets after clamping, and its size.
    @MemberwiseInit
    public struct ViewportReply: Codable, Hashable, Sendable {
        /// Horizontal content offset: 0 unless the view scrolls sideways, at most `contentWidth` − `width`.
        public var x: Int
        /// Vertical content offset from the top of the header, clamped to 0 … `contentHeight` − `height`.
        public var y: Int
        /// The viewport's width.
        public var width: Int
        /// The viewport's height, header included.
        public var height: Int
    }

    /// The sticky header: drawn at the top of the viewport, with a shadow once rows have
    /// scrolled under it.
    @MemberwiseInit
    public struct Header: Codable, Hashable, Sendable {
        /// Its height: it covers screen y 0 up to this.
        public var height: Int
        /// `true` once `viewport.y` > 0: rows have scrolled under the header.
        public var shadow: Bool
    }

    /// A column on screen: `x` and `width` as drawn (a sticky first column's width shrinks as
    /// the content scrolls sideways).
    @MemberwiseInit
    public struct Column: Codable, Hashable, Sendable {
        /// The column's key.
        public var key: String
        /// Left edge on screen: moved by sideways scrolling, except a sticky column's (list mode: where the
        /// text starts, after the cell padding).
        public var x: Int
        /// Width as drawn (list mode: the container's width less the cell padding on both sides).
        public var width: Int
        /// `leading`, `center` or `trailing`.
        public var align: ColumnAlignment
        /// Lines a cell may take: 1, or 2 for a column with `lines: 2`.
        public var lines: Int
        /// The header label as drawn: one or two lines (cut with "…" while a sticky column is narrowed).
        public var header: [String]
        /// Present (true) on the sticky first column.
        public var sticky: Bool?
        /// List mode: the object-view place.
        public var binding: ColumnBinding?
        /// For assistive technology: `ascending` or `descending` when the table is sorted by the
        /// column; absent when it is not.
        public var sort: String?
        /// For assistive technology: present (true) when the column's cells are read-only (unless a
        /// row or cell says otherwise).
        public var readOnly: Bool?
    }

    /// A row on screen: `y` is its top in the viewport (the header covers 0 to its height).
    /// `cells` follow `columns`. State members are present only when set.
    @MemberwiseInit
    public struct Row: Codable, Hashable, Sendable {
        /// The row's id.
        public var id: JSONValue
        /// The row's position in the current order.
        public var index: Int
        /// Top on screen; less than the header's height when the row is partly under the header.
        public var y: Int
        /// Height: the layout's one-line row height, or its two-line row height when `tall`.
        public var height: Int
        /// Display text for each of `columns`, cut with "…" to the width drawn; a two-line cell's lines are
        /// joined by `\n`; a cell with a draft shows the draft.
        public var cells: [String]
        /// A cell takes two lines: content is top-aligned.
        public var tall: Bool?
        /// Present (`true`) when the row is selected.
        public var selected: Bool?
        /// 1 when just added, fading (ease-out) to 0 two seconds later; absent at 0.
        public var highlight: Double?
        /// Rejected drafts by column key: the cell shows `text`, a renderer marks it with
        /// `error`.
        public var drafts: [String: DraftReply]?
        /// Keys of the read-only cells on screen.
        public var readOnly: [String]?
        /// What the `syncStatus` left accessory shows for the row: the display text of the column
        /// bound to `syncStatus`; absent when the accessory is not `syncStatus` or the cell is empty.
        public var syncStatus: String?
        /// Whether the row has the drill-down chevron: present whenever the right accessory is
        /// the chevron (the row's own `$drillDown`, else the column bound to `drillDown`, else
        /// `true`).
        public var drillDown: Bool?
        /// The row's version: the table's version when its cells or drafts last changed (what
        /// `edit` takes as `ifRowVersion`).
        public var version: Int
        /// The cells' typed values in the order of `cells` (a number, text, `true`/`false`,
        /// `null` when empty), as `get` gives them; only when the scroll asked (`values`).
        public var values: [JSONValue]?
    }
}

/// The members a scroll sends each time (table, viewport, target, overscan, follow, unit) are
/// read directly; a scroll that also changes the view's layout is decoded.
extension ScrollRequest: ReadableParams {
    /// The params read straight from their bytes; `nil` leaves them to `JSONDecoder`.
    public init?(reading reader: inout ParamsReader) {
        var table: String?
        var viewport: Viewport?
        var to: Target?
        var overscan: Int?
        var follow: FollowEdge?
        var unit: LengthUnit?
        var values: Bool?
        let read = reader.object { reader, key in
            switch key {
            case "table": reader.first(0) && reader.optional(&table) { $0.string() }
            case "viewport": reader.first(1) && reader.optional(&viewport) { Viewport(reading: &$0) }
            case "to": reader.first(2) && reader.optional(&to) { Target(reading: &$0) }
            case "overscan": reader.first(3) && reader.optional(&overscan) { $0.int() }
            case "follow": reader.first(4) && reader.optional(&follow) { $0.choice() }
            case "unit": reader.first(5) && reader.optional(&unit) { $0.choice() }
            case "values": reader.first(6) && reader.optional(&values) { $0.bool() }
            default: false
            }
        }
        guard read, let table else { return nil }
        self.init(table: table, viewport: viewport, to: to, overscan: overscan, follow: follow, unit: unit)
        self.values = values
    }
}

extension ScrollRequest.Viewport {
    init?(reading reader: inout ParamsReader) {
        var viewport = Self()
        let read = reader.object { reader, key in
            switch key {
            case "x": reader.first(0) && reader.optional(&viewport.x) { $0.double() }
            case "y": reader.first(1) && reader.optional(&viewport.y) { $0.double() }
            case "width": reader.first(2) && reader.optional(&viewport.width) { $0.double() }
            case "height": reader.first(3) && reader.optional(&viewport.height) { $0.double() }
            default: false
            }
        }
        guard read else { return nil }
        self = viewport
    }
}

extension ScrollRequest.Target {
    init?(reading reader: inout ParamsReader) {
        var target = Self()
        let read = reader.object { reader, key in
            switch key {
            case "id": reader.first(0) && reader.optional(&target.id) { $0.value() }
            case "index": reader.first(1) && reader.optional(&target.index) { $0.int() }
            case "align": reader.first(2) && reader.optional(&target.align) { $0.choice() }
            default: false
            }
        }
        guard read else { return nil }
        self = target
    }
}
