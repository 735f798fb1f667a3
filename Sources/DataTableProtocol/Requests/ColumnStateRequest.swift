/// `columnState`: keep a view's column arrangement (hidden columns, widths, order) under a name
/// in the table, restore it into this connection's view, delete it, or list the names (AG Grid's
/// column state, kept by the daemon so a renderer can restore a person's arrangement).
public struct ColumnStateRequest: DataTableRequest {
    /// The method name on the wire: `"columnState"`.
    public static let method = "columnState"
    /// The line `help` shows for `columnState`.
    public static let summary = "Save a column arrangement under a name, restore one into this view, or list them."

    /// The table; saving and deleting need write, restoring and listing read.
    public var table: String
    /// The arrangement's name: 1 to 128 characters, no control characters. Alone, restores the
    /// arrangement into this connection's view (an unknown name is `invalid_value`); absent,
    /// the reply lists the names.
    public var name: String?
    /// With `name`: the arrangement to keep under it (replacing one of that name).
    public var save: ColumnState?
    /// With `name`: forget the arrangement of that name.
    public var delete: Bool?
    /// With `save` or `delete`: only if the table is still at this version: otherwise
    /// `conflict`, with the table's version in `data.version`, and nothing changes.
    public var ifVersion: Int?

    /// Params with every member given; the optional ones may be left out.
    public init(
        table: String,
        name: String? = nil,
        save: ColumnState? = nil,
        delete: Bool? = nil,
        ifVersion: Int? = nil
    ) {
        self.ifVersion = ifVersion
        self.table = table
        self.name = name
        self.save = save
        self.delete = delete
    }

    /// The names kept, and the arrangement saved or restored.
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version (after a save or delete).
        public var version: Int
        /// The names of the arrangements kept, sorted.
        public var names: [String]
        /// The arrangement saved or restored; absent when listing or deleting.
        public var state: ColumnState?

        /// A reply with every member given.
        public init(table: String, version: Int, names: [String], state: ColumnState? = nil) {
            self.table = table
            self.version = version
            self.names = names
            self.state = state
        }
    }
}

/// A view's column arrangement: what `layout` and `scroll` take as `columns` and `columnOrder`.
public struct ColumnState: Codable, Hashable, Sendable {
    /// Layout hints by column key (`hidden`, `width`, …).
    public var columns: [String: ColumnHints]?
    /// The columns shown first, in this order.
    public var columnOrder: [String]?

    /// An arrangement with every member given; each may be left out.
    public init(columns: [String: ColumnHints]? = nil, columnOrder: [String]? = nil) {
        self.columns = columns
        self.columnOrder = columnOrder
    }
}
