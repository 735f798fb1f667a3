import DataTableProtocol

/// An export's reply may hold the text of a million rows: written straight into bytes.
extension ExportRequest.Response: DirectJSON {
    func write(to writer: inout JSONWriter) {
        // The text, a little more for escapes, and the members around it.
        if let text { writer.reserve(text.utf8.count + text.utf8.count / 16 + 256) }
        writer.beginObject()
        writer.member("bytes", ifPresent: bytes)
        writer.member("chunks", ifPresent: chunks)
        writer.member("format", format)
        writer.member("path", ifPresent: path)
        writer.member("rows", rows)
        writer.member("table", table)
        writer.member("text", ifPresent: text)
        writer.member("version", version)
        writer.endObject()
    }
}
