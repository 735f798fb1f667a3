import DataTableProtocol
import DataTableServer
import Foundation
import Logging
import Testing

@Suite struct DispatcherTests {
    /// Params decoded from the bytes the envelope scanner found, or from the whole line when
    /// the decoder read the envelope (a `\u` escape sends it there): the same replies, the same
    /// error fields.
    @Test(arguments: [
        #""params":{"version":"one"}"#,
        #""params":{"version":1,"client":7}"#,
        #""params":{"version":1}"#,
        #""params":{}"#,
        #""params":null"#,
    ])
    func paramsReadTheSameEitherWay(params: String) async throws {
        var client = InProcessClient()
        let scanned = try #require(await client.send(#"{"id":1,"method":"hello",\#(params)}"#))
        let decoded = try #require(await client.send(#"{"id":1,"method":"hello","note":"\u00e9",\#(params)}"#))
        #expect(scanned == decoded)
    }

    /// A misspelt or unknown param, at any depth, is refused naming it; nothing is ignored.
    @Test(arguments: [
        (#"{"method":"get","params":{"table":"t","cont":2}}"#, "params.cont", "Did you mean count?"),
        (#"{"method":"describe","params":{"tabel":"t","table":"t"}}"#, "params.tabel", "Did you mean table?"),
        (#"{"method":"ping","params":{"loud":true}}"#, "params.loud", "ping takes no params"),
        (
            #"{"method":"scroll","params":{"table":"t","unit":"cell","viewport":{"width":80,"height":5,"hieght":1}}}"#,
            "params.viewport.hieght", "Did you mean height?"
        ),
        (
            #"{"method":"create","params":{"table":"u","columns":[{"key":"a","typ":"number"}]}}"#,
            "params.columns[0].typ", "typ is not known"
        ),
    ])
    func anUnknownParamIsRefusedNamingIt(line: String, field: String, hint: String) async throws {
        var client = InProcessClient()
        _ = try await client.reply(#"{"method":"create","params":{"table":"t","columns":[{"key":"n"}]}}"#)
        let reply = try await client.reply(line)
        let error = try #require(reply["error"])
        #expect(error["data"]?["field"]?.stringValue == field)
        #expect(error["data"]?["kind"]?.stringValue == "invalid_params")
        #expect(error["message"]?.stringValue?.contains(hint) == true, "\(error)")
        // Known params given as null are fine.
        let fine = try await client.reply(#"{"method":"get","params":{"table":"t","count":null,"columns":null}}"#)
        #expect(fine["result"] != nil)
    }

    /// `help` of one method lists its params as the request type reads them.
    @Test func helpListsAMethodsParamsFromItsType() async throws {
        var client = InProcessClient()
        let get = try await client.reply(#"{"method":"help","params":{"method":"get"}}"#)
        let params = try #require(get["result"]?["methods"]?.arrayValue?.first?["params"]?.arrayValue)
        let described = params.map { param in
            "\(param["name"]?.stringValue ?? "") \(param["type"]?.stringValue ?? "") \(param["required"] == true)"
        }
        #expect(
            described == [
                "table string true", "ids array false", "from integer false", "count integer false",
                "columns array false", "view boolean false",
            ]
        )
        let scroll = try await client.reply(#"{"method":"help","params":{"method":"scroll"}}"#)
        let scrollParams = scroll["result"]?["methods"]?.arrayValue?.first?["params"]?.arrayValue
        let viewport = scrollParams?.first { $0["name"] == "viewport" }
        #expect(viewport?["type"]?.stringValue == "object (x, y, width, height)")
        let ping = try await client.reply(#"{"method":"help","params":{"method":"ping"}}"#)
        #expect(ping["result"]?["methods"]?.arrayValue?.first?["params"]?.arrayValue?.isEmpty == true)
    }

    @Test func anIDIsEchoedExactly() async throws {
        var client = InProcessClient()
        #expect(
            await client.send(#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#)
                == #"{"id":7,"jsonrpc":"2.0","result":{"pong":true}}"#
        )
        #expect(
            await client.send(#"{"jsonrpc":"2.0","id":"seven","method":"ping"}"#)
                == #"{"id":"seven","jsonrpc":"2.0","result":{"pong":true}}"#
        )
        #expect(
            await client.send(#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#)
                == #"{"id":null,"jsonrpc":"2.0","result":{"pong":true}}"#
        )
    }

    @Test func shellModeAlwaysReplies() async throws {
        var client = InProcessClient()
        #expect(await client.send(#"{"method":"ping"}"#) == #"{"id":null,"jsonrpc":"2.0","result":{"pong":true}}"#)
        let error = try await client.reply(#"{"method":"nope"}"#)
        #expect(error["error"]?["data"]?["kind"] == "unknown_method")
    }

    @Test func strictNotificationsGetNoReplyEvenOnError() async {
        var client = InProcessClient()
        #expect(await client.send(#"{"jsonrpc":"2.0","method":"ping"}"#) == nil)
        #expect(await client.send(#"{"jsonrpc":"2.0","method":"nope"}"#) == nil)
        #expect(await client.send(#"{"jsonrpc":"2.0","method":"hello","params":{"version":"x"}}"#) == nil)
    }

    @Test func aMalformedRequestWithoutIDIsStillAnswered() async throws {
        var client = InProcessClient()
        for line in [#"{"jsonrpc":"2.0"}"#, #"{"jsonrpc":"2.0","method":1}"#] {
            let reply = try await client.reply(line)
            #expect(reply["id"] == .null)
            #expect(reply["error"]?["data"]?["kind"] == "invalid_request")
        }
    }

    @Test func emptyAndBlankLinesAreIgnored() async {
        var client = InProcessClient()
        #expect(await client.send("") == nil)
        #expect(await client.send("  \t ") == nil)
    }

    @Test(arguments: [
        ("not json", -32700, "parse_error"),
        ("{\"method\":", -32700, "parse_error"),
        ("42", -32600, "invalid_request"),
        ("\"ping\"", -32600, "invalid_request"),
        ("{}", -32600, "invalid_request"),
        (#"{"method":5}"#, -32600, "invalid_request"),
        (#"{"jsonrpc":"1.0","method":"ping"}"#, -32600, "invalid_request"),
        (#"{"id":{"a":1},"method":"ping"}"#, -32600, "invalid_request"),
        (#"{"method":"drop_everything"}"#, -32601, "unknown_method"),
        (#"{"method":"hello","params":[1]}"#, -32602, "invalid_params"),
        (#"{"method":"hello","params":{"version":"one"}}"#, -32602, "invalid_params"),
        (#"{"method":"hello","params":{"version":0}}"#, -32602, "invalid_value"),
        (#"{"method":"help","params":{"method":"nope"}}"#, -32602, "unknown_method"),
        ("[]", -32600, "invalid_request"),
    ])
    func malformedRequestsGetOneClearError(line: String, code: Int, kind: String) async throws {
        var client = InProcessClient()
        let reply = try await client.reply(line)
        let error = try #require(reply["error"])
        #expect(error["code"]?.intValue == code)
        #expect(error["data"]?["kind"]?.stringValue == kind)
        let message = try #require(error["message"]?.stringValue)
        #expect(message.hasSuffix("."))
        #expect(reply["jsonrpc"] == "2.0")
        #expect(reply["result"] == nil)
    }

    @Test func aWrongParamTypeNamesTheField() async throws {
        var client = InProcessClient()
        let reply = try await client.reply(#"{"id":1,"method":"hello","params":{"version":"one"}}"#)
        #expect(reply["id"] == 1)
        #expect(reply["error"]?["data"]?["field"] == "params.version")
        #expect(reply["error"]?["message"] == "params.version must be a whole number.")
    }

    /// Params that only apply when `load` creates a table are refused when it exists, naming the
    /// param, and the table is left as it was.
    @Test(arguments: [
        (#""key":"item""#, "params.key"), (#""sort":[{"column":"qty"}]"#, "params.sort"),
        (#""mode":"0600""#, "params.mode"), (#""columns":[{"key":"item"},{"key":"qty"}]"#, "params.columns"),
    ])
    func creationParamsAreRefusedForATableThatExists(param: String, field: String) async throws {
        var client = InProcessClient()
        let created = try await client.reply(#"{"method":"load","params":{"table":"t","text":"item,qty\nA,1\n"}}"#)
        #expect(created["result"]?["rows"] == 1)
        let reply = try await client.reply(
            #"{"method":"load","params":{"table":"t","text":"item,qty\nB,2\n",\#(param)}}"#
        )
        #expect(reply["error"]?["data"]?["field"]?.stringValue == field, "\(reply)")
        #expect(reply["error"]?["data"]?["kind"] == "invalid_params")
        let described = try await client.reply(#"{"method":"describe","params":{"table":"t"}}"#)
        #expect(described["result"]?["rows"] == 1)
    }

    /// A change given `ifVersion` is made only while the table is at that version; otherwise it
    /// is `conflict`, naming the version now, and changes nothing.
    @Test func ifVersionRefusesAChangeToATableThatMovedOn() async throws {
        var client = InProcessClient()
        let created = try await client.reply(#"{"method":"load","params":{"table":"t","text":"item,qty\nA,1\nB,2\n"}}"#)
        let version = try #require(created["result"]?["version"]?.intValue)
        let edited = try await client.reply(
            #"{"method":"edit","params":{"table":"t","id":1,"column":"qty","value":5,"ifVersion":\#(version)}}"#
        )
        #expect(edited["result"]?["version"]?.intValue == version + 1, "\(edited)")
        for stale in [
            #"{"method":"edit","params":{"table":"t","id":1,"column":"qty","value":9,"ifVersion":\#(version)}}"#,
            #"{"method":"add","params":{"table":"t","row":{"item":"C"},"ifVersion":\#(version)}}"#,
            #"{"method":"delete","params":{"table":"t","ids":[2],"ifVersion":\#(version)}}"#,
            #"{"method":"select","params":{"table":"t","action":"all","ifVersion":\#(version)}}"#,
            #"{"method":"sort","params":{"table":"t","keys":[{"column":"qty"}],"ifVersion":\#(version)}}"#,
            #"{"method":"revert","params":{"table":"t","ifVersion":\#(version)}}"#,
        ] {
            let refused = try await client.reply(stale)
            #expect(refused["error"]?["data"]?["kind"] == "conflict", "\(stale): \(refused)")
            #expect(refused["error"]?["data"]?["version"]?.intValue == version + 1)
        }
        let rows = try await client.reply(#"{"method":"get","params":{"table":"t"}}"#)
        #expect(rows["result"]?["version"]?.intValue == version + 1, "nothing changed: \(rows)")
        #expect(rows["result"]?["total"] == 2)
    }

    /// A connection that asks for leniency in `hello` gets params it does not know ignored.
    @Test func aLenientConnectionHasUnknownParamsIgnored() async throws {
        var client = InProcessClient()
        let hello = try await client.reply(#"{"method":"hello","params":{"lenientParams":true}}"#)
        #expect(hello["result"]?["features"]?.arrayValue?.contains("strict-params") == true)
        let reply = try await client.reply(#"{"method":"ping","params":{"whatever":[1,2]}}"#)
        #expect(reply["result"]?["pong"] == true)
        let get = try await client.reply(#"{"method":"help","params":{"method":"ping","verbose":true}}"#)
        #expect(get["result"] != nil)
    }

    @Test func unknownEnvelopeMembersAreIgnoredAndUnknownParamsAreNot() async throws {
        var client = InProcessClient()
        let reply = try await client.reply(#"{"method":"ping","params":{},"extra":true}"#)
        #expect(reply["result"]?["pong"] == true)
        let refused = try await client.reply(#"{"method":"ping","params":{"whatever":[1,2]},"extra":true}"#)
        #expect(refused["error"]?["data"]?["field"]?.stringValue == "params.whatever")
    }

    @Test func aBatchAnswersInOrderAndLeavesOutNotifications() async throws {
        var client = InProcessClient()
        let line =
            #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"ping"},5,{"id":"b","method":"nope"}]"#
        let replies = try #require(try await client.reply(line).arrayValue)
        #expect(replies.count == 3)
        #expect(replies[0]["id"] == 1)
        #expect(replies[0]["result"]?["pong"] == true)
        #expect(replies[1]["id"] == nil || replies[1]["id"] == .null)
        #expect(replies[1]["error"]?["code"] == -32600)
        #expect(replies[2]["id"] == "b")
        #expect(replies[2]["error"]?["data"]?["kind"] == "unknown_method")
    }

    @Test func aBatchOfNotificationsGetsNoReply() async {
        var client = InProcessClient()
        #expect(await client.send(#"[{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","method":"stats"}]"#) == nil)
    }

    @Test func aBatchOverTheLimitIsRefusedWhole() async throws {
        var client = InProcessClient(limits: ServerLimits(maxBatchSize: 2))
        let reply = try await client.reply(
            #"[{"id":1,"method":"ping"},{"id":2,"method":"ping"},{"id":3,"method":"ping"}]"#
        )
        #expect(reply["error"]?["data"]?["kind"] == "limit_exceeded")
        #expect(reply["error"]?["data"]?["limit"] == "maxBatchSize")
        #expect(client.context.server.snapshot.requests == 1)
    }

    @Test func helloNegotiatesAndReportsLimits() async throws {
        var client = InProcessClient(
            limits: ServerLimits(
                maxLineBytes: 4096,
                maxConnections: 8,
                maxBatchSize: 16,
                maxOutputBytes: 1024,
                maxTables: 3,
                maxRows: 9,
                softOutputBytes: 10,
                softOutputSeconds: 11,
                maxMemoryBytes: 12,
                maxConnectionsPerUid: 13,
                maxMemoryPerUid: 14,
                maxReplyBytes: 15,
                maxEventBytes: 16
            )
        )
        let reply = try await client.reply(#"{"id":1,"method":"hello","params":{"version":99,"client":"test"}}"#)
        let result = try #require(reply["result"])
        #expect(result["protocol"] == 1)
        #expect(result["server"] == "datatabled")
        #expect(result["version"]?.stringValue == ServerInfo.version)
        #expect(
            result["limits"] == [
                "maxLineBytes": 4096, "maxConnections": 8, "maxBatchSize": 16, "maxOutputBytes": 1024, "maxTables": 3,
                "maxRows": 9, "softOutputBytes": 10, "softOutputSeconds": 11, "maxMemoryBytes": 12,
                "maxConnectionsPerUid": 13, "maxMemoryPerUid": 14, "maxReplyBytes": 15, "maxEventBytes": 16,
            ]
        )
        #expect(result["features"]?.arrayValue?.contains("batch") == true)
        #expect(client.context.protocolVersion == 1)
    }

    @Test func everyProtocolMethodHasAHandler() {
        let methods = MethodTable.builtin()
        for method in MethodRegistry.all {
            #expect(methods.handles(method.method), "\(method.method)")
        }
    }

    @Test func helpListsEveryMethodAndDescribesOne() async throws {
        var client = InProcessClient()
        let all = try #require(try await client.reply(#"{"method":"help"}"#)["result"]?["methods"]?.arrayValue)
        #expect(all.compactMap { $0["name"]?.stringValue } == MethodRegistry.all.map { $0.method })
        let one = try #require(
            try await client.reply(#"{"method":"help","params":{"method":"stats"}}"#)["result"]?["methods"]?.arrayValue
        )
        #expect(one == [["name": "stats", "params": [], "summary": .string(StatsRequest.summary)]])
    }

    @Test func statsCountsRequests() async throws {
        var client = InProcessClient()
        _ = await client.send(#"{"method":"ping"}"#)
        _ = await client.send(#"{"method":"ping"}"#)
        let result = try #require(try await client.reply(#"{"method":"stats"}"#)["result"])
        #expect(result["requests"] == 3)
        #expect(result["tables"] == 0)
        #expect(result["rows"] == 0)
        #expect((result["memory"]?["residentBytes"]?.intValue ?? 0) > 0)
        #expect((result["uptimeSeconds"]?.doubleValue ?? -1) >= 0)
        #expect(result["pid"]?.intValue == Int(ProcessInfo.processInfo.processIdentifier))
    }

    @Test func requestsLogAtDebugWithTheMethod() async throws {
        let (logger, store) = InMemoryLogHandler.logger()
        var client = InProcessClient(logger: logger)
        _ = await client.send(#"{"id":1,"method":"ping"}"#)
        let entries = store.all
        #expect(entries.count == 1)
        #expect(entries.first?.level == .debug)
        #expect(entries.first?.metadata["method"] == "ping")
        #expect(!entries.contains { $0.level >= .info })
    }
}
