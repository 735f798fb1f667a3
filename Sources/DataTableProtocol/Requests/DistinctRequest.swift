import MemberwiseInit

/// `distinct`: a column's different values with how many rows hold each, over the rows this
/// connection's view lets through by its other conditions (a set filter's pick list).
@MemberwiseInit
public struct DistinctRequest: DataTableRequest {
    /// The method name on the wire: `"distinct"`.
    public static let method = "distinct"
    /// The line `help` shows for `distinct`.
    public static let summary = "List a column's different values with how many rows hold each."

    /// The table.
    public var table: String
    /// The column whose values are listed.
    public var column: String
    /// Count only the rows this connection's view lets through by its search and its conditions
    /// on other columns (default `true`; `false`: every row).
    public var view: Bool?
    /// Only values whose text as shown starts with this, ignoring case.
    public var prefix: String?
    /// `value` (default: in the order a sort by the column gives, an empty cell first) or
    /// `count` (most rows first, then by value).
    public var order: DistinctOrder?
    /// The most values listed, 1 to 100000 (default 1000); `distinct` says how many there are.
    public var limit: Int?

    /// The values and their counts.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version the values were counted at.
        public var version: Int
        /// The column's key.
        public var column: String
        /// Rows counted: those the view lets through by its other conditions, or every row.
        public var rows: Int
        /// How many different values match `prefix`, listed or not.
        public var distinct: Int
        /// The values, in the order asked for.
        public var values: [DistinctValue]
    }

    /// One value and how many rows hold it.
    @MemberwiseInit
    public struct DistinctValue: Codable, Hashable, Sendable {
        /// The value, typed as the column's values are; `null` for empty cells.
        public var value: JSONValue
        /// The value as the column shows it ("" for empty cells).
        public var text: String
        /// Rows holding it.
        public var count: Int
    }
}

/// The order `distinct` lists values in.
public enum DistinctOrder: String, WireChoice {
    /// In the order a sort by the column gives.
    case value
    /// Most rows first, then by value.
    case count

    /// An unknown order is `invalid_params`.
    public static var unknownNameKind: ErrorKind { .invalidParams }
}
