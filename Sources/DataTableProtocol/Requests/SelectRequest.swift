import MemberwiseInit

/// `select`: change the selection or its mode.
///
/// `action` is `set` (the default), `add`, `remove` or `toggle` with `ids` or a range (`from`,
/// `count`), or `all` / `none`. `mode` (`none`, `single`, `multiple`) switches the mode first.
@MemberwiseInit
public struct SelectRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "select"
    /// The line `help` shows for the method.
    public static let summary =
        "Set, add, remove or toggle selected rows by id or index range; select all or none; set the mode."

    /// The table's name.
    public var table: String
    /// `set`, `add`, `remove`, `toggle`, `all` or `none` (another is `invalid_value`); absent: `set`, or only
    /// the mode change when `mode` comes without `ids` or `from`.
    public var action: SelectionAction?
    /// The rows to act on, by id (not with `from`); an unknown id is `no_such_row`.
    public var ids: [JSONValue]?
    /// The first position, in the current order, of the rows to act on (not with `ids`); 0 to the row count,
    /// else `invalid_value`.
    public var from: Int?
    /// How many rows from `from` (default 1); a negative count, or a range running past the last row,
    /// is `invalid_value`.
    public var count: Int?
    /// `none`, `single` or `multiple`: the selection mode to switch to first; another is `invalid_value`.
    public var mode: RowSelectionMode?
    /// Only if the table is still at this version (the `version` of the reply or event the
    /// client last saw): otherwise `conflict`, with the table's version in
    /// `data.version`, and nothing changes.
    public var ifVersion: Int?
    /// Select within this connection's view of the table: a range (`from`, `count`) counts the
    /// rows its filter shows (`filter`), and `all` is every row it shows.
    public var view: Bool?

    /// The `result` of a `select`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version after the request.
        public var version: Int
        /// Rows selected now.
        public var count: Int
        /// The selection mode now: `none`, `single` or `multiple`.
        public var mode: RowSelectionMode
    }
}

extension SelectRequest: ReadableParams {
    /// The params read straight from their bytes; `nil` leaves them to `JSONDecoder`.
    public init?(reading reader: inout ParamsReader) {
        var table: String?
        var action: SelectionAction?
        var ids: [JSONValue]?
        var from: Int?
        var count: Int?
        var mode: RowSelectionMode?
        var ifVersion: Int?
        var view: Bool?
        let read = reader.object { reader, key in
            switch key {
            case "table": reader.first(0) && reader.optional(&table) { $0.string() }
            case "action": reader.first(1) && reader.optional(&action) { $0.choice() }
            case "ids": reader.first(2) && reader.optional(&ids) { $0.array { $0.value() } }
            case "from": reader.first(3) && reader.optional(&from) { $0.int() }
            case "count": reader.first(4) && reader.optional(&count) { $0.int() }
            case "mode": reader.first(5) && reader.optional(&mode) { $0.choice() }
            case "ifVersion": reader.first(6) && reader.optional(&ifVersion) { $0.int() }
            case "view": reader.first(7) && reader.optional(&view) { $0.bool() }
            default: false
            }
        }
        guard read, let table else { return nil }
        self.init(
            table: table,
            action: action,
            ids: ids,
            from: from,
            count: count,
            mode: mode,
            ifVersion: ifVersion,
            view: view
        )
    }
}
