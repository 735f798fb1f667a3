import DataTableProtocol
import Foundation
import Testing

/// Configured limits and the peer allow-list, against the real daemon: each refusal is a clear
/// error naming the limit, and changes nothing.
@Suite struct LimitTests {
    @Test func tablesBeyondTheLimitAreRefused() throws {
        let daemon = try TestDaemon(arguments: ["--max-tables", "2"])
        let client = try daemon.connect()
        try client.send(numberedTable("a", count: 1))
        try client.send(numberedTable("b", count: 1))
        let refused = try client.failure(numberedTable("c", count: 1))
        #expect(refused.kind == .limitExceeded && refused.details["limit"] == "maxTables")
        let load = try client.failure(LoadRequest(table: "d", format: .csv, text: "x\n1\n"))
        #expect(load.details["limit"] == "maxTables")
        #expect(try client.send(TablesRequest()).tables.count == 2)
        #expect(try daemon.connect().send(HelloRequest()).limits.maxTables == 2)
    }

    @Test func rowsBeyondTheLimitAreRefusedWhole() throws {
        let daemon = try TestDaemon(arguments: ["--max-rows", "5"])
        let client = try daemon.connect()
        #expect(try client.failure(numberedTable("big", count: 6)).details["limit"] == "maxRows")
        try client.send(numberedTable("feed", count: 3))
        let rows: [JSONValue] = (10..<13).map { ["n": .integer(Int64($0))] }
        let refused = try client.failure(AddRequest(table: "feed", rows: rows))
        #expect(refused.kind == .limitExceeded && refused.details["limit"] == "maxRows")
        #expect(refused.details["max"] == 5)
        let load = try client.failure(LoadRequest(table: "feed", format: .csv, text: "n\n1\n2\n3\n"))
        #expect(load.details["limit"] == "maxRows")
        #expect(try client.send(DescribeRequest(table: "feed")).rows == 3)
        #expect(try client.send(AddRequest(table: "feed", rows: [["n": 1], ["n": 2]])).rows == 5)
    }

    /// Over its memory budget the daemon refuses to grow, and still reads, edits and deletes.
    @Test func overTheMemoryBudgetNothingGrows() throws {
        let daemon = try TestDaemon(arguments: ["--demo", "--max-memory-bytes", "1000000"])
        let client = try daemon.connect()
        let refused = try client.failure(AddRequest(table: "stock", row: ["item": "Bolt"]))
        #expect(refused.kind == .limitExceeded && refused.details["limit"] == "maxMemoryBytes")
        #expect(try client.failure(numberedTable("more", count: 1)).details["limit"] == "maxMemoryBytes")
        #expect(try client.send(DescribeRequest(table: "stock")).rows == 10)
        #expect(try client.send(DeleteRequest(table: "stock", ids: [1])).rows == 9)
    }

    /// This test runs as some user; a daemon told to serve another refuses it with one line and
    /// says so in its log; told to serve this user (or its group), it serves.
    @Test func onlyAllowedPeersAreServed() throws {
        let strangers = try TestDaemon(arguments: ["--allow-uid", "4242", "--allow-group", "4243"])
        let refused = try strangers.connect()
        // The refusal comes unasked, as the connection's first line.
        let line = try #require(try refused.readLine())
        let reply = try JSONDecoder().decode(ReplyMessage.self, from: Data(line.utf8))
        #expect(reply.error?.kind == .notPermitted, "\(line)")
        #expect(try refused.readLine() == nil)
        #expect(strangers.process.waitForOutput(containing: "not among the allowed users and groups"))

        let me = try TestDaemon(arguments: ["--allow-uid", "\(getuid())"])
        #expect(try me.connect().send(PingRequest()).pong)
        let myGroup = try TestDaemon(arguments: ["--allow-uid", "4242", "--allow-group", "\(getgid())"])
        #expect(try myGroup.connect().send(PingRequest()).pong)
    }
}
