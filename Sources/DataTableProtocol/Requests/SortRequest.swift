/// `sort`: order rows by `keys` (stable, typed); no keys returns to the table's own order.
public struct SortRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "sort"
    /// The line `help` shows for the method.
    public static let summary = "Sort by one or more columns (stable, typed); no keys returns to insertion order."

    /// The table's name.
    public var table: String
    /// The sort keys, first key first; absent or empty returns to the table's own order. An unknown column is
    /// `invalid_value` naming it (`params.keys[i].column`).
    public var keys: [SortKeyParam]?
    /// Only if the table is still at this version (the `version` of the reply or event the
    /// client last saw): otherwise `conflict`, with the table's version in
    /// `data.version`, and nothing changes.
    public var ifVersion: Int?

    /// Params with every member given; `keys` may be left out.
    public init(table: String, keys: [SortKeyParam]? = nil, ifVersion: Int? = nil) {
        self.ifVersion = ifVersion
        self.table = table
        self.keys = keys
    }

    /// The `result` of a `sort`.
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version after the sort.
        public var version: Int
        /// The sort keys now, each with `descending` given; empty when the table is in its own order.
        public var keys: [SortKeyParam]

        /// A reply with every member given.
        public init(table: String, version: Int, keys: [SortKeyParam]) {
            self.table = table
            self.version = version
            self.keys = keys
        }
    }
}
