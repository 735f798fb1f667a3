import MemberwiseInit

/// `alter`: change a table's columns and settings as one change: new definitions, renames,
/// dropped and added columns, the table's read-only setting and row limit. Undo takes it back.
@MemberwiseInit
public struct AlterRequest: DataTableRequest {
    /// The method name on the wire: `"alter"`.
    public static let method = "alter"
    /// The line `help` shows for `alter`.
    public static let summary = "Add, drop, rename or redefine columns, or change read-only, as one change."

    /// The table to change; the peer needs write (`permission_denied`).
    public var table: String
    /// New definitions of existing columns, by key, replacing each whole (label, constraints,
    /// `editable`, picker options, layout hints): the type stays. New constraints must hold for
    /// every stored value, or the change is refused (`invalid_value`, the first 100 listed).
    public var change: [ColumnDefinition]?
    /// Columns to rename: the key now → the new key (a label that was the key follows it).
    public var rename: [String: String]?
    /// Keys of columns to drop: not the key column or a sort key. Views never hold a drop up: one
    /// that filters or groups by the column loses that part and is told (`lost`).
    public var drop: [String]?
    /// Columns to add (definitions as `create` takes them), after the last column.
    public var add: [ColumnDefinition]?
    /// The value every existing row gets in an added column, by the column's key (absent: empty).
    public var values: [String: JSONValue]?
    /// The table's own read-only setting.
    public var readOnly: Bool?
    /// The most rows the table keeps, dropping the oldest past it (0: no limit); a table above
    /// it drops its oldest rows now, in the same change.
    public var limit: Int?
    /// `true`: stored values that break a column's new constraints stay, each with a draft
    /// saying why (fixed one by one with `edit`), instead of refusing the change.
    public var keepAsDrafts: Bool?
    /// Only if the table is still at this version (the `version` of the reply or event the
    /// client last saw): otherwise `conflict`, with the table's version in `data.version`, and
    /// nothing changes.
    public var ifVersion: Int?

    /// The columns now, and what changed.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version after the change.
        public var version: Int
        /// The keys of the table's columns now, in order.
        public var columns: [String]
        /// What changed: keys added, dropped, renamed (`[old, new]`) and redefined.
        public var altered: SchemaChangeReply
        /// With `keepAsDrafts`: cells whose values break their column's new constraints, now
        /// holding a draft; absent when none.
        public var drafts: Int?
        /// Cells holding a draft in the table, when `drafts` is given.
        public var errors: Int?
    }
}

/// What a change of columns did (`alter`, or its `undo` or `redo`); lists left out are empty.
public struct SchemaChangeReply: Codable, Hashable, Sendable {
    /// Keys of the columns added.
    public var added: [String]?
    /// Keys of the columns dropped.
    public var dropped: [String]?
    /// Columns renamed, each `[old key, new key]`.
    public var renamed: [[String]]?
    /// Keys of the columns given a new definition.
    public var changed: [String]?
    /// The table's read-only setting, when it changed.
    public var readOnly: Bool?
    /// The table's row limit, when it changed (0: none).
    public var limit: Int?

    /// A reply with every member given; empty lists are left out.
    public init(
        added: [String] = [],
        dropped: [String] = [],
        renamed: [[String]] = [],
        changed: [String] = [],
        readOnly: Bool? = nil,
        limit: Int? = nil
    ) {
        self.limit = limit
        self.added = added.isEmpty ? nil : added
        self.dropped = dropped.isEmpty ? nil : dropped
        self.renamed = renamed.isEmpty ? nil : renamed
        self.changed = changed.isEmpty ? nil : changed
        self.readOnly = readOnly
    }
}
