/// `describe`: a table's columns, key, sort, selection mode and counts.
public struct DescribeRequest: DataTableRequest {
    public static let method = "describe"
    public static let summary = "Describe a table: columns, key, sort, selection mode, counts, version."

    public var table: String

    public init(table: String) { self.table = table }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        public var columns: [ColumnDefinition]
        public var key: String?
        public var sort: [SortKeyParam]
        public var readOnly: Bool
        public var selection: String
        public var rows: Int
        public var selected: Int
        public var errors: Int
        public var version: Int
        public var canUndo: Bool
        public var canRedo: Bool
        /// The owner's user id, the table's group and its mode (four octal digits, as `chmod`
        /// takes them).
        public var owner: Int?
        public var group: Int?
        public var mode: String?

        public init(
            table: String,
            columns: [ColumnDefinition],
            key: String?,
            sort: [SortKeyParam],
            readOnly: Bool,
            selection: String,
            rows: Int,
            selected: Int,
            errors: Int,
            version: Int,
            canUndo: Bool,
            canRedo: Bool,
            owner: Int? = nil,
            group: Int? = nil,
            mode: String? = nil
        ) {
            self.table = table
            self.columns = columns
            self.key = key
            self.sort = sort
            self.readOnly = readOnly
            self.selection = selection
            self.rows = rows
            self.selected = selected
            self.errors = errors
            self.version = version
            self.canUndo = canUndo
            self.canRedo = canRedo
            self.owner = owner
            self.group = group
            self.mode = mode
        }
    }
}
