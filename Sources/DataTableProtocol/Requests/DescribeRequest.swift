import MemberwiseInit

/// `describe`: a table's columns, key, sort, selection mode and counts.
public struct DescribeRequest: DataTableRequest {
    /// The method name on the wire: `"describe"`.
    public static let method = "describe"
    /// The line `help` shows for `describe`.
    public static let summary = "Describe a table: columns, key, sort, selection mode, counts, version."

    /// The table to describe; the peer needs read (`permission_denied`).
    public var table: String

    /// Params naming the table.
    public init(table: String) { self.table = table }

    /// The table's columns, settings, counts and access, as they are now.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The columns in order, as `create` takes them; `label` and `type` are always given.
        public var columns: [ColumnDefinition]
        /// The key column, whose values are the row ids; absent when the daemon numbers the rows.
        public var key: String?
        /// The sort keys, first key first; empty when rows keep the table's own order.
        public var sort: [SortKeyParam]
        /// The table's own read-only setting (columns, rows and cells may say otherwise).
        public var readOnly: Bool
        /// The selection mode: `none`, `single` or `multiple`.
        public var selection: RowSelectionMode
        /// Rows in the table.
        public var rows: Int
        /// Rows selected.
        public var selected: Int
        /// Cells holding a rejected draft.
        public var errors: Int
        /// The table's version.
        public var version: Int
        /// Whether `undo` has a change to take back.
        public var canUndo: Bool
        /// Whether `redo` has an undone change to make again.
        public var canRedo: Bool
        /// The owner's user id, the table's group and its mode (four octal digits, as `chmod`
        /// takes them).
        public var owner: Int?
        /// The table's group id (see `owner`).
        public var group: Int?
        /// The table's mode as four octal digits, like "0660" (see `owner`).
        public var mode: String?
        /// The most rows the table keeps (its oldest go past it); absent when there is no limit.
        public var limit: Int?
        /// Where an attached table's rows come from; absent for any other table.
        public var source: Source?
    }

    /// An attached table's source, as `describe` gives it.
    @MemberwiseInit
    public struct Source: Codable, Hashable, Sendable {
        /// The source's name.
        public var name: String
        /// The relation (`schema.table`), for a relation's table.
        public var relation: String?
        /// The query, for a query's table.
        public var query: String?
        /// Whether the source is out of reach: changes made there may not have reached the
        /// table, and changes to it are refused until it is back.
        public var stale: Bool
    }
}
