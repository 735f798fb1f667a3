/// `revert`: drop rejected drafts: of one cell (`id`, `column`), one row (`id`), one column
/// (`column`) or the whole table.
public struct RevertRequest: DataTableRequest {
    public static let method = "revert"
    public static let summary = "Clear rejected drafts of a cell, a row, a column or the whole table."

    public var table: String
    public var id: JSONValue?
    public var column: String?

    public init(table: String, id: JSONValue? = nil, column: String? = nil) {
        self.table = table
        self.id = id
        self.column = column
    }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        public var version: Int
        /// Drafts cleared.
        public var cleared: Int
        /// Drafts left in the table.
        public var errors: Int

        public init(table: String, version: Int, cleared: Int, errors: Int) {
            self.table = table
            self.version = version
            self.cleared = cleared
            self.errors = errors
        }
    }
}
