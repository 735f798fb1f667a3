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
    @Test func aReplyPastTheCapIsRefusedBeforeItIsBuilt() throws {
        let daemon = try TestDaemon(arguments: ["--max-reply-bytes", "4000000"])
        let client = try daemon.connect()
        let text = String(repeating: "t", count: 200)
        try client.send(
            #"{"id":1,"method":"create","params":{"table":"wide","columns":[{"key":"a"},{"key":"b"}]}}"# + "\n"
        )
        _ = try client.readLine()
        for batch in 0..<10 {
            let rows = (0..<2000).map { #"{"a":"\#(text)\#(batch)-\#($0)","b":"\#($0)"}"# }.joined(separator: ",")
            #expect(
                try client.call("add", #"{"table":"wide","rows":[\#(rows)]}"#)["rows"] as? Int == (batch + 1) * 2000
            )
        }
        let idle = try Self.residentBytes(daemon.process.pid)
        let get = #"{"jsonrpc":"2.0","id":7,"method":"get","params":{"table":"wide","from":0,"count":10000}}"#
        let started = ContinuousClock.now
        try client.send("[" + Array(repeating: get, count: 400).joined(separator: ",") + "]\n")
        let refused = try #require(try client.readLine())
        let elapsed = ContinuousClock.now - started
        #expect(try errorKind(refused) == "limit_exceeded" && refused.contains("maxReplyBytes"), "\(refused)")
        #expect(elapsed < .seconds(2), "refused after \(elapsed)")
        #expect(try Self.residentBytes(daemon.process.pid) < 2 * idle)
        // One get of 10,000 wide rows is past the cap too; 1,000 of them are not.
        try client.send(get + "\n")
        #expect(try errorKind(try client.readLine()) == "limit_exceeded")
        let fewer = try client.call("get", #"{"table":"wide","from":0,"count":1000}"#)
        #expect((fewer["rows"] as? [Any])?.count == 1000)
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
        try layout.send(
            #"{"id":1,"method":"layout","params":{"table":"stock","width":1024,"font":{"file":"\#(fonts)/evil.ttf"}}}"#
                + "\n"
        )
        let started = ContinuousClock.now
        try pinger.send(#"{"id":2,"method":"ping"}"# + "\n")
        #expect(try pinger.readLine(timeout: .seconds(2)) != nil)
        #expect(ContinuousClock.now - started < .seconds(1))
        let reply = try layout.readLine(timeout: .seconds(5))
        #expect(try errorKind(reply) == "invalid_params", "\(reply ?? "")")
        #expect(reply?.contains("not in a font directory") == true, "\(reply ?? "")")
    }
}
