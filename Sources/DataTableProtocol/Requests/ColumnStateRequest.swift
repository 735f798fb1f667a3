import MemberwiseInit

/// `columnState`: keep a view's column arrangement (hidden columns, widths, order) under a name
/// in the table, restore it into this connection's view, delete it, or list the names (AG Grid's
/// column state, kept by the daemon so a renderer can restore a person's arrangement).
@MemberwiseInit
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

    /// The names kept, and the arrangement saved or restored.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version (after a save or delete).
        public var version: Int
        /// The names of the arrangements kept, sorted.
        public var names: [String]
        /// The arrangement saved or restored; absent when listing or deleting.
        public var state: ColumnState?
    }
}

/// A view's column arrangement: what `layout` and `scroll` take as `columns` and `columnOrder`.
@MemberwiseInit
public struct ColumnState: Codable, Hashable, Sendable {
    /// Layout hints by column key (`hidden`, `width`, …).
    public var columns: [String: ColumnHints]?
    /// The columns shown first, in this order.
    public var columnOrder: [String]?
}
