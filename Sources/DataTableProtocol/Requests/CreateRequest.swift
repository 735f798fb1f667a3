import MemberwiseInit

/// `create`: make a table from column definitions, optionally with rows and a sort.
@MemberwiseInit
public struct CreateRequest: DataTableRequest {
    /// The method name on the wire: `"create"`.
    public static let method = "create"
    /// The line `help` shows for `create`.
    public static let summary = "Create a table from columns, with optional rows, key column, sort and selection mode."

    /// The new table's name: 1 to 128 characters, no control characters (`invalid_value`);
    /// a name in use is `already_exists`.
    public var table: String
    /// The columns, in order: at least one, keys unique; a bad definition is `invalid_value` with
    /// `data.field` naming it.
    public var columns: [ColumnDefinition]
    /// The column whose values are the row ids; absent means the daemon numbers rows 1, 2, 3, …
    public var key: String?
    /// Rows as objects of column key → value.
    public var rows: [JSONValue]?
    /// Sort keys, first key first; absent keeps rows in the table's own order (as given).
    public var sort: [SortKeyParam]?
    /// Cells are read-only unless a column, row or cell says otherwise.
    public var readOnly: Bool?
    /// `none`, `single` or `multiple` (the default).
    public var selection: RowSelectionMode?
    /// Who besides the owner may read and change the table, as `chmod` writes it ("0640");
    /// absent means the daemon's `--table-mode` (0660 unless set).
    public var mode: String?
    /// The most rows the table keeps, for logs and live feeds: adding past it drops the oldest
    /// (the first in the table's own order), and events say which; absent: no limit.
    public var limit: Int?

    /// The new table's name, version and row count.
    public typealias Response = TableVersion
}

/// A table's name, version and row count: what most changes reply with.
@MemberwiseInit
public struct TableVersion: Codable, Hashable, Sendable {
    /// The table's name.
    public var table: String
    /// The table's version after the change.
    public var version: Int
    /// Rows in the table after the change.
    public var rows: Int
}
