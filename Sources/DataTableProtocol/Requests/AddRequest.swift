import MemberwiseInit

/// `add`: one row (`row`) or a batch (`rows`), all or nothing.
///
/// A row is an object of column key → value; `"$readOnly": true` makes the row read-only,
/// `"$readOnlyCells": {"qty": true}` sets single cells, and `"$drillDown": false` takes the
/// drill-down chevron off the row.
@MemberwiseInit
public struct AddRequest: DataTableRequest {
    /// The method name on the wire: `"add"`.
    public static let method = "add"
    /// The line `help` shows for `add`.
    public static let summary =
        "Add one row or a batch; each lands where the sort puts it (else appends or goes at index)."

    /// The table to add to; the peer needs write (`permission_denied`).
    public var table: String
    /// One row: an object of column key → value (a string, a number or `null`); give `row` or `rows`,
    /// not both (`invalid_params`).
    public var row: JSONValue?
    /// A batch of row objects, added as one change; at most `maxBatchSize` (`limit_exceeded`).
    public var rows: [JSONValue]?
    /// Where to put the rows in an unsorted table; absent appends.
    public var index: Int?
    /// `true`: a row whose key is already in the table replaces that row (every value given; a
    /// column left out becomes empty) instead of being refused as a duplicate; the rest are
    /// added. Only for a table with a key column (`invalid_value`); not with `index`.
    public var upsert: Bool?
    /// Only if the table is still at this version (the `version` of the reply or event the
    /// client last saw): otherwise `conflict`, with the table's version in
    /// `data.version`, and nothing changes.
    public var ifVersion: Int?

    /// The table after the add, and where each new row landed.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version after the add.
        public var version: Int
        /// Rows in the table now.
        public var rows: Int
        /// One entry per new row, in the order the rows were given.
        public var added: [Added]
        /// With `upsert`: one entry per row that replaced one with its key, in the order given.
        public var replaced: [Replaced]?
    }

    /// A row an upsert replaced.
    @MemberwiseInit
    public struct Replaced: Codable, Hashable, Sendable {
        /// The row's id (its key).
        public var id: JSONValue
        /// The row's position in the current order once the whole batch is in.
        public var index: Int
    }

    /// Where one new row landed.
    @MemberwiseInit
    public struct Added: Codable, Hashable, Sendable {
        /// The row's id: its value in the key column, or the number the daemon gave it (1, 2, 3, …).
        public var id: JSONValue
        /// The row's position in the current order (0 is the first), once the whole batch is in.
        public var index: Int
        /// When it was added (ISO 8601, UTC); views highlight it for 2 seconds from then.
        public var addedAt: String
        /// The `viewport.y` that brings the row fully into view in the caller's view of the
        /// table (as little scrolling as needed); absent when the caller has no view.
        public var scrollTo: Int?
    }
}

extension AddRequest: ReadableParams {
    /// Reads the params straight from the bytes; `nil` leaves them to `JSONDecoder`.
    public init?(reading reader: inout ParamsReader) {
        var table: String?
        var row: JSONValue?
        var rows: [JSONValue]?
        var index: Int?
        var ifVersion: Int?
        let read = reader.object { reader, key in
            switch key {
            case "table": reader.first(0) && reader.optional(&table) { $0.string() }
            case "row": reader.first(1) && reader.optional(&row) { $0.value() }
            case "rows": reader.first(2) && reader.optional(&rows) { $0.array { $0.value() } }
            case "index": reader.first(3) && reader.optional(&index) { $0.int() }
            case "ifVersion": reader.first(4) && reader.optional(&ifVersion) { $0.int() }
            default: false
            }
        }
        guard read, let table else { return nil }
        self.init(table: table, row: row, rows: rows, index: index, ifVersion: ifVersion)
    }
}
