import Foundation
import Glibc
import Testing

/// Framing, ordering and error handling as a client on the real socket sees them.
@Suite struct ConnectionTests {
    @Test func aShellRequestWithoutIDGetsAReply() throws {
        let daemon = try TestDaemon()
        let reply = try object(try daemon.request(#"{"method":"ping"}"#))
        #expect(reply["jsonrpc"] as? String == "2.0")
        #expect(reply["id"] is NSNull)
        #expect((reply["result"] as? [String: Any])?["pong"] as? Bool == true)
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        let count = 500
        let methods = ["ping", "stats", "help", "hello"]
        var burst = ""
        for id in 0..<count {
            burst += #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(methods[id % methods.count])"}"# + "\n"
        }
        try client.send(burst)
        for id in 0..<count {
            let reply = try object(try client.readLine())
            #expect(reply["id"] as? Int == id)
            #expect(reply["result"] != nil)
        }
    }

    /// Requests answered on the event loop and requests that run off it (create, sort, select
    /// all, a bulk edit, a large get) keep their order, with and without a state directory
    /// (where replies to changes wait for the log).
    @Test(arguments: [false, true])
    func requestsThatRunOffTheLoopKeepTheirPlaceInLine(logged: Bool) throws {
        let state = try Scratch()
        defer { state.remove() }
        let daemon = try TestDaemon(arguments: logged ? ["--state-dir", state.path] : [])
        let client = try daemon.connect()
        let rows = (0..<1500).map { #"{"n":\#($0),"name":"row \#($0)"}"# }.joined(separator: ",")
        let lines = [
            #"{"id":0,"method":"create","params":{"table":"t","key":"n","columns":[{"key":"n","type":"number"},{"key":"name"}]}}"#,
            #"{"id":1,"method":"ping"}"#,
            #"{"id":2,"method":"add","params":{"table":"t","rows":[\#(rows)]}}"#,
            #"{"id":3,"method":"edit","params":{"table":"t","id":5,"column":"name","value":"five"}}"#,
            #"{"id":4,"method":"sort","params":{"table":"t","keys":[{"column":"name","descending":true}]}}"#,
            #"{"id":5,"method":"get","params":{"table":"t","ids":[5],"columns":["name"]}}"#,
            #"{"id":6,"method":"select","params":{"table":"t","action":"all"}}"#,
            #"{"id":7,"method":"edit","params":{"table":"t","selection":true,"column":"name","value":"all"}}"#,
            #"{"id":8,"method":"get","params":{"table":"t","from":0,"count":1200}}"#,
            #"{"id":9,"method":"add","params":{"table":"t","row":{"n":-1,"name":"last"}}}"#,
            #"{"id":10,"method":"ping"}"#,
        ]
        try client.send(lines.joined(separator: "\n") + "\n")
        var replies: [[String: Any]] = []
        for _ in lines { replies.append(try object(try client.readLine())) }
        #expect(replies.map { $0["id"] as? Int } == Array(0...10).map { $0 })
        #expect(replies.allSatisfy { $0["error"] == nil }, "\(replies.filter { $0["error"] != nil })")
        let got = try #require((replies[5]["result"] as? [String: Any])?["rows"] as? [[String: Any]])
        #expect((got.first?["values"] as? [String: Any])?["name"] as? String == "five")
        #expect((replies[7]["result"] as? [String: Any])?["edited"] as? Int == 1500)
        #expect(((replies[8]["result"] as? [String: Any])?["rows"] as? [Any])?.count == 1200)
        #expect((replies[9]["result"] as? [String: Any])?["rows"] as? Int == 1501)
    }

    /// A client that sends its request and closes its side at once, before the daemon has even
    /// admitted the connection, still gets its reply.
    @Test func aRequestSentAndClosedAtOnceIsAnswered() throws {
        let daemon = try TestDaemon()
        for round in 0..<20 {
            let client = try daemon.connect()
            try client.send(#"{"id":\#(round),"method":"ping"}"# + "\n")
            client.shutdownWrite()
            let replies = try client.readAll()
            #expect(try replies.map { try object($0)["id"] as? Int } == [round])
        }
    }

    @Test func aLineSplitAcrossWritesIsOneRequest() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try client.send(#"{"jsonrpc":"2.0","id":1,"#)
        usleep(100_000)
        try client.send(#""method":"ping"}"# + "\r\n")
        let reply = try object(try client.readLine())
        #expect(reply["id"] as? Int == 1)
        #expect(reply["result"] != nil)
    }

    @Test func aLineSentByteByByteIsOneRequest() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        for byte in Array((#"{"id":"slow","method":"ping"}"# + "\n").utf8) {
            try client.send([byte])
        }
        #expect(try object(try client.readLine())["id"] as? String == "slow")
    }

    @Test func aHalfClosedClientStillGetsEveryReply() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try client.send(
            "{\"id\":1,\"method\":\"ping\"}\n{\"id\":2,\"method\":\"stats\"}\n{\"id\":3,\"method\":\"help\"}"
        )
        client.shutdownWrite()
        let replies = try client.readAll()
        #expect(try replies.map { try object($0)["id"] as? Int } == [1, 2, 3])
    }

    @Test func aHalfClosedClientGetsEveryByteOfALargeReply() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        let count = 5000
        let batch = (0..<count).map { #"{"id":\#($0),"method":"help"}"# }.joined(separator: ",")
        try client.send("[" + batch + "]\n")
        client.shutdownWrite()
        let replies = try client.readAll()
        #expect(replies.count == 1)
        let array = try JSONSerialization.jsonObject(with: Data((replies.first ?? "").utf8)) as? [[String: Any]]
        #expect(array?.count == count)
        #expect(array?.last?["id"] as? Int == count - 1)
    }

    @Test func badLinesGetErrorsAndTheConnectionStaysUsable() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        let lines = [
            "this is not json",
            "[1,2",
            "17",
            #"{"method":"no_such_method","id":1}"#,
            #"{"method":"hello","params":{"version":"1"},"id":2}"#,
            "",
            #"{"method":"ping","id":3}"#,
        ]
        try client.send(lines.joined(separator: "\n") + "\n")
        #expect(try errorKind(try client.readLine()) == "parse_error")
        #expect(try errorKind(try client.readLine()) == "parse_error")
        #expect(try errorKind(try client.readLine()) == "invalid_request")
        #expect(try errorKind(try client.readLine()) == "unknown_method")
        #expect(try errorKind(try client.readLine()) == "invalid_params")
        let last = try object(try client.readLine())
        #expect(last["id"] as? Int == 3)
        #expect(last["result"] != nil)
    }

    @Test func aStrictNotificationGetsNoReplyButAMalformedOneDoes() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        let lines = [
            #"{"jsonrpc":"2.0","method":"ping"}"#,
            #"{"jsonrpc":"2.0","method":7}"#,
            #"{"jsonrpc":"2.0","id":9,"method":"ping"}"#,
        ]
        try client.send(lines.joined(separator: "\n") + "\n")
        let malformed = try client.readLine()
        #expect(try errorKind(malformed) == "invalid_request")
        #expect(try object(malformed)["id"] is NSNull)
        #expect(try object(try client.readLine())["id"] as? Int == 9)
    }

    @Test func aBatchGetsOneArrayOfReplies() throws {
        let daemon = try TestDaemon()
        let line = try daemon.request(
            #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","id":2,"method":"nope"}]"#
        )
        let replies = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
        #expect(replies.count == 2)
        #expect(replies[0]["id"] as? Int == 1)
        #expect(replies[1]["id"] as? Int == 2)
        #expect(replies[1]["error"] != nil)
    }

    @Test func anOverlongLineGetsOneErrorThenTheConnectionCloses() throws {
        let daemon = try TestDaemon(arguments: ["--max-line-bytes", "64"])
        let client = try daemon.connect()
        try client.send(#"{"id":1,"method":"ping"}"# + "\n" + String(repeating: "x", count: 10_000) + "\n")
        #expect(try object(try client.readLine())["id"] as? Int == 1)
        let refusal = try client.readLine()
        #expect(try errorKind(refusal) == "limit_exceeded")
        let data = try #require(((try object(refusal))["error"] as? [String: Any])?["data"] as? [String: Any])
        #expect(data["limit"] as? String == "maxLineBytes")
        #expect(try client.readAll().isEmpty)
        // The daemon itself is fine.
        #expect(try object(try daemon.request(#"{"method":"ping"}"#))["result"] != nil)
    }

    @Test func aClientThatLeavesMidReplyHurtsNobody() throws {
        let daemon = try TestDaemon()
        for _ in 0..<5 {
            let rude = try daemon.connect()
            try rude.send(String(repeating: #"{"method":"help"}"# + "\n", count: 2000))
            // Closed without reading a single reply.
        }
        let reply = try object(try daemon.request(#"{"id":1,"method":"stats"}"#))
        #expect(reply["result"] != nil)
        #expect(daemon.process.process.isRunning)
    }

    @Test func helpAndVersionPrintAndExitCleanly() throws {
        for flag in ["--help", "-h"] {
            let help = try run(BuiltProducts.daemon, [flag])
            #expect(help.status == 0, "datatabled \(flag): \(help.output)")
            #expect(help.output.contains("USAGE: datatabled"))
            #expect(help.output.contains("--socket"))
        }
        let version = try run(BuiltProducts.daemon, ["--version"])
        #expect(version.status == 0)
        #expect(version.output.split(separator: "\n").count == 1)
    }

    @Test func limitsOutOfRangeAreRefusedAtStart() throws {
        for flag in ["--max-line-bytes", "--max-connections", "--max-batch-size"] {
            for value in ["0", "9223372036854775807"] {
                let result = try run(BuiltProducts.daemon, ["--socket", "/tmp/never.sock", flag, value])
                #expect(result.status != 0)
                #expect(result.output.contains("\(flag) must be from 1 to"))
            }
        }
    }

    @Test func connectionsOverTheLimitAreRefusedWithAReason() throws {
        let daemon = try TestDaemon(arguments: ["--max-connections", "1"])
        // The start-up probe's connection may not have been closed on the daemon's side yet.
        var first = try daemon.connect()
        for _ in 0..<100 {
            try first.send(#"{"id":1,"method":"ping"}"# + "\n")
            if try errorKind(try first.readLine()) == nil { break }
            usleep(20_000)
            first = try daemon.connect()
        }
        let second = try daemon.connect()
        let refusal = try second.readLine()
        #expect(try errorKind(refusal) == "limit_exceeded")
        #expect(try second.readAll().isEmpty)
        // The first connection is untouched.
        try first.send(#"{"id":2,"method":"stats"}"# + "\n")
        let stats = try #require(try object(try first.readLine())["result"] as? [String: Any])
        let connections = try #require(stats["connections"] as? [String: Any])
        #expect(connections["current"] as? Int == 1)
        #expect((connections["refused"] as? Int ?? 0) >= 1)
    }

    @Test func statsReportsTheDaemon() throws {
        let daemon = try TestDaemon()
        let stats = try #require(try object(try daemon.request(#"{"method":"stats"}"#))["result"] as? [String: Any])
        #expect(stats["pid"] as? Int == Int(daemon.process.pid))
        #expect(stats["tables"] as? Int == 0)
        #expect(stats["rows"] as? Int == 0)
        #expect(((stats["memory"] as? [String: Any])?["residentBytes"] as? Int ?? 0) > 1_000_000)
    }
}
