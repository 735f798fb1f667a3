/// `tables`: list the tables with their row counts.
public struct TablesRequest: ParameterlessRequest {
    public static let method = "tables"
    public static let summary = "List the tables with row counts, versions, selection and error counts."

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

        public init(name: String, rows: Int, columns: Int, version: Int, selected: Int, errors: Int) {
            self.name = name
            self.rows = rows
            self.columns = columns
            self.version = version
            self.selected = selected
            self.errors = errors
        }
    }
}
