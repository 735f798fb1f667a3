/// `tables`: list the tables the peer may read, with their row counts and owners.
public struct TablesRequest: ParameterlessRequest {
    public static let method = "tables"
    public static let summary =
        "List the tables you may read, with row counts, versions, selection, error counts and owners."

    public init() {}

    public struct Response: Codable, Hashable, Sendable {
        public var tables: [Summary]

        public init(tables: [Summary]) { self.tables = tables }
    }

    /// One table in the list.
    public struct Summary: Codable, Hashable, Sendable {
        public var name: String
        public var rows: Int
        public var columns: Int
        public var version: Int
        public var selected: Int
        /// Cells holding a rejected draft.
        public var errors: Int
        /// The owner's user id, the table's group and its mode (as `chmod` takes it).
        public var owner: Int?
        public var group: Int?
        public var mode: String?

        public init(
            name: String,
            rows: Int,
            columns: Int,
            version: Int,
            selected: Int,
            errors: Int,
            owner: Int? = nil,
            group: Int? = nil,
            mode: String? = nil
        ) {
            self.name = name
            self.rows = rows
            self.columns = columns
            self.version = version
            self.selected = selected
            self.errors = errors
            self.owner = owner
            self.group = group
            self.mode = mode
        }
    }
}
