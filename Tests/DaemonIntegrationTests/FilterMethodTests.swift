import Foundation
import Testing

/// `filter` over the real socket, through socat as a shell user would: a view narrowed by a
/// number range, a picker value and a search word; rows added by another client counted in
/// `newAbove` only when the filter lets them through; views of other connections untouched.
@Suite struct FilterMethodTests {
    let daemon: TestDaemon

    init() throws { daemon = try TestDaemon(arguments: ["--demo"]) }

    @Test func aFilteredViewShowsCountsAndAnchorsOnlyTheRowsItLetsThrough() throws {
        let first = try ScrollMethodTests.SocatSession(to: daemon, name: "first")
        let second = try ScrollMethodTests.SocatSession(to: daemon, name: "second")
        let rows = (0..<400).map { n in
            #"{"n":\#(n),"kind":"\#(["Bolt","Nut","Valve","Washer"][n % 4])","tag":"\#(n % 7 == 0 ? "Safety valve" : "part")"}"#
        }.joined(separator: ",")
        _ = try first.client.call(
            "create",
            #"{"table":"parts","columns":[{"key":"n","type":"number"},{"key":"kind","type":"picker","options":["Bolt","Nut","Valve","Washer"]},{"key":"tag"}],"sort":[{"column":"n","descending":true}],"rows":[\#(rows)]}"#
        )

        let set = try first.client.call(
            "filter",
            #"{"table":"parts","where":[{"column":"n","op":"between","values":[100,299]},{"column":"kind","op":"in","values":["Nut","Valve"]}]}"#
        )
        #expect(set["total"] as? Int == 400)
        #expect(set["shown"] as? Int == 100)
        #expect(set["filter"] as? String == "n 100–299 · kind is Nut, Valve")

        let searched = try first.client.call("filter", #"{"table":"parts","search":"VALVE"}"#)
        // Of 100..<300 with kind Nut or Valve: every Valve (n % 4 == 2), and the Nuts tagged
        // "Safety valve" (n % 7 == 0).
        let expected = (100..<300).filter { $0 % 4 == 2 || ($0 % 4 == 1 && $0 % 7 == 0) }
        #expect(searched["shown"] as? Int == expected.count)

        let window = try first.client.call(
            "scroll",
            #"{"table":"parts","unit":"cell","viewport":{"width":40,"height":6},"to":{"index":3,"align":"top"}}"#
        )
        #expect(window["shown"] as? Int == expected.count)
        #expect(window["total"] as? Int == 400)
        #expect(window["filter"] as? String == "n 100–299 · kind is Nut, Valve · “VALVE”")
        #expect(window["contentHeight"] as? Int == 1 + expected.count)
        let laidOut = try first.client.call("layout", #"{"table":"parts","width":40,"unit":"cell","view":true}"#)
        #expect((laidOut["rows"] as? [String: Any])?["count"] as? Int == expected.count)
        #expect(laidOut["contentHeight"] as? Int == 1 + expected.count)
        let shownIDs = ScrollMethodTests.rows(window).compactMap { $0["id"] as? Int }
        // (Rows without a key get ids from 1 in the order they were added: n + 1.)
        #expect(shownIDs == Array(expected.reversed()[3..<8]).map { $0 + 1 })
        #expect(ScrollMethodTests.rows(window).map { $0["index"] as? Int } == [3, 4, 5, 6, 7])

        // Another client adds rows that sort on top: only those the filter lets through are new
        // above, and the anchored row stays where it was.
        let added = [
            #"{"n":295,"kind":"Valve","tag":"x"}"#, #"{"n":296,"kind":"Bolt","tag":"valve"}"#,
            #"{"n":297,"kind":"Nut","tag":"Valve cap"}"#, #"{"n":900,"kind":"Valve","tag":"x"}"#,
        ]
        _ = try second.client.call("add", #"{"table":"parts","rows":[\#(added.joined(separator: ","))]}"#)
        let after = try first.client.call("scroll", #"{"table":"parts"}"#)
        #expect(after["newAbove"] as? Int == 2)
        #expect(after["hiddenNew"] as? Int == 2, "the Bolt and n 900 are left out")
        #expect(ScrollMethodTests.rows(after).first?["id"] as? Int == shownIDs.first)
        #expect(ScrollMethodTests.rows(after).first?["index"] as? Int == 5)

        // The other connection's view is the whole table.
        let whole = try second.client.call(
            "scroll",
            #"{"table":"parts","unit":"cell","viewport":{"width":40,"height":4}}"#
        )
        #expect(whole["shown"] == nil)
        #expect(whole["total"] as? Int == 404)

        // Bad conditions change nothing.
        for bad in [
            #"{"table":"parts","where":[{"column":"n","op":"~","value":1}]}"#,
            #"{"table":"parts","where":[{"column":"n","op":">","value":"many"}]}"#,
            #"{"table":"parts","where":[{"column":"kind","op":"=","value":"Screw"}]}"#,
            #"{"table":"parts","where":[{"column":"size","op":"empty"}]}"#,
            #"{"table":"parts","where":[{"column":"n","op":"between","value":1}]}"#,
        ] {
            #expect(try first.client.call("filter", bad)["code"] as? Int == -32602, "\(bad)")
        }
        let still = try first.client.call("scroll", #"{"table":"parts"}"#)
        #expect(still["shown"] as? Int == expected.count + 2)
        #expect(
            try first.client.call("filter", #"{"table":"parts","where":[{"column":"n","op":"=","values":[1]}]}"#)[
                "code"
            ] as? Int == -32602
        )

        // Requests that name the view act on the rows it shows.
        let got = try first.client.call("get", #"{"table":"parts","from":0,"count":3,"view":true,"columns":["n"]}"#)
        let gotRows = got["rows"] as? [[String: Any]] ?? []
        #expect(gotRows.map { $0["index"] as? Int } == [0, 1, 2])
        #expect(gotRows.compactMap { ($0["values"] as? [String: Any])?["n"] as? Int } == [298, 297, 295])
        let whole3 = try first.client.call("get", #"{"table":"parts","from":0,"count":1,"columns":["n"]}"#)
        #expect(((whole3["rows"] as? [[String: Any]])?.first?["values"] as? [String: Any])?["n"] as? Int == 900)
        let hidden = try first.client.call("get", #"{"table":"parts","ids":[1],"view":true}"#)
        #expect((hidden["data"] as? [String: Any])?["field"] as? String == "params.ids[0]")

        let selected = try first.client.call("select", #"{"table":"parts","action":"all","view":true}"#)
        #expect(selected["count"] as? Int == expected.count + 2)
        let exported = try first.client.call("export", #"{"table":"parts","format":"csv","view":true}"#)
        #expect(exported["rows"] as? Int == expected.count + 2)
        // Every row selected, then the view's selected rows edited and deleted: the rest stay.
        _ = try second.client.call("select", #"{"table":"parts","action":"all"}"#)
        let edited = try first.client.call(
            "edit",
            #"{"table":"parts","selection":true,"view":true,"column":"tag","value":"checked"}"#
        )
        #expect(edited["edited"] as? Int == expected.count + 2)
        // The Nuts were shown for their tags' "valve"; tagged "checked" now, the view leaves them
        // out, and the Valves are what it shows.
        let valves = (100..<300).filter { $0 % 4 == 2 }.count + 1
        #expect(try first.client.call("scroll", #"{"table":"parts"}"#)["shown"] as? Int == valves)
        let deleted = try first.client.call("delete", #"{"table":"parts","selection":true,"view":true}"#)
        #expect(deleted["deleted"] as? Int == valves)
        #expect(deleted["rows"] as? Int == 404 - valves)
        #expect(try first.client.call("delete", #"{"table":"parts","ids":[1],"view":true}"#)["code"] as? Int == -32602)
        #expect(try first.client.call("select", #"{"table":"parts","ids":[1],"view":true}"#)["code"] as? Int == -32602)

        // Cleared, the view shows every row again.
        let cleared = try first.client.call("filter", #"{"table":"parts","where":[],"search":""}"#)
        #expect(cleared["shown"] as? Int == 404 - valves)
        #expect(cleared["filter"] as? String == "")
        #expect(try first.client.call("scroll", #"{"table":"parts"}"#)["shown"] == nil)
    }
}
