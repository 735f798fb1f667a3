import MemberwiseInit

/// `sort`: order rows by `keys` (stable, typed); no keys returns to the table's own order.
@MemberwiseInit
public struct SortRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "sort"
    /// The line `help` shows for the method.
    public static let summary = "Sort by one or more columns (stable, typed); no keys returns to insertion order."

    /// The table's name.
    public var table: String
    /// The sort keys, first key first; absent or empty returns to the table's own order. An unknown column is
    /// `invalid_value` naming it (`params.keys[i].column`).
    public var keys: [SortKeyParam]?
    /// Only if the table is still at this version (the `version` of the reply or event the
    /// client last saw): otherwise `conflict`, with the table's version in
    /// `data.version`, and nothing changes.
    public var ifVersion: Int?

    /// The `result` of a `sort`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version after the sort.
        public var version: Int
        /// The sort keys now, each with `descending` given; empty when the table is in its own order.
        public var keys: [SortKeyParam]
    }
}
