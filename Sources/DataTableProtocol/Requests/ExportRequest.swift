/// `export`: the rows (or only the selected ones) as CSV or NDJSON, in the current order.
public struct ExportRequest: DataTableRequest {
    public static let method = "export"
    public static let summary = "Export all or the selected rows as CSV or NDJSON text, in the current order."

    public var table: String
    /// `csv` (the default) or `ndjson`.
    public var format: String?
    /// Only the selected rows.
    public var selection: Bool?

    public init(table: String, format: String? = nil, selection: Bool? = nil) {
        self.table = table
        self.format = format
        self.selection = selection
    }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        public var version: Int
        public var format: String
        public var rows: Int
        public var text: String

        public init(table: String, version: Int, format: String, rows: Int, text: String) {
            self.table = table
            self.version = version
            self.format = format
            self.rows = rows
            self.text = text
        }
    }
}
