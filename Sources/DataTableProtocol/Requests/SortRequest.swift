/// `sort`: order rows by `keys` (stable, typed); no keys returns to the table's own order.
public struct SortRequest: DataTableRequest {
    public static let method = "sort"
    public static let summary = "Sort by one or more columns (stable, typed); no keys returns to insertion order."

    public var table: String
    public var keys: [SortKeyParam]?

    public init(table: String, keys: [SortKeyParam]? = nil) {
        self.table = table
        self.keys = keys
    }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        public var version: Int
        public var keys: [SortKeyParam]

        public init(table: String, version: Int, keys: [SortKeyParam]) {
            self.table = table
            self.version = version
            self.keys = keys
        }
    }
}
