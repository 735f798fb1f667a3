import MemberwiseInit

/// `attach`: a table whose rows come from a source the administrator configured (a PostgreSQL
/// database, `--source NAME=URL`): a relation's rows, or a read-only query's, kept current as
/// they change there; changes to it are made in the source first.
@MemberwiseInit
public struct AttachRequest: DataTableRequest {
    /// The method name on the wire: `"attach"`.
    public static let method = "attach"
    /// The line `help` shows for `attach`.
    public static let summary =
        "Make a table of a configured source's relation or query, kept current; changes go to the source first."

    /// The new table's name.
    public var table: String
    /// The configured source's name (`hello` lists them); never a URL.
    public var source: String
    /// The relation, `schema.table` or `table` (in the search path): its rows, and its changes
    /// written back. One of `relation` and `query`.
    public var relation: String?
    /// A query the source runs read-only: the table is read-only. One of `relation` and `query`.
    public var query: String?
    /// The key column: the relation's primary key by default (a query must name one).
    public var key: String?
    /// The columns to take, in this order (default: all of them).
    public var columns: [String]?
    /// The table's mode, as `create` takes it.
    public var mode: String?

    /// Names one of `relation` and `query`; a query names its key.
    public func validate() throws(ResponseError) {
        guard (relation == nil) != (query == nil) else {
            throw .invalidParams("Name a relation (relation) or a query (query), not both.", field: "params.relation")
        }
        if query != nil, key == nil {
            throw .invalidParams("A query's table needs its key column (key).", field: "params.key")
        }
    }

    /// What was attached.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version.
        public var version: Int
        /// Rows read from the source.
        public var rows: Int
        /// The source's name.
        public var source: String
        /// The key column.
        public var key: String
        /// Whether the table takes changes (a relation) or not (a query).
        public var readOnly: Bool
        /// The columns and the source's type of each: `[{"key","type","sourceType"}]`.
        public var columns: [Column]
    }

    /// A column as attached.
    @MemberwiseInit
    public struct Column: Codable, Hashable, Sendable {
        /// The column's key (the source's column name).
        public var key: String
        /// The daemon's type for it.
        public var type: String
        /// The type the source gives the column (`integer`, `numeric(10,2)`, `text` …).
        public var sourceType: String
    }
}
