import Foundation
import Testing

/// Tables that change while people use them, over the socket: columns added, renamed, hidden in
/// one view, a deleted selection taken back, and two writers racing with `ifVersion` and
/// `ifRowVersion`.
@Suite struct TableChangeTests {
    @Test func alterRenameAndHideInOneViewThenUndoADeletedSelection() throws {
        let daemon = try TestDaemon()
        let one = try daemon.connect()
        let other = try daemon.connect()
        try one.call("create", numberedTableText("parts", count: 4))
        let listener = try daemon.connect()
        try listener.call("subscribe", #"{"table":"parts","events":["schema","added","deleted"]}"#)

        let added = try one.call("alter", #"{"table":"parts","add":[{"key":"rack"}],"values":{"rack":"A1"}}"#)
        #expect(added["columns"] as? [String] == ["n", "name", "rack"])
        let renamed = try one.call("alter", #"{"table":"parts","rename":{"name":"title"}}"#)
        #expect((renamed["altered"] as? [String: Any])?["renamed"] as? [[String]] == [["name", "title"]])
        // Hidden in one connection's view only.
        let viewport = #""unit":"cell","viewport":{"width":60,"height":6}"#
        let hiding = try one.call("scroll", #"{"table":"parts",\#(viewport),"columns":{"rack":{"hidden":true}}}"#)
        #expect((hiding["columns"] as? [[String: Any]])?.map { $0["key"] as? String } == ["n", "title"])
        let showing = try other.call("scroll", #"{"table":"parts",\#(viewport)}"#)
        #expect((showing["columns"] as? [[String: Any]])?.map { $0["key"] as? String } == ["n", "title", "rack"])
        let row = (showing["rows"] as? [[String: Any]])?.first
        #expect(row?["cells"] as? [String] == ["3", "row 3", "A1"])

        try one.call("select", #"{"table":"parts","ids":[2,3]}"#)
        let deleted = try one.call("delete", #"{"table":"parts","selection":true}"#)
        #expect(deleted["deleted"] as? Int == 2 && deleted["rows"] as? Int == 2)
        let undone = try other.call("undo", #"{"table":"parts"}"#)
        #expect(undone["restored"] as? [Int] == [2, 3] && undone["rows"] as? Int == 4)
        let selection = try one.call("selection", #"{"table":"parts"}"#)
        #expect(selection["ids"] as? [Int] == [3, 2])
        let order = try one.call("get", #"{"table":"parts"}"#)["rows"] as? [[String: Any]]
        #expect(order?.map { $0["id"] as? Int } == [4, 3, 2, 1])

        let events = try listener.untypedEvents(4)
        #expect(events.map { $0["kind"] as? String } == ["schema", "schema", "deleted", "added"])
        #expect(events[0]["change"] as? String == "altered" && events[0]["columns"] as? [String] == ["rack"])
        #expect(events[1]["columns"] as? [String] == ["title"])
        #expect(events[3]["ids"] as? [Int] == [2, 3])
    }

    @Test func twoWritersRacingOnOneVersionOneWins() throws {
        let daemon = try TestDaemon()
        let first = try daemon.connect()
        let second = try daemon.connect()
        try first.call("create", numberedTableText("race", count: 3))
        for round in 0..<20 {
            let version = try #require(try first.call("describe", #"{"table":"race"}"#)["version"] as? Int)
            // Both send before either reads: the daemon orders them, and only one finds the
            // version it was given.
            for (client, value) in [(first, "first \(round)"), (second, "second \(round)")] {
                try client.send(
                    #"{"id":1,"method":"edit","params":{"table":"race","id":1,"column":"name","value":"\#(value)","ifVersion":\#(version)}}"#
                        + "\n"
                )
            }
            let replies = try [first, second].map { try object(try $0.readLine()) }
            let won = replies.filter { $0["result"] != nil }
            let lost = replies.compactMap { $0["error"] as? [String: Any] }
            #expect(won.count == 1 && lost.count == 1)
            #expect(errorData(lost[0])["kind"] as? String == "conflict")
            #expect(errorData(lost[0])["version"] as? Int == version + 1)
        }
    }

    @Test func aRowVersionGuardsItsRowOnly() throws {
        let daemon = try TestDaemon()
        let one = try daemon.connect()
        let other = try daemon.connect()
        try one.call("create", numberedTableText("rows", count: 3))
        let read = try one.call("get", #"{"table":"rows","ids":[1,2]}"#)["rows"] as? [[String: Any]]
        let (first, second) = try (#require(read?[0]["version"] as? Int), #require(read?[1]["version"] as? Int))
        // Someone else changes row 2: an edit of row 1 still goes through.
        let theirs = try other.call("edit", #"{"table":"rows","id":2,"column":"name","value":"theirs"}"#)
        let mine = try one.call(
            "edit",
            #"{"table":"rows","id":1,"column":"name","value":"mine","ifRowVersion":\#(first)}"#
        )
        #expect(mine["edited"] as? Int == 1)
        // An edit of row 2 as it was is refused, naming its version now, and changes nothing.
        let stale = try one.call(
            "edit",
            #"{"table":"rows","edits":[{"id":1,"column":"n","value":9},{"id":2,"column":"name","value":"mine","ifRowVersion":\#(second)}]}"#
        )
        #expect(errorData(stale)["kind"] as? String == "conflict")
        #expect(errorData(stale)["rowVersion"] as? Int == theirs["version"] as? Int)
        let now = try one.call("get", #"{"table":"rows","ids":[1,2]}"#)["rows"] as? [[String: Any]]
        #expect((now?[0]["values"] as? [String: Any])?["n"] as? Int == 0)
        #expect((now?[1]["values"] as? [String: Any])?["name"] as? String == "theirs")
        #expect(now?[1]["version"] as? Int == theirs["version"] as? Int)
    }

    /// An arrangement saved by one connection is restored into another's view, which scrolls
    /// with it; the other views are left as they were.
    @Test func aColumnStateSavedByNameIsRestoredIntoAnotherView() throws {
        let daemon = try TestDaemon()
        let one = try daemon.connect()
        let other = try daemon.connect()
        try one.call("create", numberedTableText("parts", count: 3))
        let saved = try one.call(
            "columnState",
            #"{"table":"parts","name":"mine","save":{"columns":{"n":{"hidden":true}},"columnOrder":["name"]}}"#
        )
        #expect(saved["names"] as? [String] == ["mine"])
        let viewport = #""unit":"cell","viewport":{"width":40,"height":5}"#
        let before = try other.call("scroll", #"{"table":"parts",\#(viewport)}"#)
        #expect((before["columns"] as? [[String: Any]])?.map { $0["key"] as? String } == ["n", "name"])
        let restored = try other.call("columnState", #"{"table":"parts","name":"mine"}"#)
        #expect((restored["state"] as? [String: Any])?["columnOrder"] as? [String] == ["name"])
        let after = try other.call("scroll", #"{"table":"parts",\#(viewport)}"#)
        #expect((after["columns"] as? [[String: Any]])?.map { $0["key"] as? String } == ["name"])
        let unchanged = try one.call("scroll", #"{"table":"parts",\#(viewport)}"#)
        #expect((unchanged["columns"] as? [[String: Any]])?.map { $0["key"] as? String } == ["n", "name"])
        // Refusals name what is wrong and keep nothing.
        let unknown = try one.call("columnState", #"{"table":"parts","name":"nope"}"#)
        #expect(errorData(unknown)["kind"] as? String == "invalid_value")
        let badKey = try one.call(
            "columnState",
            #"{"table":"parts","name":"x","save":{"columns":{"zz":{"hidden":true}}}}"#
        )
        #expect(errorData(badKey)["kind"] as? String == "no_such_column")
        let deleted = try one.call("columnState", #"{"table":"parts","name":"mine","delete":true}"#)
        #expect((deleted["names"] as? [String])?.isEmpty == true)
    }

    /// Every method that changes a table refuses a stale `ifVersion` and changes nothing.
    @Test(arguments: [
        ("add", #""row":{"n":9}"#),
        ("edit", #""id":1,"column":"name","value":"x""#),
        ("revert", "\"id\":1"),
        ("delete", #""ids":[1]"#),
        ("clear", ""),
        ("alter", #""add":[{"key":"rack"}]"#),
        ("select", #""ids":[1]"#),
        ("sort", #""keys":[{"column":"name"}]"#),
        ("undo", ""),
        ("redo", ""),
        ("load", #""text":"n,name\n5,five\n""#),
        ("columnState", #""name":"mine","save":{"columnOrder":["name"]}"#),
    ])
    func aStaleVersionIsRefusedByEveryChange(method: String, params: String) throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try client.call("create", numberedTableText("stale", count: 3))
        try client.call("edit", #"{"table":"stale","id":2,"column":"name","value":"two"}"#)
        try client.call("undo", #"{"table":"stale"}"#)
        let before = try #require(try client.call("describe", #"{"table":"stale"}"#)["version"] as? Int)
        let members = params.isEmpty ? "" : params + ","
        let refused = try client.call(method, #"{"table":"stale",\#(members)"ifVersion":1}"#)
        #expect(errorData(refused)["kind"] as? String == "conflict", "\(method): \(refused)")
        #expect(errorData(refused)["version"] as? Int == before)
        #expect(try client.call("describe", #"{"table":"stale"}"#)["version"] as? Int == before)
    }

    /// A view may show datetimes in its own zone; other views keep the column's.
    @Test func aViewShowsDatetimesInItsOwnZone() throws {
        let daemon = try TestDaemon()
        let here = try daemon.connect()
        let there = try daemon.connect()
        try here.call(
            "create",
            #"{"table":"shifts","columns":[{"key":"start","type":"datetime","format":{"zone":"Europe/Berlin"}}],"rows":[{"start":"2026-07-01T06:00:00Z"}]}"#
        )
        let viewport = #""unit":"cell","viewport":{"width":40,"height":3}"#
        func cell(_ reply: [String: Any]) -> String? {
            ((reply["rows"] as? [[String: Any]])?.first?["cells"] as? [String])?.first
        }
        #expect(
            cell(try here.call("scroll", #"{"table":"shifts",\#(viewport),"zone":"-04:00"}"#)) == "2026-07-01 02:00:00"
        )
        #expect(cell(try there.call("scroll", #"{"table":"shifts",\#(viewport)}"#)) == "2026-07-01 08:00:00")
        // The view keeps its zone for later scrolls.
        #expect(cell(try here.call("scroll", #"{"table":"shifts",\#(viewport)}"#)) == "2026-07-01 02:00:00")
        let refused = try here.call("scroll", #"{"table":"shifts",\#(viewport),"zone":"Mars"}"#)
        #expect(errorData(refused)["field"] as? String == "params.zone")
    }

    /// Adding past a table's limit: an `added` event, then a `deleted` event naming the oldest
    /// rows that went, one version later; a lower limit set by `alter` drops at once, as its own event.
    @Test func aRollingTableSaysWhichRowsWent() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        try writer.call("create", #"{"table":"feed","columns":[{"key":"line"}],"limit":2,"rows":[{"line":"a"}]}"#)
        let start = try #require(try listener.call("subscribe", #"{"table":"feed"}"#)["version"] as? Int)
        let added = try writer.call("add", #"{"table":"feed","rows":[{"line":"b"},{"line":"c"}]}"#)
        #expect(added["rows"] as? Int == 2)
        try writer.call("alter", #"{"table":"feed","limit":1}"#)
        let events = try listener.untypedEvents(4)
        #expect(events.map { $0["kind"] as? String } == ["added", "deleted", "schema", "deleted"])
        #expect(events[0]["ids"] as? [Int] == [2, 3] && events[1]["ids"] as? [Int] == [1])
        #expect(events[3]["ids"] as? [Int] == [2])
        Self.expectChained(events, from: start)
    }

    private static func expectChained(_ events: [[String: Any]], from start: Int) {
        var last = start
        for event in events {
            #expect(event["previous"] as? Int == last, "\(event)")
            last = event["version"] as? Int ?? -1
        }
    }
}
