/// `drop`: remove a table and its rows.
public struct DropRequest: DataTableRequest {
    public static let method = "drop"
    public static let summary = "Remove a table and all its rows."

    public var table: String

    public init(table: String) { self.table = table }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        public var dropped: Bool
        /// Rows the table held.
        public var rows: Int

        public init(table: String, dropped: Bool, rows: Int) {
            self.table = table
            self.dropped = dropped
            self.rows = rows
        }
    }
}
