/// A column as `create` takes it and `describe` returns it.
///
/// Only `key` is required; `type` defaults to `text`, `label` to the key. Bounds (`min`, `max`)
/// are written as a person types them: `0`, `"2024-01-01"`, `"1h"`.
public struct ColumnDefinition: Codable, Hashable, Sendable {
    public var key: String
    public var label: String?
    /// `text`, `number`, `date`, `time`, `duration`, `picker` or `image`.
    public var type: String?
    /// Absent follows the table (images are not editable unless this says so).
    public var editable: Bool?
    public var required: Bool?
    public var maxLength: Int?
    public var pattern: String?
    public var min: JSONValue?
    public var max: JSONValue?
    public var decimals: Int?
    public var options: [String]?
    /// Points (1 or more), a fraction of the container (0 < w < 1), or -1 for the flexible column.
    public var width: Double?
    public var minWidth: Double?
    public var maxWidth: Double?
    /// `leading`, `center` or `trailing`.
    public var align: String?
    /// 1 or 2.
    public var lines: Int?
    public var sticky: Bool?
    /// Where the column goes in the compact list-report projection.
    public var binding: String?

    public init(
        key: String,
        label: String? = nil,
        type: String? = nil,
        editable: Bool? = nil,
        required: Bool? = nil,
        maxLength: Int? = nil,
        pattern: String? = nil,
        min: JSONValue? = nil,
        max: JSONValue? = nil,
        decimals: Int? = nil,
        options: [String]? = nil,
        width: Double? = nil,
        minWidth: Double? = nil,
        maxWidth: Double? = nil,
        align: String? = nil,
        lines: Int? = nil,
        sticky: Bool? = nil,
        binding: String? = nil
    ) {
        self.key = key
        self.label = label
        self.type = type
        self.editable = editable
        self.required = required
        self.maxLength = maxLength
        self.pattern = pattern
        self.min = min
        self.max = max
        self.decimals = decimals
        self.options = options
        self.width = width
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.align = align
        self.lines = lines
        self.sticky = sticky
        self.binding = binding
    }

    /// The layout hints among the members.
    public var hints: ColumnHints {
        ColumnHints(
            width: width,
            minWidth: minWidth,
            maxWidth: maxWidth,
            align: align,
            lines: lines,
            sticky: sticky,
            binding: binding
        )
    }
}

/// A column's layout hints as the wire carries them: the members of a ``ColumnDefinition`` that
/// only layout reads, and what `layout` takes per column to replace them for one layout. The
/// server reads them into the engine's `ColumnLayout`, checking `align` and `binding` (this
/// module knows only the wire, so the names stay text here).
public struct ColumnHints: Codable, Hashable, Sendable {
    public var width: Double?
    public var minWidth: Double?
    public var maxWidth: Double?
    public var align: String?
    public var lines: Int?
    public var sticky: Bool?
    public var binding: String?

    public init(
        width: Double? = nil,
        minWidth: Double? = nil,
        maxWidth: Double? = nil,
        align: String? = nil,
        lines: Int? = nil,
        sticky: Bool? = nil,
        binding: String? = nil
    ) {
        self.width = width
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.align = align
        self.lines = lines
        self.sticky = sticky
        self.binding = binding
    }
}

/// One key of a sort order.
public struct SortKeyParam: Codable, Hashable, Sendable {
    public var column: String
    /// Largest first; absent means smallest first.
    public var descending: Bool?

    public init(column: String, descending: Bool? = nil) {
        self.column = column
        self.descending = descending
    }
}

/// A cell as the daemon reports it after a change.
public struct CellReply: Codable, Hashable, Sendable {
    public var id: JSONValue
    public var column: String
    /// The stored value: a number for number and duration (seconds) columns, text otherwise,
    /// `null` when empty.
    public var value: JSONValue
    /// The value as a renderer shows it.
    public var display: String
    /// The row's position in the current order.
    public var index: Int

    public init(id: JSONValue, column: String, value: JSONValue, display: String, index: Int) {
        self.id = id
        self.column = column
        self.value = value
        self.display = display
        self.index = index
    }
}

/// A rejected input kept on a cell.
public struct DraftReply: Codable, Hashable, Sendable {
    /// What was typed.
    public var text: String
    /// Why it was rejected.
    public var error: String

    public init(text: String, error: String) {
        self.text = text
        self.error = error
    }
}

/// A row as `get` returns it.
public struct RowReply: Codable, Hashable, Sendable {
    public var id: JSONValue
    public var index: Int
    /// Stored values by column key (`null` when empty).
    public var values: [String: JSONValue]
    /// Display text by column key.
    public var display: [String: String]
    /// Rejected inputs by column key; absent when there are none.
    public var drafts: [String: DraftReply]?
    public var selected: Bool
    /// Keys of the row's read-only cells; absent when every cell can be edited.
    public var readOnly: [String]?
    /// 1 when just added, fading to 0 over 2 seconds; absent when 0.
    public var highlight: Double?

    public init(
        id: JSONValue,
        index: Int,
        values: [String: JSONValue],
        display: [String: String],
        drafts: [String: DraftReply]?,
        selected: Bool,
        readOnly: [String]?,
        highlight: Double?
    ) {
        self.id = id
        self.index = index
        self.values = values
        self.display = display
        self.drafts = drafts
        self.selected = selected
        self.readOnly = readOnly
        self.highlight = highlight
    }
}
