import DataTableClient
import DataTableProtocol
import Foundation
import Glibc
import Testing

/// Bounded replies and fonts nothing can wedge.
@Suite struct HardeningTests {
    /// Resident memory of the process `pid`, in bytes.
    static func residentBytes(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes * 1024
    }

    /// A batch of `get`s whose reply would pass the cap is refused before any of it is built;
    /// so is one `get` too wide for it.
    @Test(.tags(.slow)) func aReplyPastTheCapIsRefusedBeforeItIsBuilt() throws {
        let daemon = try TestDaemon(arguments: ["--max-reply-bytes", "4000000"])
        let client = try daemon.connect()
        let text = String(repeating: "t", count: 200)
        try client.send(
            CreateRequest(table: "wide", columns: [ColumnDefinition(key: "a"), ColumnDefinition(key: "b")])
        )
        for batch in 0..<10 {
            let rows: [JSONValue] = (0..<2000).map { ["a": .string("\(text)\(batch)-\($0)"), "b": .string("\($0)")] }
            #expect(try client.send(AddRequest(table: "wide", rows: rows)).rows == (batch + 1) * 2000)
        }
        let idle = try Self.residentBytes(daemon.process.pid)
        let get = GetRequest(table: "wide", from: 0, count: 10000)
        let started = ContinuousClock.now
        // A batch (a JSON array of requests), which no request type sends.
        let line = try LineConnection.line(for: get, id: 7)
        try client.send("[" + Array(repeating: line, count: 400).joined(separator: ",") + "]\n")
        let refused = try #require(try client.readLine())
        let elapsed = ContinuousClock.now - started
        let error = try #require(
            try JSONDecoder().decode(ReplyMessage.self, from: Data(refused.utf8)).error,
            "\(refused)"
        )
        #expect(error.kind == .limitExceeded && error.details["limit"] == "maxReplyBytes", "\(refused)")
        #expect(elapsed < .seconds(2), "refused after \(elapsed)")
        #expect(try Self.residentBytes(daemon.process.pid) < 2 * idle)
        // One get of 10,000 wide rows is past the cap too; 1,000 of them are not.
        #expect(try client.failure(get).kind == .limitExceeded)
        let fewer = try client.send(GetRequest(table: "wide", from: 0, count: 1000))
        #expect(fewer.rows.count == 1000)
    }

    /// A FIFO named as a font file is refused at once (only files in fontconfig's font
    /// directories are read as fonts), and nobody else waits meanwhile.
    @Test func aFIFONamedAsAFontIsRefusedAtOnce() throws {
        let home = try Scratch()
        defer { home.remove() }
        let fonts = home.file("fonts")
        try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: false)
        mkfifo(fonts + "/evil.ttf", 0o644)
        let daemon = try TestDaemon(arguments: ["--demo"])
        let layout = try daemon.connect()
        let pinger = try daemon.connect()
        // Sent without waiting for its reply: the ping on the other connection goes meanwhile.
        let request = LayoutRequest(
            table: "stock",
            width: 1024,
            settings: LayoutSettings(font: LayoutRequest.FontParam(file: "\(fonts)/evil.ttf"))
        )
        try layout.send(try LineConnection.line(for: request, id: 1) + "\n")
        let started = ContinuousClock.now
        #expect(try pinger.send(PingRequest(), id: 2).pong)
        #expect(ContinuousClock.now - started < .seconds(1))
        let reply = try #require(try layout.readLine(timeout: .seconds(5)), "the daemon closed the connection")
        let error = try #require(try JSONDecoder().decode(ReplyMessage.self, from: Data(reply.utf8)).error, "\(reply)")
        #expect(error.kind == .invalidParams, "\(reply)")
        #expect(error.message.contains("not in a font directory"), "\(reply)")
    }
}
