import MemberwiseInit

/// A column as `create` takes it and `describe` returns it.
///
/// Only `key` is required; `type` defaults to `text`, `label` to the key. Bounds (`min`, `max`)
/// are written as a person types them: `0`, `"2024-01-01"`, `"1h"`.
@MemberwiseInit
public struct ColumnDefinition: Codable, Hashable, Sendable {
    /// The name rows use for the column's cells: not empty, unique in the table, not starting with `$`.
    public var key: String
    /// Header text; absent means the key (`describe` always gives it).
    public var label: String?
    /// `text`, `number`, `date`, `time`, `duration`, `picker` or `image`. A computed column's
    /// type is its expression's; given, it must be that type.
    public var type: ColumnValueType?
    /// Makes the column computed: its values are worked out from each row's other cells by this
    /// expression (protocol.md, "Computed columns"), kept current by every change, read-only.
    /// Such a column takes `label`, `type`, `decimals`, `format` and layout hints only.
    public var expression: String?
    /// Absent follows the table (images are not editable unless this says so).
    public var editable: Bool?
    /// `true`: an empty value (`null` or blank text) is refused; absent means `false`.
    public var required: Bool?
    /// Text columns: the most characters (grapheme clusters) a value may have; at least 1.
    public var maxLength: Int?
    /// Text columns: a regular expression the whole value must match.
    public var pattern: String?
    /// Number, date, time and duration columns: the least value allowed, written as a person types it.
    public var min: JSONValue?
    /// Number, date, time and duration columns: the greatest value allowed, written as a person types it.
    public var max: JSONValue?
    /// Number columns: the most digits after the decimal point (0 to 12); values show with exactly
    /// that many.
    public var decimals: Int?
    /// Picker columns: the choices, in the order they sort (at least one, all different); input
    /// matches them ignoring case.
    public var options: [String]?
    /// Number and date columns: how values are shown beyond their plain form (grouping, percent,
    /// prefix, suffix, locale).
    public var format: ColumnFormat?
    /// Points (1 or more), a fraction of the container (0 < w < 1), or -1 for the flexible column.
    public var width: Double?
    /// The least width a truncated column keeps when the container does not scroll sideways: points
    /// (or cells) when 1 or more, a fraction of the container below 1; absent: `layout`'s `minShare`.
    public var minWidth: Double?
    /// The most width content gives the column: points (or cells) when 1 or more, a fraction below 1;
    /// absent: `layout`'s `maxShare` when several columns share a container that does not scroll sideways.
    public var maxWidth: Double?
    /// `leading`, `center` or `trailing`.
    public var align: ColumnAlignment?
    /// 1 or 2.
    public var lines: Int?
    /// `true`: stays in view while the content scrolls sideways; the first column only (absent: `false`).
    public var sticky: Bool?
    /// Where the column goes in the compact list-report projection.
    public var binding: ColumnBinding?
    /// `true`: not shown unless a layout says `hidden: false` for it (absent: shown).
    public var hidden: Bool?

    /// The layout hints among the members.
    public var hints: ColumnHints {
        ColumnHints(
            width: width,
            minWidth: minWidth,
            maxWidth: maxWidth,
            align: align,
            lines: lines,
            sticky: sticky,
            binding: binding,
            hidden: hidden
        )
    }
}

/// A column's layout hints as the wire carries them (``ColumnHints``, the one hints type): each
/// member under its own name, absent when not said; `align` and `binding` refused as their sets
/// refuse an unknown name.
extension ColumnHints: Codable {
    private enum CodingKeys: String, CodingKey {
        case width, minWidth, maxWidth, align, lines, sticky, binding, hidden
    }

    /// Decodes the members given.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            width: try container.decodeIfPresent(Double.self, forKey: .width),
            minWidth: try container.decodeIfPresent(Double.self, forKey: .minWidth),
            maxWidth: try container.decodeIfPresent(Double.self, forKey: .maxWidth),
            align: try container.decodeIfPresent(ColumnAlignment.self, forKey: .align),
            lines: try container.decodeIfPresent(Int.self, forKey: .lines),
            sticky: try container.decodeIfPresent(Bool.self, forKey: .sticky),
            binding: try container.decodeIfPresent(ColumnBinding.self, forKey: .binding),
            hidden: try container.decodeIfPresent(Bool.self, forKey: .hidden)
        )
    }

    /// Encodes the members said, leaving out the others.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(width, forKey: .width)
        try container.encodeIfPresent(minWidth, forKey: .minWidth)
        try container.encodeIfPresent(maxWidth, forKey: .maxWidth)
        try container.encodeIfPresent(align, forKey: .align)
        try container.encodeIfPresent(lines, forKey: .lines)
        try container.encodeIfPresent(sticky, forKey: .sticky)
        try container.encodeIfPresent(binding, forKey: .binding)
        try container.encodeIfPresent(hidden, forKey: .hidden)
    }
}

/// One key of a sort order.
@MemberwiseInit
public struct SortKeyParam: Codable, Hashable, Sendable {
    /// The key of the column to sort by.
    public var column: String
    /// Largest first; absent means smallest first.
    public var descending: Bool?
}

/// A cell as the daemon reports it after a change.
@MemberwiseInit
public struct CellReply: Codable, Hashable, Sendable {
    /// The row's id.
    public var id: JSONValue
    /// The key of the cell's column.
    public var column: String
    /// The stored value: a number for number and duration (seconds) columns, text otherwise,
    /// `null` when empty.
    public var value: JSONValue
    /// The value as a renderer shows it.
    public var display: String
    /// The row's position in the current order.
    public var index: Int
}

/// A rejected input kept on a cell.
@MemberwiseInit
public struct DraftReply: Codable, Hashable, Sendable {
    /// What was typed.
    public var text: String
    /// Why it was rejected.
    public var error: String
}

/// A row as `get` returns it.
@MemberwiseInit
public struct RowReply: Codable, Hashable, Sendable {
    /// The row's id.
    public var id: JSONValue
    /// The row's position in the current order (0 is the first).
    public var index: Int
    /// Stored values by column key (`null` when empty).
    public var values: [String: JSONValue]
    /// Display text by column key.
    public var display: [String: String]
    /// Rejected inputs by column key; absent when there are none.
    public var drafts: [String: DraftReply]?
    /// Whether the row is selected.
    public var selected: Bool
    /// Keys of the row's read-only cells; absent when every cell can be edited.
    public var readOnly: [String]?
    /// 1 when just added, fading to 0 over 2 seconds; absent when 0.
    public var highlight: Double?
    /// The row's version: the table's version when its cells or drafts last changed (what
    /// `edit` takes as `ifRowVersion`).
    public var version: Int
}
