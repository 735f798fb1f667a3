/// What one change did to a table, keyed by row id and column key: the record every structure
/// derived from the rows takes in, and what the table tells of its last change
/// (``Table/lastChange``).
///
/// A change set is complete: a row that came and went within the change appears in neither
/// list, and a cell set twice is listed once. A change too sweeping to list row by row (a sort,
/// a load, a `replace`, an alter, a large delete or edit) says so with `wholesale` instead.
public struct ChangeSet: Sendable, Hashable {
    /// The table's version before the change.
    public internal(set) var from: UInt64
    /// The table's version after it.
    public internal(set) var version: UInt64
    /// Rows that came into the table, in the order they came.
    public internal(set) var added: [RowID] = []
    /// Rows that left it.
    public internal(set) var removed: [RowID] = []
    /// Rows that stayed and were placed again in the current order (a sorted column edited, an
    /// undo putting a row back where it was); rows merely shifted by others coming or going are
    /// not listed.
    public internal(set) var moved: [RowID] = []
    /// Per column key, the rows that stayed whose cell in that column changed value.
    public internal(set) var cells: [String: [RowID]] = [:]
    /// Rows whose selection changed.
    public internal(set) var selection: [RowID] = []
    /// Rows whose drafts (rejected inputs) were set or cleared.
    public internal(set) var drafts: [RowID] = []
    /// The change was taken in as a whole: any row may have moved or changed. `moved` and
    /// `cells` are then empty, and rows added in bulk (a load) are not listed; `removed` still
    /// names the rows that went.
    public internal(set) var wholesale = false
    /// Columns were added, dropped or redefined.
    public internal(set) var schema = false

    /// A change set of nothing, at `version`.
    public init(at version: UInt64) {
        from = version
        self.version = version
    }

    /// Whether the change touched no row, cell, order or column.
    public var isEmpty: Bool {
        added.isEmpty && removed.isEmpty && moved.isEmpty && cells.isEmpty && selection.isEmpty
            && drafts.isEmpty && !wholesale && !schema
    }
}
