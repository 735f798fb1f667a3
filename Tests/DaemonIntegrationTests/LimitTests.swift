import Foundation
import Testing

/// Configured limits and the peer allow-list, against the real daemon: each refusal is a clear
/// error naming the limit, and changes nothing.
@Suite struct LimitTests {
    @Test func tablesBeyondTheLimitAreRefused() throws {
        let daemon = try TestDaemon(arguments: ["--max-tables", "2"])
        let client = try daemon.connect()
        try client.call("create", numberedTableText("a", count: 1))
        try client.call("create", numberedTableText("b", count: 1))
        let refused = errorData(try client.call("create", numberedTableText("c", count: 1)))
        #expect(refused["kind"] as? String == "limit_exceeded" && refused["limit"] as? String == "maxTables")
        let load = errorData(try client.call("load", #"{"table":"d","format":"csv","text":"x\n1\n"}"#))
        #expect(load["limit"] as? String == "maxTables")
        #expect((try client.call("tables")["tables"] as? [Any])?.count == 2)
        #expect(
            try object(daemon.request(#"{"method":"hello"}"#))["result"].map { "\($0)" }?.contains("maxTables") == true
        )
    }

    @Test func rowsBeyondTheLimitAreRefusedWhole() throws {
        let daemon = try TestDaemon(arguments: ["--max-rows", "5"])
        let client = try daemon.connect()
        #expect(errorData(try client.call("create", numberedTableText("big", count: 6)))["limit"] as? String == "maxRows")
        try client.call("create", numberedTableText("feed", count: 3))
        let rows = (10..<13).map { #"{"n":\#($0)}"# }.joined(separator: ",")
        let refused = errorData(try client.call("add", #"{"table":"feed","rows":[\#(rows)]}"#))
        #expect(refused["kind"] as? String == "limit_exceeded" && refused["limit"] as? String == "maxRows")
        #expect(refused["max"] as? Int == 5)
        let load = errorData(try client.call("load", #"{"table":"feed","format":"csv","text":"n\n1\n2\n3\n"}"#))
        #expect(load["limit"] as? String == "maxRows")
        #expect(try client.call("describe", #"{"table":"feed"}"#)["rows"] as? Int == 3)
        #expect(try client.call("add", #"{"table":"feed","rows":[{"n":1},{"n":2}]}"#)["rows"] as? Int == 5)
    }

    /// Over its memory budget the daemon refuses to grow, and still reads, edits and deletes.
    @Test func overTheMemoryBudgetNothingGrows() throws {
        let daemon = try TestDaemon(arguments: ["--demo", "--max-memory-bytes", "1000000"])
        let client = try daemon.connect()
        let refused = errorData(try client.call("add", #"{"table":"stock","row":{"item":"Bolt"}}"#))
        #expect(refused["kind"] as? String == "limit_exceeded" && refused["limit"] as? String == "maxMemoryBytes")
        #expect(
            errorData(try client.call("create", numberedTableText("more", count: 1)))["limit"] as? String
                == "maxMemoryBytes"
        )
        #expect(try client.call("describe", #"{"table":"stock"}"#)["rows"] as? Int == 10)
        #expect(try client.call("delete", #"{"table":"stock","ids":[1]}"#)["rows"] as? Int == 9)
    }

    /// This test runs as some user; a daemon told to serve another refuses it with one line and
    /// says so in its log; told to serve this user (or its group), it serves.
    @Test func onlyAllowedPeersAreServed() throws {
        let strangers = try TestDaemon(arguments: ["--allow-uid", "4242", "--allow-group", "4243"])
        let refused = try strangers.connect()
        let line = try object(try refused.readLine())
        let error = try #require(line["error"] as? [String: Any])
        #expect((error["data"] as? [String: Any])?["kind"] as? String == "not_permitted")
        #expect(try refused.readLine() == nil)
        #expect(strangers.process.waitForOutput(containing: "not among the allowed users and groups"))

        let me = try TestDaemon(arguments: ["--allow-uid", "\(getuid())"])
        #expect(try object(me.request(#"{"method":"ping"}"#))["result"] != nil)
        let myGroup = try TestDaemon(arguments: ["--allow-uid", "4242", "--allow-group", "\(getgid())"])
        #expect(try object(myGroup.request(#"{"method":"ping"}"#))["result"] != nil)
    }
}
