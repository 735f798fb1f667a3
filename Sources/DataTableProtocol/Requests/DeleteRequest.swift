/// `delete`: remove rows by `ids`, or the selected rows (`selection: true`). All or nothing.
public struct DeleteRequest: DataTableRequest {
    public static let method = "delete"
    public static let summary = "Delete rows by id or the selected rows."

    public var table: String
    public var ids: [JSONValue]?
    public var selection: Bool?

    public init(table: String, ids: [JSONValue]? = nil, selection: Bool? = nil) {
        self.table = table
        self.ids = ids
        self.selection = selection
    }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        public var version: Int
        public var deleted: Int
        /// Rows left.
        public var rows: Int

        public init(table: String, version: Int, deleted: Int, rows: Int) {
            self.table = table
            self.version = version
            self.deleted = deleted
            self.rows = rows
        }
    }
}
