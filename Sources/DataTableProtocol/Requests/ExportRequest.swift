import MemberwiseInit

/// `export`: the rows (or only the selected ones) as CSV, NDJSON or a JSON array, in the current order; in the
/// reply, to a file, or streamed in `chunk` notifications.
@MemberwiseInit
public struct ExportRequest: DataTableRequest {
    /// The method name on the wire: `"export"`.
    public static let method = "export"
    /// The line `help` shows for `export`.
    public static let summary =
        "Export all or the selected rows as CSV, NDJSON or JSON, in the current order: in the reply, to a file, or streamed."

    /// The table to export; the peer needs read (`permission_denied`).
    public var table: String
    /// `csv` (the default), `ndjson`, or `json` (one array of objects).
    public var format: DataFileFormat?
    /// Only the selected rows.
    public var selection: Bool?
    /// Write the text to this file (an absolute path) instead of the reply: a new file of mode
    /// 0600 that takes the name's place whole, or not at all.
    public var path: String?
    /// Send the text in `chunk` notifications ahead of the reply instead of in it (not with
    /// `path`).
    public var stream: Bool?

    /// Export this connection's view of the table: only the rows its filter shows (`filter`),
    /// in order.
    public var view: Bool?

    /// What was exported: the text itself, or where it went.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table version the export shows: it is written from a copy taken at that version.
        public var version: Int
        /// The format written: `csv`, `ndjson` or `json`.
        public var format: DataFileFormat
        /// Rows exported (a CSV header line not counted).
        public var rows: Int
        /// The exported text, when it is neither written to a file nor streamed.
        public var text: String?
        /// The file written, for `path`.
        public var path: String?
        /// Bytes written to the file or streamed, for `path` and `stream`.
        public var bytes: Int?
        /// `chunk` notifications sent, for `stream`.
        public var chunks: Int?
    }
}

/// A piece of a streamed `export`, sent as a `chunk` notification ahead of the reply. The texts
/// of every chunk, in order, are the export; each ends at the end of a row.
@MemberwiseInit
public struct ExportChunk: Codable, Hashable, Sendable {
    /// The `id` of the `export` request.
    public var request: RequestID?
    /// The table being exported.
    public var table: String
    /// Rows written so far (this chunk's included) and in all.
    public var done: Int
    /// Rows the export holds in all: the table's rows, or its selected rows with `selection: true`.
    public var total: Int
    /// This chunk's text: whole lines, about 256 KiB (the last less); in CSV the first starts with the header.
    public var text: String
}
