import DataTableProtocol
import Foundation

/// `export`'s reply. The text of an export in the reply is kept as the pieces the engine wrote
/// and escaped straight from them into the reply line (a million rows are 35 MB: no string is
/// made of them); encoded with `JSONEncoder` it reads as ``ExportRequest/Response`` does.
struct ExportReply: Encodable, Sendable {
    var table: String
    var version: Int
    var format: DataFileFormat
    var rows: Int
    /// The exported text, when it is neither written to a file nor streamed.
    var text: [[UInt8]]?
    var path: String?
    var bytes: Int?
    var chunks: Int?

    func encode(to encoder: any Encoder) throws {
        try response.encode(to: encoder)
    }

    /// The reply as the protocol's typed response.
    var response: ExportRequest.Response {
        ExportRequest.Response(
            table: table,
            version: version,
            format: format,
            rows: rows,
            text: text.map { String(decoding: $0.joined(), as: UTF8.self) },
            path: path,
            bytes: bytes,
            chunks: chunks
        )
    }

    /// A `chunk` notification of a streamed export (``ExportChunk``), written straight from the
    /// chunk's bytes.
    static func chunkNotification(request: RequestID?, table: String, done: Int, total: Int, text: [UInt8]) -> Data {
        var writer = JSONWriter(capacity: text.count + text.count / 16 + 256)
        writer.beginNotification(method: "chunk")
        writer.raw(#"{"done":"#)
        writer.int(done)
        if let request {
            writer.raw(#","request":"#)
            writer.requestID(request)
        }
        writer.raw(#","table":"#)
        writer.string(table)
        writer.raw(#","text":"#)
        text.withUnsafeBufferPointer { writer.string(utf8: $0) }
        writer.raw(#","total":"#)
        writer.int(total)
        writer.raw("}}")
        return writer.data()
    }
}

extension ExportReply: DirectJSON {
    var expectedBytes: Int {
        // The text, with room for the escapes a CSV's quotes and newlines take.
        let text = text?.reduce(0) { $0 + $1.count } ?? 0
        return text + text / 16 + 512
    }

    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("bytes", ifPresent: bytes)
        writer.member("chunks", ifPresent: chunks)
        writer.member("format", format.rawValue)
        writer.member("path", ifPresent: path)
        writer.member("rows", rows)
        writer.member("table", table)
        if let text {
            writer.member("text")
            writer.string(pieces: text)
        }
        writer.member("version", version)
        writer.endObject()
    }
}
