import MemberwiseInit

/// `drop`: remove a table and its rows.
public struct DropRequest: DataTableRequest {
    /// The method name on the wire: `"drop"`.
    public static let method = "drop"
    /// The line `help` shows for `drop`.
    public static let summary = "Remove a table and all its rows."

    /// The table to drop; only its owner, root or the daemon's own user may (`permission_denied`).
    public var table: String

    /// Params naming the table.
    public init(table: String) { self.table = table }

    /// The dropped table's name and how many rows it held.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// Always `true`: a table that is not there is `no_such_table` instead.
        public var dropped: Bool
        /// Rows the table held.
        public var rows: Int
    }
}
