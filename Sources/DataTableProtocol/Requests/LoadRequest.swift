import MemberwiseInit

/// `load`: add rows from CSV, NDJSON or a JSON array, read from `path`, given as `text`, or sent before with
/// `upload` (`upload: true`). All or nothing.
///
/// A missing table is created: from `columns` when given, else with column types inferred from
/// the data. While a large load runs, the daemon sends `progress` notifications on the same
/// connection.
@MemberwiseInit
public struct LoadRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "load"
    /// The line `help` shows for the method.
    public static let summary = "Load CSV, NDJSON or JSON from a file or inline text, with a schema or inferred types."

    /// The table to add the rows to; created when there is none (then 1–128 characters, no control characters).
    public var table: String
    /// `csv`, `ndjson` or `json`; absent takes the path's extension, else the text's first character.
    public var format: DataFileFormat?
    /// A file the peer may name (see protocol.md, "Files").
    public var path: String?
    /// The CSV, NDJSON or JSON text itself, in the request.
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
    /// For a new table: the locale (`en-US`, `en-GB`, `de`, …) whose order of day and month reads
    /// dates like 01/02/2024, which the values alone leave open; without it they stay text.
    public var locale: String?
    /// `true`: the rows become exactly the loaded ones, as one change (a refresh); rows whose key
    /// was there keep their ids, selection and drafts. Only for a table that exists.
    public var replace: Bool?
    /// Into a table that exists: only if it is still at this version (the `version` of the
    /// reply or event the client last saw): otherwise `conflict`, with the table's version in
    /// `data.version`, and nothing changes.
    public var ifVersion: Int?

    /// The `result` of a `load`.
    @MemberwiseInit
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
        /// When the load created the table: its date columns whose values are written in a form
        /// other than `YYYY-MM-DD` (`"YYYY/MM/DD"`, `"DD.MM.YYYY"`, `"DD/MM/YYYY"`,
        /// `"MM/DD/YYYY"`), by key; they show their dates in that form.
        public var dateForms: [String: String]?
    }
}

/// The params of a `progress` notification the daemon sends while a `load` runs.
@MemberwiseInit
public struct LoadProgress: Codable, Hashable, Sendable {
    /// The `id` of the `load` request.
    public var request: RequestID?
    /// The table being loaded.
    public var table: String
    /// Records read so far and in all.
    public var done: Int
    /// Records in the text in all.
    public var total: Int
}
