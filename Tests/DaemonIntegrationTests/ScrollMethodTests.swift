import Foundation
import Testing

/// `scroll` over the real socket: views per connection, anchoring across clients, the window's
/// cells and state, and errors.
@Suite struct ScrollMethodTests {
    let daemon: TestDaemon

    init() throws { daemon = try TestDaemon(arguments: ["--demo"]) }

    /// A socat relay to the daemon: a connection to `relay` is a socat session.
    final class SocatSession {
        let process: RunningProcess
        let client: UnixClient

        init(to daemon: TestDaemon, name: String) throws {
            let socat = try #require(which("socat"), "socat is needed")
            let relay = daemon.scratch.file(name + ".sock")
            process = try RunningProcess(
                socat,
                ["UNIX-LISTEN:\(relay)", "UNIX-CONNECT:\(daemon.socketPath)"],
                outputPath: daemon.scratch.file(name + ".log")
            )
            try process.waitForListener(relay)
            client = try UnixClient(path: relay)
        }
    }

    static func rows(_ window: [String: Any]) -> [[String: Any]] { window["rows"] as? [[String: Any]] ?? [] }

    /// A view's own column state: one connection hides a column and puts another first; a
    /// second connection's view of the same table is as the table has it.
    @Test func aViewHidesAndOrdersColumnsForItselfOnly() throws {
        let first = try daemon.connect()
        let second = try daemon.connect()
        let viewport = #""unit":"cell","viewport":{"width":120,"height":5}"#
        func keys(_ window: [String: Any]) -> [String] {
            (window["columns"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        }
        let table = keys(try second.call("scroll", #"{"table":"stock",\#(viewport)}"#))
        #expect(table.contains("rack") && table.first == "item")
        let own = try first.call(
            "scroll",
            #"{"table":"stock",\#(viewport),"columns":{"rack":{"hidden":true}},"columnOrder":["qty"]}"#
        )
        #expect(keys(own) == ["qty"] + table.filter { $0 != "qty" && $0 != "rack" })
        #expect(ScrollMethodTests.rows(own).first.map { ($0["cells"] as? [String])?.count } == keys(own).count)
        // The view keeps its state from scroll to scroll; the other view is untouched.
        #expect(keys(try first.call("scroll", #"{"table":"stock","viewport":{"y":1}}"#)) == keys(own))
        #expect(keys(try second.call("scroll", #"{"table":"stock"}"#)) == table)
        // layout takes the same settings.
        let layout = try first.call(
            "layout",
            #"{"table":"stock","width":120,"unit":"cell","columnOrder":["rack","item"]}"#
        )
        #expect(Array(keys(layout).prefix(2)) == ["rack", "item"])
        let unknown = try first.call("layout", #"{"table":"stock","width":120,"columnOrder":["nope"]}"#)
        #expect((unknown["data"] as? [String: Any])?["kind"] as? String == "no_such_column")
        let twice = try first.call("layout", #"{"table":"stock","width":120,"columnOrder":["qty","qty"]}"#)
        #expect((twice["data"] as? [String: Any])?["field"] as? String == "params.columnOrder")
    }

    /// Rows drill down by a column bound to `drillDown` or their own `$drillDown`, say so on
    /// every row of a scroll with the chevron, and keep saying so after a restart from the
    /// state directory (through a snapshot: every change compacts).
    @Test func rowsSayWhetherTheyDrillDownAndKeepItAcrossARestart() throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path, "--compact-after-bytes", "1"]
        let scroll = #"{"table":"parts","unit":"cell","viewport":{"width":60,"height":10}}"#
        func drillDowns(_ window: [String: Any]) -> [Bool?] { Self.rows(window).map { $0["drillDown"] as? Bool } }
        let expected: [Bool?] = [true, false, false, true]
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            try client.call(
                "create",
                #"""
                {"table":"parts","columns":[{"key":"name"},{"key":"detail","binding":"drillDown"}],\#
                "rows":[{"name":"Servo","detail":"yes"},{"name":"Gear"},\#
                {"name":"Cable","detail":"yes","$drillDown":false},{"name":"Nut","$drillDown":true}]}
                """#
            )
            let window = try client.call("scroll", scroll)
            #expect(drillDowns(window) == expected)
            #expect((window["accessories"] as? [String: Any])?["right"] != nil)
            #expect((window["columns"] as? [[String: Any]])?.map { $0["key"] as? String } == ["name"])
            let refused = try client.call("add", #"{"table":"parts","row":{"name":"Bolt","$drillDown":"no"}}"#)
            #expect((refused["data"] as? [String: Any])?["field"] as? String == "params.row.$drillDown")
        }
        let daemon = try TestDaemon(arguments: arguments)
        #expect(drillDowns(try daemon.connect().call("scroll", scroll)) == expected)
        // Without the chevron, rows say nothing about it.
        let plain = try daemon.connect().call(
            "scroll",
            #"{"table":"parts","unit":"cell","viewport":{"width":60,"height":10},"rightAccessory":"none"}"#
        )
        #expect(drillDowns(plain) == [nil, nil, nil, nil])
    }

    /// Two socat sessions on one table: one scrolls to row 500, the other adds 10 rows on
    /// top; the first one's next scroll shows the same row at the same y, with `newAbove: 10`.
    @Test func anotherClientsRowsAboveDoNotMoveTheView() throws {
        let first = try SocatSession(to: daemon, name: "first")
        let second = try SocatSession(to: daemon, name: "second")
        #expect(try first.client.call("create", numberedTableText("feed", count: 1000))["rows"] as? Int == 1000)

        let before = try first.client.call(
            "scroll",
            #"{"table":"feed","unit":"cell","viewport":{"width":60,"height":20},"to":{"index":500,"align":"top"}}"#
        )
        let anchor = try #require(Self.rows(before).first)
        #expect(anchor["index"] as? Int == 500)
        #expect(anchor["y"] as? Int == 1)

        let rows = (1...10).map { #"{"n":\#(5000 + $0),"name":"new \#($0)"}"# }.joined(separator: ",")
        let added = try second.client.call("add", #"{"table":"feed","rows":[\#(rows)]}"#)
        #expect(added["rows"] as? Int == 1010)

        let after = try first.client.call("scroll", #"{"table":"feed"}"#)
        let same = try #require(Self.rows(after).first)
        #expect(same["id"] as? Int == anchor["id"] as? Int)
        #expect(same["y"] as? Int == anchor["y"] as? Int)
        #expect(same["index"] as? Int == 510)
        #expect(after["newAbove"] as? Int == 10)
        #expect(same["cells"] as? [String] == anchor["cells"] as? [String])

        // The second session has a view of its own, at the top.
        let top = try second.client.call(
            "scroll",
            #"{"table":"feed","unit":"cell","viewport":{"width":30,"height":5}}"#
        )
        #expect(Self.rows(top).first?["index"] as? Int == 0)
        #expect((top["viewport"] as? [String: Any])?["width"] as? Int == 30)
        let again = try first.client.call("scroll", #"{"table":"feed"}"#)
        #expect((again["viewport"] as? [String: Any])?["width"] as? Int == 60)
        #expect(again["newAbove"] as? Int == 0)
    }

    /// The demo table in points, scrolling sideways: the sticky item column shrinks, the header
    /// gets its shadow once rows pass under it, and rows carry drafts, selection and highlight.
    @Test func theWindowCarriesStickyPartsAndCellState() throws {
        let client = try daemon.connect()
        let top = try client.call(
            "scroll",
            #"{"table":"stock","viewport":{"width":375,"height":300},"horizontalScroll":true}"#
        )
        let header = try #require(top["header"] as? [String: Any])
        #expect(header["shadow"] as? Bool == false)
        let columns = try #require(top["columns"] as? [[String: Any]])
        let item = try #require(columns.first)
        #expect(item["key"] as? String == "item" && item["sticky"] as? Bool == true)
        #expect(columns.allSatisfy { ($0["x"] as? Int ?? 0) < 375 })
        let fullWidth = try #require(item["width"] as? Int)

        let sideways = try client.call("scroll", #"{"table":"stock","viewport":{"x":200,"y":30}}"#)
        let shrunk = try #require((sideways["columns"] as? [[String: Any]])?.first)
        #expect(shrunk["key"] as? String == "item")
        #expect((shrunk["width"] as? Int ?? 0) < fullWidth)
        #expect((sideways["header"] as? [String: Any])?["shadow"] as? Bool == true)
        #expect((sideways["viewport"] as? [String: Any])?["x"] as? Int == 200)
        let firstRow = try #require(Self.rows(sideways).first)
        #expect((firstRow["cells"] as? [String])?.first?.hasSuffix("…") == true)

        // An invalid edit, a selection and an add show up in the next window.
        let id = try #require(firstRow["id"] as? Int)
        let refused = try client.call("edit", #"{"table":"stock","id":\#(id),"column":"qty","value":"lots"}"#)
        #expect(errorData(refused)["kind"] as? String == "invalid_value")
        try client.call("select", #"{"table":"stock","ids":[\#(id)]}"#)
        let added = try client.call(
            "add",
            #"{"table":"stock","row":{"item":"Fresh Gasket","received":"2030-01-01"}}"#
        )
        let landed = try #require((added["added"] as? [[String: Any]])?.first)
        #expect(landed["index"] as? Int == 0)
        #expect(landed["scrollTo"] as? Int == 0)

        let window = try client.call("scroll", #"{"table":"stock","viewport":{"x":0,"y":0},"overscan":2}"#)
        let rows = Self.rows(window)
        #expect(rows.first?["highlight"] as? Double ?? 0 > 0.5)
        let edited = try #require(rows.first { $0["id"] as? Int == id })
        #expect(edited["selected"] as? Bool == true)
        let draft = try #require((edited["drafts"] as? [String: Any])?["qty"] as? [String: Any])
        #expect(draft["text"] as? String == "lots")
        #expect((draft["error"] as? String)?.isEmpty == false)
        #expect(window["errors"] as? Int == 1 && window["selected"] as? Int == 1)
        // Rows are given top to bottom, each right under the one before.
        for (upper, lower) in zip(rows, rows.dropFirst()) {
            #expect((upper["y"] as! Int) + (upper["height"] as! Int) == lower["y"] as! Int)
        }
    }

    /// Compact width: the list report, rows of object-view places.
    @Test func compactWidthScrollsTheListReport() throws {
        let window = try daemon.connect().call(
            "scroll",
            #"{"table":"stock","viewport":{"width":375,"height":600},"sizeClass":"compact"}"#
        )
        #expect(window["mode"] as? String == "list")
        let bindings = (window["columns"] as? [[String: Any]] ?? []).compactMap { $0["binding"] as? String }
        #expect(Array(bindings.prefix(3)) == ["headline", "subheadline", "footnote"])
        #expect((Self.rows(window).first?["cells"] as? [String])?.first == "Servo Motor SM-400")
    }

    @Test func badScrollsAreRefusedAndChangeNothing() throws {
        let client = try daemon.connect()
        func failure(_ params: String) throws -> (kind: String?, field: String?) {
            let data = errorData(try client.call("scroll", params))
            return (data["kind"] as? String, data["field"] as? String)
        }
        #expect(try failure(#"{"table":"nope","viewport":{"width":80,"height":10}}"#).kind == "no_such_table")
        #expect(try failure(#"{"table":"stock"}"#) == ("invalid_params", "params.viewport.width"))
        #expect(
            try failure(#"{"table":"stock","viewport":{"width":80}}"#) == ("invalid_params", "params.viewport.height")
        )

        let start = try client.call(
            "scroll",
            #"{"table":"stock","unit":"cell","viewport":{"width":80,"height":5,"y":2}}"#
        )
        #expect((start["viewport"] as? [String: Any])?["y"] as? Int == 2)
        #expect(try failure(#"{"table":"stock","to":{"id":1,"index":2}}"#) == ("invalid_params", "params.to"))
        #expect(try failure(#"{"table":"stock","to":{"index":1,"align":"middle"}}"#).field == "params.to.align")
        #expect(try failure(#"{"table":"stock","to":{"id":999}}"#).kind == "no_such_row")
        #expect(try failure(#"{"table":"stock","to":{"index":10}}"#) == ("invalid_value", "params.to.index"))
        #expect(try failure(#"{"table":"stock","viewport":{"y":1},"to":{"index":1}}"#).field == "params.to")
        #expect(try failure(#"{"table":"stock","follow":"sideways"}"#).field == "params.follow")
        #expect(try failure(#"{"table":"stock","overscan":100000}"#).field == "params.overscan")
        #expect(try failure(#"{"table":"stock","viewport":{"y":-3}}"#).field == "params.viewport.y")
        #expect(try failure(#"{"table":"stock","viewport":{"width":0}}"#).field == "params.viewport.width")
        #expect(try failure(#"{"table":"stock","unit":"inch"}"#).field == "params.unit")

        // The view is where it was.
        let same = try client.call("scroll", #"{"table":"stock"}"#)
        #expect((same["viewport"] as? [String: Any])?["y"] as? Int == 2)
        #expect((same["viewport"] as? [String: Any])?["width"] as? Int == 80)
        #expect(same["unit"] as? String == "cell")
    }
}
