import MemberwiseInit

/// `get`: rows by `ids`, or `count` rows from position `from` of the current order, with values,
/// display text, drafts and state.
@MemberwiseInit
public struct GetRequest: DataTableRequest {
    /// The method name on the wire: `"get"`.
    public static let method = "get"
    /// The line `help` shows for `get`.
    public static let summary = "Read rows by id or by index range, with values, display text, drafts and state."

    /// The most rows one `get` returns.
    public static let maximumCount = 10_000

    /// The table to read; the peer needs read (`permission_denied`).
    public var table: String
    /// The rows to read by id, instead of `from` and `count`; at most 10,000 (`limit_exceeded`),
    /// and an unknown id is `no_such_row`.
    public var ids: [JSONValue]?
    /// First position (default 0).
    public var from: Int?
    /// How many rows (default 100, at most 10000).
    public var count: Int?
    /// Only these columns' values (default: every column).
    public var columns: [String]?
    /// Read this connection's view of the table: `from`, `count` and each row's `index` count
    /// the rows its filter shows (`filter`), and an id it leaves out is `invalid_value`.
    public var view: Bool?

    /// The rows asked for, with the table's counts.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version the rows were read at.
        public var version: Int
        /// Rows in the table.
        public var total: Int
        /// Cells holding a rejected draft in the table.
        public var errors: Int
        /// The rows in the order of `ids`, or from `from` in the current order (none past the end).
        public var rows: [RowReply]
    }
}

extension GetRequest: ReadableParams {
    /// Reads the params straight from the bytes; `nil` leaves them to `JSONDecoder`.
    public init?(reading reader: inout ParamsReader) {
        var table: String?
        var ids: [JSONValue]?
        var from: Int?
        var count: Int?
        var columns: [String]?
        var view: Bool?
        let read = reader.object { reader, key in
            switch key {
            case "table": reader.first(0) && reader.optional(&table) { $0.string() }
            case "ids": reader.first(1) && reader.optional(&ids) { $0.array { $0.value() } }
            case "from": reader.first(2) && reader.optional(&from) { $0.int() }
            case "count": reader.first(3) && reader.optional(&count) { $0.int() }
            case "columns": reader.first(4) && reader.optional(&columns) { $0.strings() }
            case "view": reader.first(5) && reader.optional(&view) { $0.bool() }
            default: false
            }
        }
        guard read, let table else { return nil }
        self.init(table: table, ids: ids, from: from, count: count, columns: columns, view: view)
    }
}
