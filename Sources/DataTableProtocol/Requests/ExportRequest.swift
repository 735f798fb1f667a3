/// `export`: the rows (or only the selected ones) as CSV or NDJSON, in the current order; in the
/// reply, to a file, or streamed in `chunk` notifications.
public struct ExportRequest: DataTableRequest {
    /// The method name on the wire: `"export"`.
    public static let method = "export"
    /// The line `help` shows for `export`.
    public static let summary =
        "Export all or the selected rows as CSV or NDJSON, in the current order: in the reply, to a file, or streamed."

    /// The table to export; the peer needs read (`permission_denied`).
    public var table: String
    /// `csv` (the default) or `ndjson`.
    public var format: DataFileFormat?
    /// Only the selected rows.
    public var selection: Bool?
    /// Write the text to this file (an absolute path) instead of the reply: a new file of mode
    /// 0600 that takes the name's place whole, or not at all.
    public var path: String?
    /// Send the text in `chunk` notifications ahead of the reply instead of in it.
    public var stream: Bool?

    /// Export this connection's view of the table: only the rows its filter shows (`filter`),
    /// in order.
    public var view: Bool?

    /// Params with every member given; the optional ones may be left out (not both `path` and
    /// `stream: true`).
    public init(
        table: String,
        format: DataFileFormat? = nil,
        selection: Bool? = nil,
        path: String? = nil,
        stream: Bool? = nil,
        view: Bool? = nil
    ) {
        self.view = view
        self.table = table
        self.format = format
        self.selection = selection
        self.path = path
        self.stream = stream
    }

    /// What was exported: the text itself, or where it went.
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table version the export shows: it is written from a copy taken at that version.
        public var version: Int
        /// The format written: `csv` or `ndjson`.
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

        /// A reply with every member given; the optional ones may be left out.
        public init(
            table: String,
            version: Int,
            format: DataFileFormat,
            rows: Int,
            text: String? = nil,
            path: String? = nil,
            bytes: Int? = nil,
            chunks: Int? = nil
        ) {
            self.table = table
            self.version = version
            self.format = format
            self.rows = rows
            self.text = text
            self.path = path
            self.bytes = bytes
            self.chunks = chunks
        }
    }
}

/// A piece of a streamed `export`, sent as a `chunk` notification ahead of the reply. The texts
/// of every chunk, in order, are the export; each ends at the end of a row.
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

    /// A chunk with every member given.
    public init(request: RequestID?, table: String, done: Int, total: Int, text: String) {
        self.request = request
        self.table = table
        self.done = done
        self.total = total
        self.text = text
    }
}
