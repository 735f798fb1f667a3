import DataTableProtocol
import DataTableServer
import Foundation
import Testing

/// A connection whose peer the kernel did not describe (no `SO_PEERCRED`) has no rights: not
/// the daemon's, not even those a table's mode gives every other user.
@Suite struct UnidentifiedPeerTests {
    /// The table `open`, mode 0666 and one row, made by user 1000 on `server`.
    private func openTable(on server: ServerState) async throws {
        var owner = InProcessClient(server: server)
        let created = try await owner.reply(
            #"{"id":1,"method":"create","params":{"table":"open","mode":"0666","key":"id","#
                + #""columns":[{"key":"id","type":"number"},{"key":"name","type":"text"}],"rows":[{"id":1,"name":"a"}]}}"#
        )
        #expect(created["error"] == nil)
    }

    private func refusal(_ reply: JSONValue) -> String? {
        guard reply["error"]?["data"]?["kind"]?.stringValue == "permission_denied" else { return nil }
        return reply["error"]?["message"]?.stringValue
    }

    @Test(arguments: [
        #"{"id":2,"method":"get","params":{"table":"open"}}"#,
        #"{"id":2,"method":"describe","params":{"table":"open"}}"#,
        #"{"id":2,"method":"edit","params":{"table":"open","id":1,"column":"name","value":"b"}}"#,
        #"{"id":2,"method":"drop","params":{"table":"open"}}"#,
        #"{"id":2,"method":"select","params":{"table":"open","ids":[1]}}"#,
        #"{"id":2,"method":"scroll","params":{"table":"open","unit":"cell","viewport":{"width":80,"height":5}}}"#,
        #"{"id":2,"method":"create","params":{"table":"mine","columns":[{"key":"a","type":"text"}]}}"#,
        #"{"id":2,"method":"load","params":{"table":"mine","format":"csv","text":"a\n1\n"}}"#,
    ])
    func everyTableRequestIsRefused(line: String) async throws {
        let server = ServerState(limits: ServerLimits())
        try await openTable(on: server)
        var stranger = InProcessClient(server: server, peer: nil)
        let reply = try await stranger.reply(line)
        let message = try #require(refusal(reply), "not refused: \(line)")
        #expect(message.contains("could not learn which user"))

        // Nothing changed: the owner still sees the one row as it was, and no second table.
        var owner = InProcessClient(server: server)
        let rows = try await owner.reply(#"{"id":3,"method":"get","params":{"table":"open"}}"#)
        #expect(rows["result"]?["rows"]?.arrayValue?.count == 1)
        #expect(rows["result"]?["rows"]?.arrayValue?.first?["values"]?["name"]?.stringValue == "a")
        let tables = try await owner.reply(#"{"id":4,"method":"tables"}"#)
        #expect(tables["result"]?["tables"]?.arrayValue?.count == 1)
    }

    @Test func itSeesNoTablesAndMayNameNoPath() async throws {
        let server = ServerState(limits: ServerLimits())
        try await openTable(on: server)
        var stranger = InProcessClient(server: server, peer: nil)
        let tables = try await stranger.reply(#"{"id":1,"method":"tables"}"#)
        #expect(tables["result"]?["tables"]?.arrayValue?.isEmpty == true)
        let hello = try await stranger.reply(#"{"id":2,"method":"hello"}"#)
        #expect(hello["result"]?["files"]?["anyPath"]?.boolValue == false)
        #expect(hello["result"]?["files"]?["importDir"] == nil)
        // What needs no table still answers.
        let ping = try await stranger.reply(#"{"id":3,"method":"ping"}"#)
        #expect(ping["error"] == nil)
    }
}
