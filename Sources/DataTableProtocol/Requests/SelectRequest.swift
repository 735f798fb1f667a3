/// `select`: change the selection or its mode.
///
/// `action` is `set` (the default), `add`, `remove` or `toggle` with `ids` or a range (`from`,
/// `count`), or `all` / `none`. `mode` (`none`, `single`, `multiple`) switches the mode first.
public struct SelectRequest: DataTableRequest {
    public static let method = "select"
    public static let summary =
        "Set, add, remove or toggle selected rows by id or index range; select all or none; set the mode."

    public var table: String
    public var action: String?
    public var ids: [JSONValue]?
    public var from: Int?
    public var count: Int?
    public var mode: String?

    public init(
        table: String,
        action: String? = nil,
        ids: [JSONValue]? = nil,
        from: Int? = nil,
        count: Int? = nil,
        mode: String? = nil
    ) {
        self.table = table
        self.action = action
        self.ids = ids
        self.from = from
        self.count = count
        self.mode = mode
    }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        public var version: Int
        /// Rows selected now.
        public var count: Int
        public var mode: String

        public init(table: String, version: Int, count: Int, mode: String) {
            self.table = table
            self.version = version
            self.count = count
            self.mode = mode
        }
    }
}

extension SelectRequest: ReadableParams {
    public init?(reading reader: inout ParamsReader) {
        var table: String?
        var action: String?
        var ids: [JSONValue]?
        var from: Int?
        var count: Int?
        var mode: String?
        let read = reader.object { reader, key in
            switch key {
            case "table": reader.first(0) && reader.optional(&table) { $0.string() }
            case "action": reader.first(1) && reader.optional(&action) { $0.string() }
            case "ids": reader.first(2) && reader.optional(&ids) { $0.array { $0.value() } }
            case "from": reader.first(3) && reader.optional(&from) { $0.int() }
            case "count": reader.first(4) && reader.optional(&count) { $0.int() }
            case "mode": reader.first(5) && reader.optional(&mode) { $0.string() }
            default: false
            }
        }
        guard read, let table else { return nil }
        self.init(table: table, action: action, ids: ids, from: from, count: count, mode: mode)
    }
}
