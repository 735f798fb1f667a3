import Testing
import TextMeasure

@testable import DataTableEngine

/// `scroll` in the engine: windows, variable heights, sideways scrolling with the sticky first
/// column, anchoring, highlights, targets and list mode. Cell units: the header is 1 line, rows
/// are 1 line (2 when a wrapping cell does not fit), 1 cell between columns.
@Suite struct TableScrollTests {
    /// A table of `count` rows: `n` (1, 2, …), `name` ("row N"), `notes` (wraps to 2 lines).
    static func numbered(_ count: Int, notes: (Int) -> String = { _ in "" }, sticky: Bool = false) throws -> Table {
        var table = try Table(
            name: "t",
            columns: [
                Column(key: "name", rules: try ColumnRules(type: .text), layout: ColumnLayout(sticky: sticky)),
                Column(key: "n", rules: try ColumnRules(type: .number)),
                Column(key: "notes", rules: try ColumnRules(type: .text), layout: ColumnLayout(lines: 2)),
            ],
            selectionMode: .none
        )
        _ = try table.add(
            (1...max(1, count)).prefix(count).map { number in
                RowInput(values: [
                    "name": .text("row \(number)"), "n": .number(Double(number)), "notes": .text(notes(number)),
                ])
            },
            now: 0
        )
        return table
    }

    static func cells(_ width: Int, scroll: Bool = false) -> LayoutOptions {
        var options = LayoutOptions(unit: .cell, width: width, data: .cells, header: .cells)
        options.horizontalScroll = scroll
        return options
    }

    static func names(_ window: ScrollWindow) -> [String] { window.rows.map { window.cells(of: $0)[0] } }

    @Test func windowsAtTheTopMiddleBottomAndPastTheEnd() throws {
        var table = try Self.numbered(1000)
        var view = ViewState()
        let options = Self.cells(40)

        let top = try table.scroll(options, ScrollInput(height: 11, y: 0, now: 0), view: &view)
        #expect(top.headerHeight == 1)
        #expect(top.contentHeight == 1001)
        #expect(top.firstVisible == 0 && top.lastVisible == 9)
        #expect(top.rows.map(\.y) == Array(1...10))
        #expect(Self.names(top).first == "row 1")
        #expect(!top.shadow)

        let middle = try table.scroll(options, ScrollInput(height: 11, y: 500, now: 0), view: &view)
        #expect(middle.firstVisible == 500 && middle.lastVisible == 509)
        #expect(middle.rows.first?.y == 1)
        #expect(Self.names(middle).first == "row 501")
        #expect(middle.shadow)

        // Half a row scrolled: cells are whole lines, so take a point-like unit instead.
        let bottom = try table.scroll(options, ScrollInput(height: 11, y: 990, now: 0), view: &view)
        #expect(bottom.y == 990)
        #expect(bottom.lastVisible == 999)
        #expect(bottom.rows.last.map { $0.y + $0.height } == 11)

        let past = try table.scroll(options, ScrollInput(height: 11, y: 1_000_000, now: 0), view: &view)
        #expect(past.y == 990)
        #expect(past.firstVisible == 990 && past.lastVisible == 999)

        let overscan = try table.scroll(options, ScrollInput(height: 11, y: 500, overscan: 3, now: 0), view: &view)
        #expect(overscan.rows.map(\.index) == Array(497...512))
        #expect(overscan.firstVisible == 500)
    }

    @Test func aViewportTallerThanTheTableShowsEveryRowFromTheTop() throws {
        var table = try Self.numbered(3)
        var view = ViewState()
        let window = try table.scroll(Self.cells(40), ScrollInput(height: 50, y: 20, now: 0), view: &view)
        #expect(window.y == 0)
        #expect(window.rows.map(\.index) == [0, 1, 2])
        var empty = try Self.numbered(0)
        let none = try empty.scroll(Self.cells(40), ScrollInput(height: 50, now: 0), view: &view)
        #expect(none.rows.isEmpty && none.firstVisible == nil)
    }

