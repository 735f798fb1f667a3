import Foundation
import Glibc
import Testing

/// `export` in its three forms over the real socket: in the reply, to a file, streamed in
/// `chunk` notifications; the last two load back into the same table.
@Suite struct ExportMethodTests {
    /// A table whose text needs quoting, large enough for several chunks and to be exported
    /// off the table's lock.
    static func makeTable(_ client: UnixClient, rows: Int) throws {
        let rowsJSON = (0..<rows).map { #"{"n":\#($0),"name":"item \#($0), \"quoted\"\nline two"}"# }
        try client.call(
            "create",
            #"{"table":"t","columns":[{"key":"n","type":"number"},{"key":"name"}],"rows":[\#(rowsJSON.joined(separator: ","))]}"#
        )
    }

    @Test func anExportToAFileLoadsBackTheSame() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try Self.makeTable(client, rows: 12_000)
        let inReply = try #require(try client.call("export", #"{"table":"t"}"#)["text"] as? String)
        let path = daemon.scratch.file("out.csv")
        // Something already at the name is replaced whole.
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let written = try client.call("export", #"{"table":"t","path":"\#(path)"}"#)
        #expect(written["rows"] as? Int == 12_000 && written["path"] as? String == path, "\(written)")
        #expect(written["text"] == nil)
        let onDisk = try String(contentsOfFile: path, encoding: .utf8)
        #expect(onDisk == inReply)
        #expect(written["bytes"] as? Int == onDisk.utf8.count)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        // No temporary file is left beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: daemon.scratch.path).filter { $0.hasSuffix(".export") }
                .isEmpty
        )

        let loaded = try client.call("load", #"{"table":"copy","path":"\#(path)"}"#)
        #expect(loaded["rows"] as? Int == 12_000, "\(loaded)")
        let copy = try #require(try client.call("export", #"{"table":"copy"}"#)["text"] as? String)
        #expect(copy == inReply)
    }

    @Test func aStreamedExportArrivesInChunksThatLoadBack() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try Self.makeTable(client, rows: 12_000)
        let inReply = try #require(try client.call("export", #"{"table":"t","format":"ndjson"}"#)["text"] as? String)
        try client.send(
            #"{"jsonrpc":"2.0","id":7,"method":"export","params":{"table":"t","format":"ndjson","stream":true}}"# + "\n"
        )
        var text = ""
        var chunks: [[String: Any]] = []
        var reply: [String: Any] = [:]
        while true {
            let line = try object(try client.readLine())
            if line["id"] != nil {
                reply = try #require(line["result"] as? [String: Any], "\(line)")
                break
            }
            #expect(line["method"] as? String == "chunk")
            let params = try #require(line["params"] as? [String: Any])
            #expect(params["request"] as? Int == 7 && params["total"] as? Int == 12_000)
            let piece = try #require(params["text"] as? String)
            #expect(piece.hasSuffix("\n"), "a chunk ends at a row's end")
            text += piece
            chunks.append(params)
        }
        #expect(chunks.count > 1, "12,000 rows come in more than one chunk")
        #expect(chunks.last?["done"] as? Int == 12_000)
        let done = chunks.compactMap { $0["done"] as? Int }
        #expect(done == done.sorted())
        #expect(reply["chunks"] as? Int == chunks.count && reply["rows"] as? Int == 12_000 && reply["text"] == nil)
        #expect(reply["bytes"] as? Int == text.utf8.count)
        #expect(text == inReply)

        let path = daemon.scratch.file("streamed.ndjson")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let loaded = try client.call("load", #"{"table":"copy","path":"\#(path)"}"#)
        #expect(loaded["rows"] as? Int == 12_000, "\(loaded)")
        let copy = try client.call("export", #"{"table":"copy","format":"ndjson"}"#)["text"] as? String
        #expect(copy == inReply)
    }

    @Test func badExportTargetsAreRefusedAndWriteNothing() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try Self.makeTable(client, rows: 3)
        let relative = try client.call("export", #"{"table":"t","path":"out.csv"}"#)
        #expect(errorData(relative)["field"] as? String == "params.path")
        let directory = try client.call("export", #"{"table":"t","path":"\#(daemon.scratch.path)"}"#)
        #expect(errorData(directory)["kind"] as? String == "invalid_value")
        let missing = try client.call("export", #"{"table":"t","path":"/nonexistent-dir/out.csv"}"#)
        #expect(errorData(missing)["kind"] as? String == "invalid_value")
        let fifo = daemon.scratch.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let toFIFO = try client.call("export", #"{"table":"t","path":"\#(fifo)"}"#)
        #expect(errorData(toFIFO)["kind"] as? String == "invalid_value")
        let both = try client.call("export", #"{"table":"t","path":"/tmp/x.csv","stream":true}"#)
        #expect(errorData(both)["kind"] as? String == "invalid_params")
    }
}
