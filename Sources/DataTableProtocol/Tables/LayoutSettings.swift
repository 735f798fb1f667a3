import MemberwiseInit

/// How a table is laid out, as `layout` and `scroll` take it: the members both requests share,
/// defined once. In a request they sit at the top of `params`, beside the request's own members.
///
/// Every member is optional: absent means the default (`layout`) or what the view had
/// (`scroll`, see ``merging(_:)``).
@MemberwiseInit
public struct LayoutSettings: Codable, Hashable, Sendable {
    /// `regular` (default) or `compact`.
    public var sizeClass: SizeClass?
    /// Whether the container scrolls sideways (default false).
    public var horizontalScroll: Bool?
    /// `pt` (default) or `cell`.
    public var unit: LengthUnit?
    /// Font of data cells (pt only): DejaVu Sans, Regular, 15 by default.
    public var font: LayoutRequest.FontParam?
    /// Font of header labels (pt only): DejaVu Sans, Semibold (bold when the family has no
    /// semibold), 13 by default.
    public var headerFont: LayoutRequest.FontParam?
    /// Paddings and fixed sizes; absent members keep the unit's defaults.
    public var padding: LayoutRequest.PaddingParam?
    /// Least share of the container a truncated column keeps (default 0.25).
    public var minShare: Double?
    /// Most share of the container one of several columns takes (default 0.5).
    public var maxShare: Double?
    /// `none`, `checkbox` or `syncStatus`; absent follows the table.
    public var leftAccessory: RowAccessory?
    /// `none` or `chevron`; absent: `chevron` when a column is bound to `drillDown`, else none.
    public var rightAccessory: RowAccessory?
    /// Whether the first column stays in view while scrolling sideways; absent follows the
    /// column's `sticky`.
    public var stickyFirstColumn: Bool?
    /// Layout hints replacing the table's for this layout, by column key (`hidden`, `width`, …:
    /// a view's own column state).
    public var columns: [String: ColumnHints]?
    /// The order the columns are shown in: the keys listed first, in this order, then the others
    /// in the table's order; absent: the table's order.
    public var columnOrder: [String]?
    /// The zone datetime cells are shown in, in place of each column's `format.zone`: `UTC`, an
    /// offset like `+02:00`, or a name like `Europe/Berlin`; absent: each column's.
    public var zone: String?

    private enum CodingKeys: String, CodingKey {
        case sizeClass, horizontalScroll, unit, font, headerFont, padding, minShare, maxShare, leftAccessory
        case rightAccessory, stickyFirstColumn, columns, columnOrder, zone
    }

    /// Reads every member; an unknown name in a column's hints (`align`, `binding`) is
    /// `invalid_params` here, as every other bad layout setting is.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sizeClass = try container.decodeIfPresent(SizeClass.self, forKey: .sizeClass)
        horizontalScroll = try container.decodeIfPresent(Bool.self, forKey: .horizontalScroll)
        unit = try container.decodeIfPresent(LengthUnit.self, forKey: .unit)
        font = try container.decodeIfPresent(LayoutRequest.FontParam.self, forKey: .font)
        headerFont = try container.decodeIfPresent(LayoutRequest.FontParam.self, forKey: .headerFont)
        padding = try container.decodeIfPresent(LayoutRequest.PaddingParam.self, forKey: .padding)
        minShare = try container.decodeIfPresent(Double.self, forKey: .minShare)
        maxShare = try container.decodeIfPresent(Double.self, forKey: .maxShare)
        leftAccessory = try container.decodeIfPresent(RowAccessory.self, forKey: .leftAccessory)
        rightAccessory = try container.decodeIfPresent(RowAccessory.self, forKey: .rightAccessory)
        stickyFirstColumn = try container.decodeIfPresent(Bool.self, forKey: .stickyFirstColumn)
        columns = try container.decodeIfPresent(
            [String: ColumnHints].self,
            forKey: .columns,
            refusingUnknownNamesAs: .invalidParams
        )
        columnOrder = try container.decodeIfPresent([String].self, forKey: .columnOrder)
        zone = try container.decodeIfPresent(String.self, forKey: .zone)
    }

    /// These settings with every member `later` gives in place of this one's.
    public func merging(_ later: LayoutSettings) -> LayoutSettings {
        LayoutSettings(
            sizeClass: later.sizeClass ?? sizeClass,
            horizontalScroll: later.horizontalScroll ?? horizontalScroll,
            unit: later.unit ?? unit,
            font: later.font ?? font,
            headerFont: later.headerFont ?? headerFont,
            padding: later.padding ?? padding,
            minShare: later.minShare ?? minShare,
            maxShare: later.maxShare ?? maxShare,
            leftAccessory: later.leftAccessory ?? leftAccessory,
            rightAccessory: later.rightAccessory ?? rightAccessory,
            stickyFirstColumn: later.stickyFirstColumn ?? stickyFirstColumn,
            columns: later.columns ?? columns,
            columnOrder: later.columnOrder ?? columnOrder,
            zone: later.zone ?? zone
        )
    }
}

/// A request whose params hold ``LayoutSettings`` beside its own members: the settings read and
/// written as if they were the request's own (`request.unit`).
public protocol HasLayoutSettings {
    var settings: LayoutSettings { get set }
}

extension HasLayoutSettings {
    /// A layout setting, read and written in `settings` as if it were the request's own (`request.unit`).
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<LayoutSettings, Value>) -> Value {
        get { settings[keyPath: keyPath] }
        set { settings[keyPath: keyPath] = newValue }
    }
}
