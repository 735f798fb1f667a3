import MemberwiseInit

/// `upload`: send a file's text in pieces, for a `load` with `upload: true` on the same
/// connection. How a client loads a file the daemon may not read, or one longer than a request
/// line: each piece within `maxLineBytes`, kept until the load (or the connection) ends.
@MemberwiseInit
public struct UploadRequest: DataTableRequest, Hashable {
    /// The `method` string on the wire.
    public static let method = "upload"
    /// The line `help` shows for the method.
    public static let summary = "Send text to load in pieces (then load with upload: true)."

    /// The table the text is for.
    public var table: String
    /// The next piece of the text (whole characters; pieces are joined as they are).
    public var text: String

    /// The `result` of an `upload`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name, as given.
        public var table: String
        /// Bytes of text held for the table on this connection so far.
        public var bytes: Int
    }
}

/// Pieces of a file come by the hundred: read straight from the bytes.
extension UploadRequest: ReadableParams {
    /// The params read straight from their bytes; `nil` leaves them to `JSONDecoder`.
    public init?(reading reader: inout ParamsReader) {
        var table: String?
        var text: String?
        let read = reader.object { reader, key in
            switch key {
            case "table": reader.first(0) && reader.optional(&table) { $0.string() }
            case "text": reader.first(1) && reader.optional(&text) { $0.string() }
            default: false
            }
        }
        guard read, let table, let text else { return nil }
        self.init(table: table, text: text)
    }
}
