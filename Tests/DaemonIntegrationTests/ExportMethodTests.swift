import DataTableClient
import DataTableProtocol
import Foundation
import Glibc
import Testing

/// `export` in its three forms over the real socket: in the reply, to a file, streamed in
/// `chunk` notifications; the last two load back into the same table.
@Suite struct ExportMethodTests {
    /// A table whose text needs quoting, large enough for several chunks and to be exported
    /// off the table's lock.
    static func makeTable(_ client: UnixClient, rows: Int) throws {
        try client.send(
            CreateRequest(
                table: "t",
                columns: [ColumnDefinition(key: "n", type: .number), ColumnDefinition(key: "name")],
                rows: (0..<rows).map {
                    ["n": .integer(Int64($0)), "name": .string("item \($0), \"quoted\"\nline two")]
                }
            )
        )
    }

    @Test(.tags(.slow)) func anExportToAFileLoadsBackTheSame() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try Self.makeTable(client, rows: 12_000)
        let inReply = try #require(try client.send(ExportRequest(table: "t")).text)
        let path = daemon.scratch.file("out.csv")
        // Something already at the name is replaced whole.
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let written = try client.send(ExportRequest(table: "t", path: path))
        #expect(written.rows == 12_000 && written.path == path, "\(written)")
        #expect(written.text == nil)
        let onDisk = try String(contentsOfFile: path, encoding: .utf8)
        #expect(onDisk == inReply)
        #expect(written.bytes == onDisk.utf8.count)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        // No temporary file is left beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: daemon.scratch.path).filter { $0.hasSuffix(".export") }
                .isEmpty
        )

        let loaded = try client.send(LoadRequest(table: "copy", path: path))
        #expect(loaded.rows == 12_000, "\(loaded)")
        let copy = try #require(try client.send(ExportRequest(table: "copy")).text)
        #expect(copy == inReply)
    }

    @Test(.tags(.slow)) func aStreamedExportArrivesInChunksThatLoadBack() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try Self.makeTable(client, rows: 12_000)
        let inReply = try #require(try client.send(ExportRequest(table: "t", format: .ndjson)).text)
        // Sent as a line, so that the chunks before the reply are read too.
        let request = ExportRequest(table: "t", format: .ndjson, stream: true)
        try client.send(try LineConnection.line(for: request, id: 7) + "\n")
        var text = ""
        var chunks: [ExportChunk] = []
        var reply: ExportRequest.Response
        while true {
            let line = try #require(try client.readLine())
            if LineConnection.isReply(line) {
                let message = try JSONDecoder().decode(ReplyMessage.self, from: Data(line.utf8))
                reply = try decoded(ExportRequest.Response.self, from: try #require(message.result, "\(line)"))
                break
            }
            let notification = try JSONDecoder().decode(Notification<ExportChunk>.self, from: Data(line.utf8))
            #expect(notification.method == "chunk")
            let chunk = try #require(notification.params, "\(line.prefix(200))")
            #expect(chunk.request == 7 && chunk.total == 12_000)
            #expect(chunk.text.hasSuffix("\n"), "a chunk ends at a row's end")
            text += chunk.text
            chunks.append(chunk)
        }
        #expect(chunks.count > 1, "12,000 rows come in more than one chunk")
        #expect(chunks.last?.done == 12_000)
        let done = chunks.map(\.done)
        #expect(done == done.sorted())
        #expect(reply.chunks == chunks.count && reply.rows == 12_000 && reply.text == nil)
        #expect(reply.bytes == text.utf8.count)
        #expect(text == inReply)

        let path = daemon.scratch.file("streamed.ndjson")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let loaded = try client.send(LoadRequest(table: "copy", path: path))
        #expect(loaded.rows == 12_000, "\(loaded)")
        let copy = try client.send(ExportRequest(table: "copy", format: .ndjson)).text
        #expect(copy == inReply)
    }

    @Test func badExportTargetsAreRefusedAndWriteNothing() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try Self.makeTable(client, rows: 3)
        let relative = try client.failure(ExportRequest(table: "t", path: "out.csv"))
        #expect(relative.details["field"] == "params.path")
        let directory = try client.failure(ExportRequest(table: "t", path: daemon.scratch.path))
        #expect(directory.kind == .invalidValue)
        let missing = try client.failure(ExportRequest(table: "t", path: "/nonexistent-dir/out.csv"))
        #expect(missing.kind == .invalidValue)
        let fifo = daemon.scratch.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let toFIFO = try client.failure(ExportRequest(table: "t", path: fifo))
        #expect(toFIFO.kind == .invalidValue)
        let both = try client.failure(ExportRequest(table: "t", path: "/tmp/x.csv", stream: true))
        #expect(both.kind == .invalidParams)
    }
}
