/// `get`: rows by `ids`, or `count` rows from position `from` of the current order, with values,
/// display text, drafts and state.
public struct GetRequest: DataTableRequest {
    public static let method = "get"
    public static let summary = "Read rows by id or by index range, with values, display text, drafts and state."

    /// The most rows one `get` returns.
    public static let maximumCount = 10_000

    public var table: String
    public var ids: [JSONValue]?
    /// First position (default 0).
    public var from: Int?
    /// How many rows (default 100, at most 10000).
    public var count: Int?
    /// Only these columns' values (default: every column).
    public var columns: [String]?

    public init(
        table: String,
        ids: [JSONValue]? = nil,
        from: Int? = nil,
        count: Int? = nil,
        columns: [String]? = nil
    ) {
        self.table = table
        self.ids = ids
        self.from = from
        self.count = count
        self.columns = columns
    }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        public var version: Int
        /// Rows in the table.
        public var total: Int
        /// Cells holding a rejected draft in the table.
        public var errors: Int
        public var rows: [RowReply]

        public init(table: String, version: Int, total: Int, errors: Int, rows: [RowReply]) {
            self.table = table
            self.version = version
            self.total = total
            self.errors = errors
            self.rows = rows
        }
    }
}

extension GetRequest: ReadableParams {
    public init?(reading reader: inout ParamsReader) {
        var table: String?
        var ids: [JSONValue]?
        var from: Int?
        var count: Int?
        var columns: [String]?
        let read = reader.object { reader, key in
            switch key {
            case "table": reader.first(0) && reader.optional(&table) { $0.string() }
            case "ids": reader.first(1) && reader.optional(&ids) { $0.array { $0.value() } }
            case "from": reader.first(2) && reader.optional(&from) { $0.int() }
            case "count": reader.first(3) && reader.optional(&count) { $0.int() }
            case "columns": reader.first(4) && reader.optional(&columns) { $0.strings() }
            default: false
            }
        }
        guard read, let table else { return nil }
        self.init(table: table, ids: ids, from: from, count: count, columns: columns)
    }
}
