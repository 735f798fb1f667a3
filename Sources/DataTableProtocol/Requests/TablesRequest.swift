import MemberwiseInit

/// `tables`: list the tables the peer may read, with their row counts and owners.
public struct TablesRequest: ParameterlessRequest {
    /// The `method` string on the wire.
    public static let method = "tables"
    /// The line `help` shows for the method.
    public static let summary =
        "List the tables you may read, with row counts, versions, selection, error counts and owners."

    /// Params of `tables`: there are none.
    public init() {}

    /// The `result` of a `tables`.
    public struct Response: Codable, Hashable, Sendable {
        /// Every table the peer may read.
        public var tables: [Summary]

        /// A reply with its one member.
        public init(tables: [Summary]) { self.tables = tables }
    }

    /// One table in the list.
    @MemberwiseInit
    public struct Summary: Codable, Hashable, Sendable {
        /// The table's name.
        public var name: String
        /// Rows in the table.
        public var rows: Int
        /// How many columns the table has.
        public var columns: Int
        /// The table's version.
        public var version: Int
        /// Rows selected.
        public var selected: Int
        /// Cells holding a rejected draft.
        public var errors: Int
        /// The owner's user id, the table's group and its mode (as `chmod` takes it).
        public var owner: Int?
        /// The table's group id.
        public var group: Int?
        /// The table's mode: four octal digits of read and write bits (`"0660"`).
        public var mode: String?
    }
}
