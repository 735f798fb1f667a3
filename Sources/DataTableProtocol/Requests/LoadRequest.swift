/// `load`: add rows from CSV or NDJSON, read from `path`, given as `text`, or sent before with
/// `upload` (`upload: true`). All or nothing.
///
/// A missing table is created: from `columns` when given, else with column types inferred from
/// the data. While a large load runs, the daemon sends `progress` notifications on the same
/// connection.
public struct LoadRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "load"
    /// The line `help` shows for the method.
    public static let summary = "Load CSV or NDJSON from a file or inline text, with a schema or inferred types."

    /// The table to add the rows to; created when there is none (then 1–128 characters, no control characters).
    public var table: String
    /// `csv` or `ndjson`; absent takes the path's extension, else `csv`.
    public var format: DataFileFormat?
    /// A file the peer may name (see protocol.md, "Files").
    public var path: String?
    /// The CSV or NDJSON text itself, in the request.
    public var text: String?
    /// Load the text sent for this table with `upload` on this connection.
    public var upload: Bool?
    /// The schema for a new table (else types are inferred).
    public var columns: [ColumnDefinition]?
    /// The key column of a new table.
    public var key: String?
    /// The sort of a new table.
    public var sort: [SortKeyParam]?
    /// The mode of a new table, as `chmod` writes it ("0640"); absent means `--table-mode`.
    public var mode: String?
    /// `true`: the rows become exactly the loaded ones, as one change (a refresh); rows whose key
    /// was there keep their ids, selection and drafts. Only for a table that exists.
    public var replace: Bool?
    /// Into a table that exists: only if it is still at this version (the `version` of the
    /// reply or event the client last saw): otherwise `conflict`, with the table's version in
    /// `data.version`, and nothing changes.
    public var ifVersion: Int?

    /// Params with every member given; the optional ones may be left out (give one of `path`, `text`, `upload`).
    public init(
        table: String,
        format: DataFileFormat? = nil,
        path: String? = nil,
        text: String? = nil,
        upload: Bool? = nil,
        columns: [ColumnDefinition]? = nil,
        key: String? = nil,
        sort: [SortKeyParam]? = nil,
        mode: String? = nil,
        replace: Bool? = nil,
        ifVersion: Int? = nil
    ) {
        self.ifVersion = ifVersion
        self.replace = replace
        self.upload = upload
        self.table = table
        self.format = format
        self.path = path
        self.text = text
        self.columns = columns
        self.key = key
        self.sort = sort
        self.mode = mode
    }

    /// The `result` of a `load`.
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version after the load.
        public var version: Int
        /// Whether the load created the table.
        public var created: Bool
        /// Rows the load added.
        public var added: Int
        /// Rows in the table now.
        public var rows: Int
        /// The table's columns (with inferred types when the load created it).
        public var columns: [ColumnDefinition]
        /// With `replace`: rows whose key was there before (same ids); `added` counts the new
        /// ones.
        public var kept: Int?
        /// With `replace`: rows whose key is not among the loaded rows, now gone.
        public var removed: Int?

        /// A reply with every member given.
        public init(
            table: String,
            version: Int,
            created: Bool,
            added: Int,
            rows: Int,
            columns: [ColumnDefinition],
            kept: Int? = nil,
            removed: Int? = nil
        ) {
            self.kept = kept
            self.removed = removed
            self.table = table
            self.version = version
            self.created = created
            self.added = added
            self.rows = rows
            self.columns = columns
        }
    }
}

/// The params of a `progress` notification the daemon sends while a `load` runs.
public struct LoadProgress: Codable, Hashable, Sendable {
    /// The `id` of the `load` request.
    public var request: RequestID?
    /// The table being loaded.
    public var table: String
    /// Records read so far and in all.
    public var done: Int
    /// Records in the text in all.
    public var total: Int

    /// Progress params with every member given.
    public init(request: RequestID?, table: String, done: Int, total: Int) {
        self.request = request
        self.table = table
        self.done = done
        self.total = total
    }
}
