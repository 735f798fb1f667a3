import Foundation
import Testing

/// `datatable call` against the real daemon.
@Suite struct ClientCommandTests {
    @Test func callPrintsTheReplyOfAWholeRequest() throws {
        let daemon = try TestDaemon()
        let result = try run(BuiltProducts.client, ["call", "--socket", daemon.socketPath, #"{"method":"ping"}"#])
        #expect(result.status == 0)
        #expect(result.output == #"{"id":null,"jsonrpc":"2.0","result":{"pong":true}}"# + "\n")
    }

    @Test func callTakesAMethodAndParams() throws {
        let daemon = try TestDaemon()
        let result = try run(
            BuiltProducts.client,
            ["call", "--socket", daemon.socketPath, "help", #"{"method":"stats"}"#]
        )
        #expect(result.status == 0)
        let reply = try object(result.output.trimmingCharacters(in: .newlines))
        #expect(reply["id"] as? Int == 1)
        let methods = try #require((reply["result"] as? [String: Any])?["methods"] as? [[String: Any]])
        #expect(methods.map { $0["name"] as? String } == ["stats"])
    }

    @Test func callFindsTheSocketThroughTheEnvironment() throws {
        let daemon = try TestDaemon()
        let result = try run(
            BuiltProducts.client,
            ["call", "ping"],
            environment: ["DATATABLED_SOCKET": daemon.socketPath]
        )
        #expect(result.status == 0)
        #expect(result.output.contains(#""pong":true"#))
    }

    @Test func anErrorReplyExitsWithOne() throws {
        let daemon = try TestDaemon()
        let result = try run(BuiltProducts.client, ["call", "--socket", daemon.socketPath, "no_such_method"])
        #expect(result.status == 1)
        #expect(result.output.contains("unknown_method"))
    }

    @Test func anUnreachableDaemonExitsWithTwo() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let result = try run(BuiltProducts.client, ["call", "--socket", scratch.file("nobody.sock"), "ping"])
        #expect(result.status == 2)
        #expect(result.output.contains("Cannot reach datatabled"))
    }
}
