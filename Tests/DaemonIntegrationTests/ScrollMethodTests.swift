import DataTableProtocol
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

    /// A view's own column state: one connection hides a column and puts another first; a
    /// second connection's view of the same table is as the table has it.
    @Test func aViewHidesAndOrdersColumnsForItselfOnly() throws {
        let first = try daemon.connect()
        let second = try daemon.connect()
        let viewport = ScrollRequest.Viewport(width: 120, height: 5)
        func keys(_ window: ScrollRequest.Response) -> [String] { window.columns.map(\.key) }
        let table = keys(try second.send(ScrollRequest(table: "stock", viewport: viewport, unit: .cell)))
        #expect(table.contains("rack") && table.first == "item")
        let own = try first.send(
            ScrollRequest(
                table: "stock",
                viewport: viewport,
                settings: LayoutSettings(
                    unit: .cell,
                    columns: ["rack": ColumnHints(hidden: true)],
                    columnOrder: ["qty"]
                )
            )
        )
        #expect(keys(own) == ["qty"] + table.filter { $0 != "qty" && $0 != "rack" })
        #expect(own.rows.first.map { $0.cells.count } == keys(own).count)
        // The view keeps its state from scroll to scroll; the other view is untouched.
        #expect(keys(try first.send(ScrollRequest(table: "stock", viewport: .init(y: 1)))) == keys(own))
        #expect(keys(try second.send(ScrollRequest(table: "stock"))) == table)
        // layout takes the same settings.
        let layout = try first.send(
            LayoutRequest(
                table: "stock",
                width: 120,
                settings: LayoutSettings(unit: .cell, columnOrder: ["rack", "item"])
            )
        )
        #expect(Array(layout.columns.map(\.key).prefix(2)) == ["rack", "item"])
        let unknown = try first.failure(
            LayoutRequest(table: "stock", width: 120, settings: LayoutSettings(columnOrder: ["nope"]))
        )
        #expect(unknown.kind == .noSuchColumn)
        let twice = try first.failure(
            LayoutRequest(table: "stock", width: 120, settings: LayoutSettings(columnOrder: ["qty", "qty"]))
        )
        #expect(twice.details["field"] == "params.columnOrder")
    }

    /// Rows drill down by a column bound to `drillDown` or their own `$drillDown`, say so on
    /// every row of a scroll with the chevron, and keep saying so after a restart from the
    /// state directory (through a snapshot: every change compacts).
    @Test func rowsSayWhetherTheyDrillDownAndKeepItAcrossARestart() throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path, "--compact-after-bytes", "1"]
        let scroll = ScrollRequest(table: "parts", viewport: .init(width: 60, height: 10), unit: .cell)
        func drillDowns(_ window: ScrollRequest.Response) -> [Bool?] { window.rows.map(\.drillDown) }
        let expected: [Bool?] = [true, false, false, true]
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            try client.send(
                CreateRequest(
                    table: "parts",
                    columns: [ColumnDefinition(key: "name"), ColumnDefinition(key: "detail", binding: .drillDown)],
                    rows: [
                        ["name": "Servo", "detail": "yes"], ["name": "Gear"],
                        ["name": "Cable", "detail": "yes", "$drillDown": false], ["name": "Nut", "$drillDown": true],
                    ]
                )
            )
            let window = try client.send(scroll)
            #expect(drillDowns(window) == expected)
            #expect(window.accessories.right != nil)
            #expect(window.columns.map(\.key) == ["name"])
            let refused = try client.failure(AddRequest(table: "parts", row: ["name": "Bolt", "$drillDown": "no"]))
            #expect(refused.details["field"] == "params.row.$drillDown")
        }
        let daemon = try TestDaemon(arguments: arguments)
        #expect(drillDowns(try daemon.connect().send(scroll)) == expected)
        // Without the chevron, rows say nothing about it.
        let plain = try daemon.connect().send(
            ScrollRequest(
                table: "parts",
                viewport: .init(width: 60, height: 10),
                settings: LayoutSettings(unit: .cell, rightAccessory: RowAccessory.none)
            )
        )
        #expect(drillDowns(plain) == [nil, nil, nil, nil])
    }

    /// Two socat sessions on one table: one scrolls to row 500, the other adds 10 rows on
    /// top; the first one's next scroll shows the same row at the same y, with `newAbove: 10`.
    @Test func anotherClientsRowsAboveDoNotMoveTheView() throws {
        let first = try SocatSession(to: daemon, name: "first")
        let second = try SocatSession(to: daemon, name: "second")
        #expect(try first.client.send(numberedTable("feed", count: 1000)).rows == 1000)

        let before = try first.client.send(
            ScrollRequest(
                table: "feed",
                viewport: .init(width: 60, height: 20),
                to: .init(index: 500, align: .top),
                unit: .cell
            )
        )
        let anchor = try #require(before.rows.first)
        #expect(anchor.index == 500)
        #expect(anchor.y == 1)

        let rows: [JSONValue] = (1...10).map { ["n": .integer(Int64(5000 + $0)), "name": .string("new \($0)")] }
        let added = try second.client.send(AddRequest(table: "feed", rows: rows))
        #expect(added.rows == 1010)

        let after = try first.client.send(ScrollRequest(table: "feed"))
        let same = try #require(after.rows.first)
        #expect(same.id == anchor.id)
        #expect(same.y == anchor.y)
        #expect(same.index == 510)
        #expect(after.newAbove == 10)
        #expect(same.cells == anchor.cells)

        // The second session has a view of its own, at the top.
        let top = try second.client.send(
            ScrollRequest(table: "feed", viewport: .init(width: 30, height: 5), unit: .cell)
        )
        #expect(top.rows.first?.index == 0)
        #expect(top.viewport.width == 30)
        let again = try first.client.send(ScrollRequest(table: "feed"))
        #expect(again.viewport.width == 60)
        #expect(again.newAbove == 0)
    }

    /// The demo table in points, scrolling sideways: the sticky item column shrinks, the header
    /// gets its shadow once rows pass under it, and rows carry drafts, selection and highlight.
    @Test func theWindowCarriesStickyPartsAndCellState() throws {
        let client = try daemon.connect()
        let top = try client.send(
            ScrollRequest(
                table: "stock",
                viewport: .init(width: 375, height: 300),
                settings: LayoutSettings(horizontalScroll: true)
            )
        )
        #expect(top.header.shadow == false)
        let columns = top.columns
        let item = try #require(columns.first)
        #expect(item.key == "item" && item.sticky == true)
        #expect(columns.allSatisfy { $0.x < 375 })
        let fullWidth = item.width

        let sideways = try client.send(ScrollRequest(table: "stock", viewport: .init(x: 200, y: 30)))
        let shrunk = try #require(sideways.columns.first)
        #expect(shrunk.key == "item")
        #expect(shrunk.width < fullWidth)
        #expect(sideways.header.shadow == true)
        #expect(sideways.viewport.x == 200)
        let firstRow = try #require(sideways.rows.first)
        #expect(firstRow.cells.first?.hasSuffix("…") == true)

        // An invalid edit, a selection and an add show up in the next window.
        let id = firstRow.id
        _ = try #require(id.intValue, "the demo table numbers its rows")
        let refused = try client.failure(EditRequest(table: "stock", id: id, column: "qty", value: "lots"))
        #expect(refused.kind == .invalidValue)
        try client.send(SelectRequest(table: "stock", ids: [id]))
        let added = try client.send(
            AddRequest(table: "stock", row: ["item": "Fresh Gasket", "received": "2030-01-01"])
        )
        let landed = try #require(added.added.first)
        #expect(landed.index == 0)
        #expect(landed.scrollTo == 0)

        let window = try client.send(ScrollRequest(table: "stock", viewport: .init(x: 0, y: 0), overscan: 2))
        let rows = window.rows
        #expect(rows.first?.highlight ?? 0 > 0.5)
        let edited = try #require(rows.first { $0.id == id })
        #expect(edited.selected == true)
        let draft = try #require(edited.drafts?["qty"])
        #expect(draft.text == "lots")
        #expect(!draft.error.isEmpty)
        #expect(window.errors == 1 && window.selected == 1)
        // Rows are given top to bottom, each right under the one before.
        for (upper, lower) in zip(rows, rows.dropFirst()) {
            #expect(upper.y + upper.height == lower.y)
        }
    }

    /// Compact width: the list report, rows of object-view places.
    @Test func compactWidthScrollsTheListReport() throws {
        let window = try daemon.connect().send(
            ScrollRequest(
                table: "stock",
                viewport: .init(width: 375, height: 600),
                settings: LayoutSettings(sizeClass: .compact)
            )
        )
        #expect(window.mode == "list")
        let bindings = window.columns.compactMap(\.binding)
        #expect(Array(bindings.prefix(3)) == [.headline, .subheadline, .footnote])
        #expect(window.rows.first?.cells.first == "Servo Motor SM-400")
    }

    @Test func badScrollsAreRefusedAndChangeNothing() throws {
        let client = try daemon.connect()
        func failure(_ request: ScrollRequest) throws -> (kind: ErrorKind, field: String?) {
            let error = try client.failure(request)
            return (error.kind, error.details["field"]?.stringValue)
        }
        // A name outside a member's set is what no ScrollRequest can hold: sent as text.
        func failure(params: String) throws -> (kind: ErrorKind, field: String?) {
            let error = try client.failure(toLine: #"{"id":1,"method":"scroll","params":{"table":"stock",\#(params)}}"#)
            return (error.kind, error.details["field"]?.stringValue)
        }
        func stock(
            viewport: ScrollRequest.Viewport? = nil,
            to: ScrollRequest.Target? = nil,
            overscan: Int? = nil,
            follow: FollowEdge? = nil,
            unit: LengthUnit? = nil
        ) -> ScrollRequest {
            ScrollRequest(table: "stock", viewport: viewport, to: to, overscan: overscan, follow: follow, unit: unit)
        }
        #expect(
            try failure(ScrollRequest(table: "nope", viewport: .init(width: 80, height: 10))).kind == .noSuchTable
        )
        #expect(try failure(stock()) == (.invalidParams, "params.viewport.width"))
        #expect(try failure(stock(viewport: .init(width: 80))) == (.invalidParams, "params.viewport.height"))

        let start = try client.send(stock(viewport: .init(y: 2, width: 80, height: 5), unit: .cell))
        #expect(start.viewport.y == 2)
        #expect(try failure(stock(to: .init(id: 1, index: 2))) == (.invalidParams, "params.to"))
        #expect(try failure(params: #""to":{"index":1,"align":"middle"}"#) == (.invalidParams, "params.to.align"))
        #expect(try failure(stock(to: .init(id: 999))).kind == .noSuchRow)
        #expect(try failure(stock(to: .init(index: 10))) == (.invalidValue, "params.to.index"))
        #expect(try failure(stock(viewport: .init(y: 1), to: .init(index: 1))).field == "params.to")
        #expect(try failure(params: #""follow":"sideways""#) == (.invalidParams, "params.follow"))
        #expect(try failure(stock(overscan: 100000)).field == "params.overscan")
        #expect(try failure(stock(viewport: .init(y: -3))).field == "params.viewport.y")
        #expect(try failure(stock(viewport: .init(width: 0))).field == "params.viewport.width")
        #expect(try failure(params: #""unit":"inch""#) == (.invalidParams, "params.unit"))

        // The view is where it was.
        let same = try client.send(stock())
        #expect(same.viewport.y == 2)
        #expect(same.viewport.width == 80)
        #expect(same.unit == .cell)
    }
}
