import MemberwiseInit

/// `filter`: narrow this connection's view of a table to the rows that meet conditions and
/// contain a search text; the view's `scroll` then shows only them.
@MemberwiseInit
public struct FilterRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "filter"
    /// The line `help` shows for the method.
    public static let summary =
        "Narrow this connection's view of a table to rows meeting conditions and containing a search text."

    /// The table's name.
    public var table: String
    /// The conditions, every one of which a row must meet; replaces the view's. An empty list
    /// clears them; absent keeps them.
    public var `where`: [FilterConditionParam]?
    /// Text that the display text of one of the row's cells must contain, ignoring case;
    /// replaces the view's. Empty clears it; absent keeps it.
    public var search: String?

    /// The `result` of a `filter`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version (a filter changes no data).
        public var version: Int
        /// Rows in the table.
        public var total: Int
        /// Rows the view shows now.
        public var shown: Int
        /// The view's conditions, as set.
        public var `where`: [FilterConditionParam]
        /// The view's search text; empty for none.
        public var search: String
        /// The filter in words for a filter feedback bar ("qty ≥ 100 · rack is A1, B2"); empty
        /// when the view shows every row.
        public var filter: String
        /// What the view lost since it last heard, before this filter was set: conditions and
        /// sections on columns dropped meanwhile.
        public var lost: ViewLost?
    }
}

/// One condition of a `filter`: a column, an operator and the values it compares with, read as
/// the column's type (numbers as numbers, dates as days).
@MemberwiseInit
public struct FilterConditionParam: Codable, Hashable, Sendable {
    /// The column's key.
    public var column: String
    /// `=`, `≠`, `<`, `≤`, `>`, `≥` (or `==`, `!=`, `<=`, `>=`), `between`, `in`, `contains`,
    /// `startsWith`, `empty`, `notEmpty`.
    public var op: FilterOp
    /// The value compared with, for every operator but `between`, `in`, `empty` and `notEmpty`.
    public var value: JSONValue?
    /// The values: two for `between` (lowest first, both included), one or more for `in`.
    public var values: [JSONValue]?
}

/// What a connection's view lost since it last heard: the owner (or anyone allowed) dropped
/// columns it filtered or grouped by (`alter`, or an `undo` or `redo` that takes a column out).
/// Such a change is never held up by a view: the view loses that part, and its next `scroll` or
/// `filter` reply says so in `lost`, once.
public struct ViewLost: Codable, Hashable, Sendable {
    /// The dropped columns' keys.
    public var columns: [String]
    /// The view's conditions that went with them, as the view had set them; absent when none.
    public var `where`: [FilterConditionParam]?
    /// The column the view's sections were by, when they went.
    public var sections: String?

    /// What was lost.
    public init(columns: [String], where conditions: [FilterConditionParam]? = nil, sections: String? = nil) {
        self.columns = columns
        self.where = conditions
        self.sections = sections
    }
}