    /// Rows whose note does not fit take two lines; every row's y is the sum of the heights
    /// above it, before and after edits that make rows taller or shorter.
    @Test func rowsOfTwoHeightsAreFoundByOffset() throws {
        var table = try Self.numbered(300, notes: { $0 % 7 == 0 ? String(repeating: "long words ", count: 6) : "ok" })
        var view = ViewState()
        let options = Self.cells(40)
        func check(_ window: ScrollWindow) throws {
            // A naive reference: heights of every row in order, summed.
            let all = try table.scroll(options, ScrollInput(height: 100_000, y: 0, now: 0), view: &ViewState.scratch)
            var top = window.headerHeight - window.y
            var tops: [Int: Int] = [:]
            for row in all.rows {
                tops[row.index] = top
                top += row.height
            }
            #expect(window.contentHeight == window.headerHeight + all.rows.reduce(0) { $0 + $1.height })
            for row in window.rows { #expect(row.y == tops[row.index], "row \(row.index)") }
        }
        let first = try table.scroll(options, ScrollInput(height: 20, y: 150, now: 0), view: &view)
        #expect(first.rows.contains { $0.tall && $0.height == 2 && first.cells(of: $0)[2].contains("\n") })
        #expect(first.rows.contains { !$0.tall && $0.height == 1 })
        try check(first)

        // Make some short rows tall and some tall rows short, then look again.
        for number in [3, 14, 50, 140, 141, 142] {
            let long = number % 7 != 0
            _ = try table.edit([
                CellEdit(
                    id: .number(Int64(number)),
                    column: "notes",
                    input: .text(long ? String(repeating: "more words ", count: 8) : "x")
                )
            ])
        }
        _ = try table.delete([.number(100), .number(101)])
        _ = try table.add(
            [RowInput(values: ["name": .text("new"), "notes": .text(String(repeating: "z ", count: 40))])],
            at: 120,
            now: 0
        )
        try check(try table.scroll(options, ScrollInput(height: 20, y: 150, now: 0), view: &view))
        try table.sort(by: [SortKey(column: "n", descending: true)])
        try check(try table.scroll(options, ScrollInput(height: 20, y: 40, now: 0), view: &view))
        _ = try table.edit([CellEdit(id: .number(20), column: "n", input: .number(10_000))])
        try check(try table.scroll(options, ScrollInput(height: 20, y: 0, now: 0), view: &view))
    }

    /// Scrolling sideways: the first column sticks and shrinks to a quarter of the container;
    /// the others move left by x and leave the screen when they pass the sticky column.
    @Test func theStickyFirstColumnShrinksAsTheContentScrollsSideways() throws {
        var table = try Table(
            name: "wide",
            columns: [
                Column(key: "a", rules: try ColumnRules(type: .text), layout: ColumnLayout(sticky: true)),
                Column(key: "b", rules: try ColumnRules(type: .text)),
                Column(key: "c", rules: try ColumnRules(type: .text)),
                Column(key: "d", rules: try ColumnRules(type: .text)),
            ],
            selectionMode: .none
        )
        let word = String(repeating: "w", count: 20)
        _ = try table.add(
            [RowInput(values: ["a": .text(word), "b": .text(word), "c": .text(word), "d": .text(word)])],
            now: 0
        )
        var view = ViewState()
        let options = Self.cells(40, scroll: true)
        let start = try table.scroll(options, ScrollInput(height: 5, x: 0, now: 0), view: &view)
        #expect(start.contentWidth == 83)
        #expect(start.columns.map(\.key) == ["a", "b"])
        #expect(start.columns[0].sticky && start.columns[0].width == 20 && start.columns[0].x == 0)
        #expect(start.columns[1].x == 21)

        let shifted = try table.scroll(options, ScrollInput(height: 5, x: 6, now: 0), view: &view)
        #expect(shifted.columns[0].width == 14)
        #expect(shifted.cells(of: shifted.rows[0])[0] == String(repeating: "w", count: 13) + "…")
        #expect(shifted.columns[1].x == 15)

        // b (x 21) still reaches past the sticky column at x 30, and has gone at 32.
        let partly = try table.scroll(options, ScrollInput(height: 5, x: 30, now: 0), view: &view)
        #expect(partly.columns.map(\.key) == ["a", "b", "c", "d"])
        #expect(partly.columns[1].x == -9)
        let far = try table.scroll(options, ScrollInput(height: 5, x: 32, now: 0), view: &view)
        #expect(far.columns[0].width == 10)
        #expect(far.columns.map(\.key) == ["a", "c", "d"])
        #expect(far.columns[1].x == 10)

        let end = try table.scroll(options, ScrollInput(height: 5, x: 500, now: 0), view: &view)
        #expect(end.x == 43)
        #expect(end.columns.map(\.key) == ["a", "c", "d"])
        #expect(end.columns.last.map { $0.x + $0.width } == 40)

        let fitted = try table.scroll(Self.cells(40), ScrollInput(height: 5, x: 30, now: 0), view: &view)
        #expect(fitted.x == 0)
        #expect(fitted.columns.allSatisfy { !$0.sticky })
    }

    /// The must-show case: a view at row 500; 10 rows arrive on top; the next scroll without
    /// an offset shows the same row at the same y and says 10 are new above.
    @Test func theAnchorRowStaysPutWhenRowsArriveAbove() throws {
        var table = try Self.numbered(1000)
        try table.sort(by: [SortKey(column: "n", descending: true)])
        var view = ViewState()
        let options = Self.cells(40)
        let before = try table.scroll(
            options,
            ScrollInput(height: 21, target: .index(500, .top), now: 0),
            view: &view
        )
        let anchor = try #require(before.rows.first)
        #expect(anchor.index == 500 && anchor.y == 1)

        _ = try table.add((1...10).map { RowInput(values: ["n": .number(Double(5000 + $0))]) }, now: 1)
        let after = try table.scroll(options, ScrollInput(height: 21, now: 1), view: &view)
        #expect(after.rows.first?.id == anchor.id)
        #expect(after.rows.first?.y == anchor.y)
        #expect(after.rows.first?.index == 510)
        #expect(after.newAbove == 10)

        // Rows below the anchor move nothing and are not new above.
        _ = try table.add([RowInput(values: ["n": .number(-1)])], now: 2)
        let below = try table.scroll(options, ScrollInput(height: 21, now: 2), view: &view)
        #expect(below.rows.first?.id == anchor.id && below.rows.first?.y == anchor.y)
        #expect(below.newAbove == 0)

        // A row landing right at the anchor's place (just above it) pushes it down by one.
        guard case .number(let anchorN) = try table.rows(ids: [anchor.id])[0].values[1] else {
            Issue.record("the anchor has no number")
            return
        }
        _ = try table.add([RowInput(values: ["n": .number(anchorN + 0.5)])], now: 3)
        let at = try table.scroll(options, ScrollInput(height: 21, now: 3), view: &view)
        #expect(at.rows.first?.id == anchor.id && at.rows.first?.y == anchor.y)
        #expect(at.newAbove == 1)
        #expect(at.rows.first?.index == 511)

        // Asking again: nothing new.
        let again = try table.scroll(options, ScrollInput(height: 21, now: 3), view: &view)
        #expect(again.newAbove == 0 && again.y == at.y)
    }

    @Test func aDeletedAnchorHandsOverToTheNextRowShown() throws {
        var table = try Self.numbered(200)
        var view = ViewState()
        let options = Self.cells(40)
        let before = try table.scroll(options, ScrollInput(height: 11, y: 50, now: 0), view: &view)
        let anchor = before.rows[0]
        let next = before.rows[1]
        _ = try table.delete([anchor.id, .number(3)])
        let after = try table.scroll(options, ScrollInput(height: 11, now: 0), view: &view)
        #expect(after.rows.first { $0.id == next.id }?.y == next.y)

        // Every row shown gone: the row now at the anchor's old place takes over.
        _ = try table.delete(after.rows.map(\.id))
        let gone = try table.scroll(options, ScrollInput(height: 11, now: 0), view: &view)
        #expect(gone.firstVisible == after.firstVisible)
        #expect(gone.rows[0].y == after.rows[0].y)
    }

    @Test func aResortKeepsTheAnchorRowInPlace() throws {
        var table = try Self.numbered(500)
        var view = ViewState()
        let options = Self.cells(40)
        let before = try table.scroll(
            options,
            ScrollInput(height: 11, target: .index(100, .center), now: 0),
            view: &view
        )
        let anchor = before.rows[0]
        try table.sort(by: [SortKey(column: "name", descending: true)])
        let after = try table.scroll(options, ScrollInput(height: 11, now: 0), view: &view)
        #expect(after.rows[0].id == anchor.id)
        #expect(after.rows[0].y == anchor.y)
        #expect(after.rows[0].index != anchor.index)
        #expect(after.newAbove == 0)
    }

    @Test func targetsAlignTheRowAsAsked() throws {
        var table = try Self.numbered(100)
        var view = ViewState()
        let options = Self.cells(40)
        let top = try table.scroll(options, ScrollInput(height: 11, target: .index(40, .top), now: 0), view: &view)
        #expect(top.firstVisible == 40 && top.rows[0].y == 1)
        let bottom = try table.scroll(
            options,
            ScrollInput(height: 11, target: .index(40, .bottom), now: 0),
            view: &view
        )
        #expect(bottom.lastVisible == 40 && bottom.rows.last!.y == 10)
        let center = try table.scroll(
            options,
            ScrollInput(height: 11, target: .row(.number(41), .center), now: 0),
            view: &view
        )
        #expect(center.rows.first { $0.index == 40 }?.y == 6)
        // Nearest: already in view, so nothing moves.
        let nearest = try table.scroll(
            options,
            ScrollInput(height: 11, target: .index(42, .nearest), now: 0),
            view: &view
        )
        #expect(nearest.y == center.y)
        let down = try table.scroll(options, ScrollInput(height: 11, target: .index(90, .nearest), now: 0), view: &view)
        #expect(down.lastVisible == 90)
        #expect(throws: TableError.noSuchRow(.number(5000))) {
            try table.scroll(options, ScrollInput(height: 11, target: .row(.number(5000), .top), now: 0), view: &view)
        }
        #expect(throws: TableError.self) {
            try table.scroll(options, ScrollInput(height: 11, target: .index(100, .top), now: 0), view: &view)
        }
        #expect(view.y == down.y)
    }

    /// Added rows are highlighted 1 → 0 over two seconds, easing out.
    @Test(arguments: [(0.0, 1.0), (0.5, 0.5625), (1.0, 0.25), (1.5, 0.0625), (2.0, 0.0), (10.0, 0.0)])
    func highlightFadesOverTwoSeconds(after seconds: Double, intensity: Double) throws {
        var table = try Self.numbered(5)
        _ = try table.add([RowInput(values: ["name": .text("fresh")])], now: 100)
        var view = ViewState()
        let window = try table.scroll(Self.cells(40), ScrollInput(height: 10, now: 100 + seconds), view: &view)
        #expect(abs(window.rows[5].highlight - intensity) < 1e-9)
        #expect(window.rows[0].highlight == 0)
    }

    @Test func twoViewsOfOneTableKeepTheirOwnViewports() throws {
        var table = try Self.numbered(300)
        var narrow = ViewState()
        var wide = ViewState()
        let a = try table.scroll(Self.cells(20), ScrollInput(height: 6, y: 100, now: 0), view: &narrow)
        let b = try table.scroll(Self.cells(60), ScrollInput(height: 30, y: 10, now: 0), view: &wide)
        _ = try table.add([RowInput(values: ["name": .text("x")])], at: 0, now: 0)
        let a2 = try table.scroll(Self.cells(20), ScrollInput(height: 6, now: 0), view: &narrow)
        let b2 = try table.scroll(Self.cells(60), ScrollInput(height: 30, now: 0), view: &wide)
        #expect(a2.rows[0].id == a.rows[0].id && a2.y == a.y + 1)
        #expect(b2.rows[0].id == b.rows[0].id && b2.y == b.y + 1)
        #expect(a2.rows.count == 5 && b2.rows.count == 29)
    }

    @Test func followTopStaysAtTheTopWhileThere() throws {
        var table = try Self.numbered(50)
        try table.sort(by: [SortKey(column: "n", descending: true)])
        var view = ViewState(follow: .top)
        _ = try table.scroll(Self.cells(40), ScrollInput(height: 6, y: 0, now: 0), view: &view)
        _ = try table.add([RowInput(values: ["name": .text("newest"), "n": .number(99)])], now: 0)
        let followed = try table.scroll(Self.cells(40), ScrollInput(height: 6, now: 0), view: &view)
        #expect(followed.y == 0 && followed.cells(of: followed.rows[0])[0] == "newest")
        #expect(followed.newAbove == 0)

        // Scrolled away from the top, the anchor holds instead.
        let away = try table.scroll(Self.cells(40), ScrollInput(height: 6, y: 10, now: 0), view: &view)
        _ = try table.add([RowInput(values: ["name": .text("newer"), "n": .number(100)])], now: 0)
        let held = try table.scroll(Self.cells(40), ScrollInput(height: 6, now: 0), view: &view)
        #expect(held.rows[0].id == away.rows[0].id && held.newAbove == 1)
    }

    @Test func rowsCarryDraftsSelectionAndReadOnlyCells() throws {
        var table = try Fixtures.stock()
        _ = try table.add([Fixtures.row(item: "Bolt", qty: 4), Fixtures.row(item: "Nut", qty: 9)], now: 0)
        #expect(throws: TableError.self) {
            try table.edit([CellEdit(id: .number(1), column: "qty", input: .text("abc"))])
        }
        try table.select(.set, .ids([.number(2)]))
        var view = ViewState()
        let window = try table.scroll(Self.cells(80), ScrollInput(height: 10, now: 0), view: &view)
        let qty = try #require(window.columns.firstIndex { $0.key == "qty" })
        #expect(window.cells(of: window.rows[0])[qty] == "abc")
        #expect(window.rows[0].drafts.map(\.column) == [qty])
        #expect(window.rows[0].drafts.first?.draft.message.isEmpty == false)
        #expect(!window.rows[0].selected && window.rows[1].selected)
        #expect(window.rows[0].readOnly.isEmpty)

        var locked = try Fixtures.stock(readOnly: true)
        _ = try locked.add([Fixtures.row(item: "Bolt")], now: 0)
        let lockedWindow = try locked.scroll(Self.cells(80), ScrollInput(height: 10, now: 0), view: &view)
        #expect(lockedWindow.rows[0].readOnly.count == lockedWindow.columns.count)
    }

    /// In a list report each field is cut to its own width: at 40 cells the status area is 30%
    /// (12 cells, from 28), and the headline takes 0 to 27 (27 cells, one apart).
    @Test func listReportFieldsAreCutToTheirOwnWidths() throws {
        var table = try Table(
            name: "t",
            columns: [
                Column(key: "item", rules: try ColumnRules(type: .text), layout: ColumnLayout(binding: .headline)),
                Column(key: "qty", rules: try ColumnRules(type: .number), layout: ColumnLayout(binding: .status)),
            ]
        )
        _ = try table.add(
            [
                RowInput(values: [
                    "item": .text("A very long item name that does not fit in the row"), "qty": .number(12345),
                ])
            ],
            now: 0
        )
        var options = Self.cells(40)
        options.sizeClass = .compact
        var view = ViewState()
        let window = try table.scroll(options, ScrollInput(height: 5, now: 0), view: &view)
        #expect(window.columns.map { "\($0.key) \($0.x)+\($0.width)" } == ["item 0+27", "qty 28+12"])
        let cells = window.cells(of: window.rows[0])
        #expect(cells[0] == "A very long item name that…")
        #expect(cells[1] == "12345")
    }

    /// A column bound to `drillDown` says which rows have the chevron (and is not drawn); a
    /// row's own `$drillDown` says so over it; the chevron comes by default with the column.
    @Test func rowsDrillDownByTheirColumnOrTheirOwnSetting() throws {
        var table = try Table(
            name: "t",
            columns: [
                Column(key: "item", rules: try ColumnRules(type: .text)),
                Column(key: "more", rules: try ColumnRules(type: .text), layout: ColumnLayout(binding: .drillDown)),
                Column(key: "count", rules: try ColumnRules(type: .number)),
            ]
        )
        let rows: [(String, CellInput, Bool?)] = [
            ("yes", .text("yes"), nil), ("empty", .null, nil), ("no", .text("No"), nil), ("zero", .text("0"), nil),
            ("false", .text("FALSE"), nil), ("own off", .text("yes"), false), ("own on", .null, true),
        ]
        _ = try table.add(
            rows.map { RowInput(values: ["item": .text($0.0), "more": $0.1, "count": .number(1)], drillDown: $0.2) },
            now: 0
        )
        var view = ViewState()
        let window = try table.scroll(Self.cells(60), ScrollInput(height: 10, now: 0), view: &view)
        #expect(window.plan.rightAccessory?.kind == .chevron)
        #expect(window.columns.map(\.key) == ["item", "count"])
        #expect(window.rows.map(\.drillDown) == [true, false, false, false, false, false, true])
        // Without the chevron, rows say nothing about it.
        var none = Self.cells(60)
        none.rightAccessory = Accessory.none
        var other = ViewState()
        let plain = try table.scroll(none, ScrollInput(height: 10, now: 0), view: &other)
        #expect(plain.rows.allSatisfy { $0.drillDown == nil })
    }

    /// Rows and cells with read-only settings of their own, between rows that follow their
    /// columns and table, in an editable table and a read-only one.
    @Test(arguments: [false, true]) func rowsAndCellsOfTheirOwnAreReadOnlyAsTheySay(tableReadOnly: Bool) throws {
        var table = try Fixtures.stock(readOnly: tableReadOnly)
        func row(_ item: String, readOnly: Bool? = nil, cells: [String: Bool] = [:]) -> RowInput {
            RowInput(values: ["item": .text(item), "qty": .number(1)], readOnly: readOnly, readOnlyCells: cells)
        }
        _ = try table.add(
            [
                row("Plain"), row("Locked", readOnly: true), row("Open", readOnly: false),
                row("Qty locked", cells: ["qty": true]), row("Qty open", cells: ["qty": false]), row("Plain too"),
            ],
            now: 0
        )
        var view = ViewState()
        let window = try table.scroll(Self.cells(80), ScrollInput(height: 10, now: 0), view: &view)
        let keys = window.columns.map(\.key)
        let all = Set(keys)
        let following: Set<String> = tableReadOnly ? all : []
        let expected: [Set<String>] = [
            following, all, [],
            following.union(["qty"]), following.subtracting(["qty"]), following,
        ]
        #expect(window.rows.map { Set($0.readOnly.map { keys[$0] }) } == expected)
    }

    /// A scroll that needs no change to the table (the view's plan is current and its row
    /// offsets kept) can run as a reader; it gives the window a changing scroll gives.
    @Test func aScrollAsIsMatchesTheScrollAndDeclinesWhenTheTableMustChange() throws {
        var table = try Self.numbered(300, notes: { $0 % 3 == 0 ? String(repeating: "long words ", count: 6) : "" })
        let options = Self.cells(40)
        var readerView = ViewState()
        #expect(try table.scrollAsIs(options, ScrollInput(height: 11, y: 0, now: 0), view: &readerView) == nil)
        var view = ViewState()
        _ = try table.scroll(options, ScrollInput(height: 11, y: 0, now: 0), view: &view)
        readerView = view
        for y in [0, 7, 120, 5_000] {
            let input = ScrollInput(height: 11, y: y, now: 0)
            let read = try #require(try table.scrollAsIs(options, input, view: &readerView))
            let changed = try table.scroll(options, input, view: &view)
            #expect(read.rows.map(read.cells(of:)) == changed.rows.map(changed.cells(of:)))
            #expect(read.rows.map(\.y) == changed.rows.map(\.y))
            #expect(read.rows.map(\.height) == changed.rows.map(\.height))
            #expect(read.y == changed.y && read.contentHeight == changed.contentHeight)
            #expect(readerView.anchorIndex == view.anchorIndex && readerView.y == view.y)
        }
        // Another width needs another plan.
        #expect(try table.scrollAsIs(Self.cells(50), ScrollInput(height: 11, now: 0), view: &readerView) == nil)
        // A change that widens no column keeps the plan (and the window is the one a changing
        // scroll gives); one that makes a column's content wider needs the plan made again.
        _ = try table.add([RowInput(values: ["name": .text("extra")])], now: 0)
        var fresh = view
        let kept = try #require(try table.scrollAsIs(options, ScrollInput(height: 11, now: 0), view: &readerView))
        let remade = try table.scroll(options, ScrollInput(height: 11, now: 0), view: &fresh)
        #expect(kept.rows.map(kept.cells(of:)) == remade.rows.map(remade.cells(of:)))
        #expect(kept.columns.map(\.width) == remade.columns.map(\.width) && kept.contentHeight == remade.contentHeight)
        _ = try table.add([RowInput(values: ["name": .text(String(repeating: "wider ", count: 8))])], now: 0)
        #expect(try table.scrollAsIs(options, ScrollInput(height: 11, now: 0), view: &readerView) == nil)
    }

    /// Compact width without sideways scrolling: the list report's rows, each cell a place of
    /// the object view.
    @Test func compactWidthScrollsTheListReport() throws {
        var table = try Self.numbered(40, notes: { "note \($0)" })
        var options = Self.cells(30)
        options.sizeClass = .compact
        var view = ViewState()
        // Three lines a row (headline, subheadline, footnote); y 4 is one line into row 1.
        let window = try table.scroll(options, ScrollInput(height: 6, y: 4, now: 0), view: &view)
        #expect(window.plan.mode == .list)
        #expect(window.headerHeight == 0)
        #expect(window.columns.map(\.binding) == [.headline, .subheadline, .footnote])
        #expect(window.rows.first.map(window.cells(of:)) == ["row 2", "2", "note 2"])
        #expect(window.rows.first?.y == -1)
    }

    /// A one-line cell shows a line break or a tab as a space and is measured so: nothing raw
    /// reaches a terminal, and the row stays one line high.
    @Test func lineBreaksAndTabsInAOneLineCellAreSpaces() throws {
        var table = try Table(
            name: "t",
            columns: [
                Column(key: "said", rules: try ColumnRules(type: .text)),
                Column(key: "b", rules: try ColumnRules(type: .text)),
            ],
            selectionMode: .none
        )
        _ = try table.add(
            [RowInput(values: ["said": .text("he said \"hi\"\nline2"), "b": .text("a\tb")])],
            now: 0
        )
        var view = ViewState()
        let window = try table.scroll(Self.cells(80, scroll: true), ScrollInput(height: 5, y: 0, now: 0), view: &view)
        let row = try #require(window.rows.first)
        #expect(window.cells(of: row) == ["he said \"hi\" line2", "a b"])
        #expect(row.height == 1 && !row.tall)
        // The tab is one cell: "a b" is 3 wide (the first column fills the rest).
        #expect(window.columns.map(\.width).last == 3, "\(window.columns.map(\.width))")
    }
}

extension ViewState {
    /// A view used once, for a reference window.
    nonisolated(unsafe) static var scratch = ViewState()
}
