import MemberwiseInit

/// `copy`: the selected rows as a reader sees them, for a clipboard — each shown column's
/// display text, whole, with the labels above — as tab-separated values, aligned plain text and
/// an HTML table (FUIContentCopyable).
@MemberwiseInit
public struct CopyRequest: DataTableRequest {
    /// The method name on the wire: `"copy"`.
    public static let method = "copy"
    /// The line `help` shows for `copy`.
    public static let summary =
        "Copy the selected rows' shown columns as displayed: tab-separated, plain text and HTML."

    /// The table to copy from; the peer needs read (`permission_denied`).
    public var table: String
    /// The keys of the columns to copy, in this order, instead of those this connection's view
    /// shows.
    public var columns: [String]?
    /// Copy as this connection's view shows the table (default true): only selected rows its
    /// filter lets through, and its hidden columns and column order; `false` copies every
    /// selected row in every column.
    public var view: Bool?

    /// What was copied, three ways.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version the rows were read at.
        public var version: Int
        /// How many rows were copied (the labels' line not counted).
        public var rows: Int
        /// The keys of the columns copied, in order.
        public var columns: [String]
        /// The labels, then each row, one line each, cells separated by tabs.
        public var tsv: String
        /// The same lines in columns padded to their widest text, two spaces apart.
        public var text: String
        /// An HTML `table`: the labels in `thead`, the rows in `tbody`.
        public var html: String
    }
}
