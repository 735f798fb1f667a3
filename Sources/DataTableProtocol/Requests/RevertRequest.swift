import MemberwiseInit

/// `revert`: drop rejected drafts: of one cell (`id`, `column`), one row (`id`), one column
/// (`column`) or the whole table.
@MemberwiseInit
public struct RevertRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "revert"
    /// The line `help` shows for the method.
    public static let summary = "Clear rejected drafts of a cell, a row, a column or the whole table."

    /// The table's name.
    public var table: String
    /// The row whose drafts to drop; absent: every row's. An unknown id is `no_such_row`.
    public var id: JSONValue?
    /// The column whose drafts to drop; absent: every column's. An unknown key is `no_such_column`.
    public var column: String?
    /// Only if the table is still at this version (the `version` of the reply or event the
    /// client last saw): otherwise `conflict`, with the table's version in
    /// `data.version`, and nothing changes.
    public var ifVersion: Int?

    /// The `result` of a `revert`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version now; it goes up only when a draft was cleared.
        public var version: Int
        /// Drafts cleared.
        public var cleared: Int
        /// Drafts left in the table.
        public var errors: Int
    }
}
