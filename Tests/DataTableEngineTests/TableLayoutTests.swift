import Testing
import TextMeasure

@testable import DataTableEngine

/// `layout` on real tables: measured content, incremental widths, heights, list reports,
/// accessories and errors. Cell-unit layouts have no padding and 1 cell between columns.
@Suite struct TableLayoutTests {
    static let fonts = FontLibrary()

    static func table(
        _ columns: [Column],
        rows: [[String: CellInput]] = [],
        selection: SelectionMode = .none
    ) throws -> Table {
        var table = try Table(name: "t", columns: columns, selectionMode: selection)
        _ = try table.add(rows.map { RowInput(values: $0) }, now: 0)
        return table
    }

    static func text(_ key: String, _ label: String? = nil, layout: ColumnLayout = .init()) throws -> Column {
        Column(key: key, label: label ?? key, rules: try ColumnRules(type: .text), layout: layout)
    }

    static func cells(width: Int, scroll: Bool = false) -> LayoutOptions {
        var options = LayoutOptions(unit: .cell, width: width, data: .cells, header: .cells)
        options.horizontalScroll = scroll
        return options
    }

    static func points(width: Int, sizeClass: LayoutOptions.SizeClass = .regular, dataSize: Double = 15) throws
        -> LayoutOptions
    {
        let data = TextStyle(measure: try fonts.face(family: "DejaVu Sans", style: "Regular"), size: dataSize)
        let header = TextStyle(measure: try fonts.face(family: "DejaVu Sans", style: "Semibold"), size: 13)
        var options = LayoutOptions(unit: .pt, width: width, data: data, header: header)
        options.sizeClass = sizeClass
        return options
    }

    /// "재고 현황" is 4 wide syllables and a space: 9 cells; "😀 ok" is 2 + 3 = 5. Scrolling
    /// sideways, the column keeps its natural 9 cells in a 5-cell container.
    @Test func koreanAndEmojiAreMeasuredInCells() throws {
        var table = try Self.table(
            [try Self.text("name", "N")],
            rows: [["name": .text("재고 현황")], ["name": .text("😀 ok")]]
        )
        let plan = try table.layout(Self.cells(width: 5, scroll: true))
        #expect(plan.columns[0].width == 9)
        #expect(plan.contentWidth == 9)
        let fitted = try table.layout(Self.cells(width: 5))
        #expect(fitted.columns[0].width == 5)
        #expect(fitted.columns[0].truncated)
    }

    /// Item, qty and rack at 200 points: the title (item) gives up its width first, so the
    /// quantity and the rack stay whole and only the item is cut.
    @Test func theTitleIsCutBeforeANumber() throws {
        var table = try Self.table(
            [
                try Self.text("item"), Column(key: "qty", rules: try ColumnRules(type: .number)),
                try Self.text("rack"),
            ],
            rows: [["item": .text("Servo Motor SM-400"), "qty": .number(84), "rack": .text("B2")]]
        )
        let plan = try table.layout(try Self.points(width: 200))
        #expect(plan.columns.map(\.truncated) == [true, false, false], "\(plan.columns.map(\.width))")
        #expect(plan.columns.map(\.width).reduce(0, +) == 200)
    }

    /// A header word is not cut while a column's cells can give instead: from 230 points the
    /// notes are cut further so that "Quantity" stays whole over its short numbers. (At 200
    /// the three header words, 58 + 65 + 88 with padding, do not fit: a word is cut there.)
    @Test func aHeaderWordStaysWholeWhileCellsCanGive() throws {
        var table = try Self.table(
            [
                try Self.text("item"), try Self.text("notes"),
                Column(key: "qty", label: "Quantity", rules: try ColumnRules(type: .number)),
            ],
            rows: [
                [
                    "item": .text("Servo Motor SM-400 with cable"), "notes": .text("Order the new cable kit soon"),
                    "qty": .number(4),
                ]
            ]
        )
        for width in [230, 260, 300] {
            let plan = try table.layout(try Self.points(width: width))
            #expect(plan.column("qty")?.header == ["Quantity"], "at \(width): \(plan.columns.map(\.width))")
            #expect(plan.column("qty")?.truncated == false)
            #expect(plan.column("notes")?.truncated == true)
        }
    }

    /// The widest content follows adds, edits and deletes without re-measuring the table.
    @Test func theWidestContentFollowsEveryChange() throws {
        var table = try Self.table(
            [try Self.text("name", "N"), try Self.text("other", "O")],
            rows: [["name": .text("ab"), "other": .text("x")], ["name": .text("abcdef"), "other": .text("y")]]
        )
        func natural() throws -> Int { try table.layout(Self.cells(width: 2, scroll: true)).columns[0].width }
        #expect(try natural() == 6)
        _ = try table.edit([CellEdit(id: .number(2), column: "name", input: .text("abc"))])
        #expect(try natural() == 3)
        _ = try table.add([RowInput(values: ["name": .text("abcdefghij")])], now: 0)
        #expect(try natural() == 10)
        _ = try table.delete([.number(3)])
        #expect(try natural() == 3)
        // Undo brings the row back, then takes the add back, then the edit.
        _ = try table.undo()
        #expect(try natural() == 10)
        _ = try table.undo()
        #expect(try natural() == 3)
        _ = try table.undo()
        #expect(try natural() == 6)
        #expect(table.contentWidths.count == 1)
    }

    /// After many random changes, the kept widths equal a fresh measurement.
    @Test func keptWidthsMatchAFreshMeasurement() throws {
        var table = try Self.table([
            try Self.text("a", layout: ColumnLayout(lines: 2)), try Self.text("b"),
            Column(key: "n", rules: try ColumnRules(type: .number, decimals: 2)),
        ])
        _ = try table.layout(Self.cells(width: 80))
        var generator = SystemRandomNumberGenerator()
        var live: [RowID] = []
        for step in 0..<2_000 {
            let word = String(repeating: "가", count: Int.random(in: 0...12, using: &generator))
            let action = live.isEmpty ? 0 : Int.random(in: 0..<4, using: &generator)
            switch action {
            case 0:
                let added = try table.add(
                    [RowInput(values: ["a": .text(word), "b": .text("\(step)"), "n": .number(Double(step) * 1.5)])],
                    now: 0
                )
                live.append(added[0].id)
            case 1:
                _ = try table.edit([
                    CellEdit(id: live.randomElement(using: &generator)!, column: "a", input: .text(word))
                ])
            case 2:
                let id = live.remove(at: Int.random(in: 0..<live.count, using: &generator))
                _ = try table.delete([id])
            default:
                _ = try table.edit([
                    CellEdit(id: live.randomElement(using: &generator)!, column: "n", input: .number(Double(step) * -7))
                ])
            }
        }
        let kept = table.contentWidths[0]
        let fresh = ContentWidths(measure: CellMeasure(), wrapping: [0], table: table)
        #expect(kept.columns.map(\.widest) == fresh.columns.map(\.widest))
        for slot in 0..<UInt32(table.slotCount) {
            #expect(kept.width(slot: slot, column: 0) == fresh.width(slot: slot, column: 0))
        }
    }

    /// A 10-cell column cannot hold "Weight in kilograms" on one line: the label wraps to two,
    /// and the header is two lines high.
    @Test func headerLabelsWrapToTwoLines() throws {
        var table = try Self.table([
            try Self.text("a", "Item"), try Self.text("w", "Weight in kilograms", layout: ColumnLayout(width: 10)),
        ])
        let plan = try table.layout(Self.cells(width: 40))
        #expect(plan.column("w")?.header == ["Weight in", "kilograms"])
        #expect(plan.headerLines == 2)
        #expect(plan.headerHeight == 2)
        // In points: 13-pt semibold lines are 16 high, plus 8 above and below.
        var pointTable = try Self.table([
            try Self.text("a", "Item"),
            try Self.text("w", "Received date and time at the dock", layout: ColumnLayout(width: 120)),
        ])
        let points = try pointTable.layout(Self.points(width: 1000))
        #expect(points.column("w")?.header.count == 2)
        #expect(points.headerHeight == 2 * 16 + 2 * 8)
    }

    /// Rows are one line (15-pt DejaVu Sans: 18 high, + 16 above and below = 50) unless a
    /// wrapping column holds more than fits: those rows are two lines (68), top-aligned.
    @Test func rowHeightsFollowTheTallestCell() throws {
        let notes = try Self.text("notes", "Notes", layout: ColumnLayout(width: 10, lines: 2))
        var table = try Self.table(
            [try Self.text("a"), notes],
            rows: [["notes": .text("short")], ["notes": .text("a much longer note")], ["notes": .text("ten chars!")]]
        )
        let plan = try table.layout(Self.cells(width: 40))
        #expect(plan.rowHeight == 1)
        #expect(plan.twoLineRowHeight == 2)
        #expect(plan.twoLineRows == 1)
        #expect(plan.contentHeight == 1 + 1 + 2 + 1)
        _ = try table.edit([CellEdit(id: .number(1), column: "notes", input: .text("now it is longer"))])
        #expect(try table.layout(Self.cells(width: 40)).twoLineRows == 2)

        var pointTable = try Self.table(
            [try Self.text("a"), try Self.text("notes", layout: ColumnLayout(width: 100, lines: 2))],
            rows: [["notes": .text("ok")], ["notes": .text("a note far wider than one hundred points")]]
        )
        let points = try pointTable.layout(Self.points(width: 1000))
        #expect(points.lineHeight == 18)
        #expect(points.rowHeight == 50)
        #expect(points.twoLineRowHeight == 68)
        #expect(points.twoLineRows == 1)
        #expect(points.headerHeight == 32)
        #expect(points.contentHeight == 32 + 50 + 68)
        // A small font still makes rows at least 44 high.
        #expect(try pointTable.layout(Self.points(width: 1000, dataSize: 8)).rowHeight == 44)
    }

    /// Natural width in points: the widest of the bold header and the data, plus 12 either side.
    @Test func naturalWidthsInPointsComeFromTheFont() throws {
        let face = try Self.fonts.face(family: "DejaVu Sans", style: "Regular")
        var table = try Self.table(
            [try Self.text("a", "A"), try Self.text("b", "B")],
            rows: [["b": .text("0123456789")]]
        )
        let plan = try table.layout(Self.points(width: 1000))
        // Ten digits of 1303 units at 15 pt on a 2048 em: 95.43, rounded up to 96; + 24.
        #expect(TextStyle(measure: face, size: 15).wholeWidth(units: face.units("0123456789")) == 96)
        #expect(plan.column("b")?.width == 120)
        #expect(plan.column("a")?.width == 880)
    }

    /// Compact width without sideways scrolling: a list report. Item, rack, qty → headline,
    /// subheadline, footnote; the photo → detailImage; weight → status; the date → substatus;
    /// grade has no place left. Three text lines: 3 × 18 + 32 = 86 per row.
    @Test func compactWidthWithoutScrollingIsAListReport() throws {
        var table = try Self.table(
            [
                try Self.text("item"), try Self.text("rack"),
                Column(key: "qty", rules: try ColumnRules(type: .number)),
                Column(key: "photo", rules: try ColumnRules(type: .image)),
                Column(key: "weight", rules: try ColumnRules(type: .number)),
                Column(key: "received", rules: try ColumnRules(type: .date)),
                Column(key: "grade", rules: try ColumnRules(type: .picker, options: ["A", "B"])),
            ],
            rows: [["item": .text("Bolt")], ["item": .text("Nut")]]
        )
        let plan = try table.layout(Self.points(width: 375, sizeClass: .compact))
        #expect(plan.mode == .list)
        #expect(
            plan.bindings.map { "\($0.binding.rawValue)=\($0.column)" } == [
                "headline=item", "subheadline=rack", "footnote=qty", "detailImage=photo", "status=weight",
                "substatus=received",
            ]
        )
        #expect(plan.column("grade")?.omitted == true)
        #expect(plan.rowHeight == 86)
        #expect(plan.contentHeight == 2 * 86)
        // Across the row, as FUIObjectView: the photo 12 from the leading edge, 45 wide; the
        // status area 30% of 375 (112) ending 12 from the trailing edge, at 251; the text lines
        // between, from 12 after the photo (69) to 12 before the status area (239): 170.
        let places = plan.columns.filter { !$0.omitted }.map { "\($0.key) \($0.x ?? -1)+\($0.width)" }
        #expect(
            places == ["item 69+170", "rack 69+170", "qty 69+170", "photo 12+45", "weight 251+112", "received 251+112"]
        )
        #expect(plan.column("grade")?.x == nil)
        // With sideways scrolling, compact width is a table again.
        var scrolling = try Self.points(width: 375, sizeClass: .compact)
        scrolling.horizontalScroll = true
        #expect(try table.layout(scrolling).mode == .table)
        // Explicit bindings for this layout only.
        var chosen = try Self.points(width: 375, sizeClass: .compact)
        chosen.columns = ["grade": ColumnLayout(binding: .headline)]
        #expect(try table.layout(chosen).bindings.map(\.column) == ["grade"])
    }

    /// Multiple selection shows checkboxes on the left; a sync-status column becomes the left
    /// accessory when there are none; a chevron sits at the right edge.
    @Test func accessoriesSitBesideTheColumns() throws {
        var selecting = try Self.table([try Self.text("a"), try Self.text("b")], selection: .multiple)
        var options = try Self.points(width: 1000)
        options.rightAccessory = .chevron
        let plan = try selecting.layout(options)
        #expect(plan.leftAccessory == .init(kind: .checkbox, x: 0, width: 44))
        #expect(plan.rightAccessory == .init(kind: .chevron, x: 956, width: 44))
        #expect(plan.columns[0].x == 44)
        let last = plan.columns[1]
        #expect(last.x! + last.width == 956)

        var syncing = try Self.table([
            try Self.text("a"), try Self.text("sync", layout: ColumnLayout(binding: .syncStatus)),
        ])
        let synced = try syncing.layout(Self.points(width: 1000))
        #expect(synced.leftAccessory?.kind == .syncStatus)
        #expect(synced.columns.map(\.key) == ["a"])
    }

    /// Scrolling sideways, a sticky first column shrinks to 25% of the container.
    @Test func theStickyFirstColumnShrinksToAQuarter() throws {
        var table = try Self.table(
            [try Self.text("a", layout: ColumnLayout(sticky: true)), try Self.text("b")],
            rows: [["a": .text(String(repeating: "x", count: 60)), "b": .text(String(repeating: "y", count: 90))]]
        )
        let plan = try table.layout(Self.cells(width: 100, scroll: true))
        #expect(plan.sticky == .init(key: "a", width: 60, minWidth: 25))
        #expect(plan.sticky?.width(atOffset: 20) == 40)
        #expect(plan.contentWidth == 60 + 1 + 90)
        #expect(try table.layout(Self.cells(width: 100)).sticky == nil)
    }

    @Test func badLayoutHintsAreRefusedAndChangeNothing() throws {
        var table = try Self.table([
            try Self.text("a"), try Self.text("b"), Column(key: "p", rules: try ColumnRules(type: .image)),
        ])
        let version = table.version
        var twoFlexible = Self.cells(width: 80)
        twoFlexible.columns = ["a": .init(width: -1), "b": .init(width: -1)]
        #expect(
            throws: TableError.invalidLayout("At most one column can be flexible (width -1).", field: "columns.b.width")
        ) {
            try table.layout(twoFlexible)
        }
        var unknown = Self.cells(width: 80)
        unknown.columns = ["zzz": .init(width: 3)]
        #expect(throws: TableError.noSuchColumn("zzz", row: nil)) { try table.layout(unknown) }
        var imageAsText = Self.cells(width: 80)
        imageAsText.columns = ["p": .init(binding: .headline)]
        #expect(throws: TableError.self) { try table.layout(imageAsText) }
        var lines = Self.cells(width: 80)
        lines.columns = ["a": .init(lines: 3)]
        #expect(throws: TableError.self) { try table.layout(lines) }
        #expect(table.version == version)
        _ = try table.layout(Self.cells(width: 80))
        #expect(table.version == version)
    }
}

/// Content widths are measured a column at a time: a coded text column by its different texts,
/// numbers, dates, durations and booleans by their different values. Whatever the path, the
/// widths are the ones each cell measures to on its own.
@Suite struct ContentWidthMeasureTests {
    @Test func widthsAreThoseOfEachCellMeasuredAlone() throws {
        let rows = WidthMemo.capacity + 4000
        var lines = ["sku,grade,note,qty,price,day,lead,done"]
        let grades = ["Low", "Medium", "High", "ウィジェット", ""]
        for row in 0..<rows {
            let grade = grades[row % grades.count]
            let note = row % 11 == 0 ? "" : "note \(row * 7919 % 100_003)"
            let qty = row % 13 == 0 ? "" : String(row % 1200)
            let day = row % 17 == 0 ? "" : "2024-0\(row % 9 + 1)-1\(row % 10)"
            let lead = "\(row % 40)h \(row % 60)m"
            lines.append("S\(row),\(grade),\(note),\(qty),\(row),\(day),\(lead),\(row % 3 == 0)")
        }
        let loaded = try TableLoader.parse(lines.joined(separator: "\n"), format: .csv, columns: nil)
        var table = try Table(name: "t", columns: loaded.columns, key: "sku")
        _ = try table.append(loaded)
        #expect(table.stores[table.columnIndex["grade"]!].isCoded)
        _ = try table.delete((0..<rows).filter { $0 % 101 == 0 }.map { RowID.text("S\($0)") })
        let columns = Array(table.columns.indices)
        let widths = ContentWidths(measure: CellMeasure(), wrapping: columns, table: table)
        for column in columns {
            let rules = table.columns[column].rules
            var expected: [Int] = []
            for slot in 0..<UInt32(table.slotCount) {
                let value = table.stores[column][slot]
                let width = value.isEmpty ? 0 : CellMeasure().units(rules.displayText(value))
                expected.append(width)
                #expect(widths.width(slot: slot, column: column) == width, "\(table.columns[column].key) at \(slot)")
            }
            let counted = expected.filter { $0 > 0 }
            #expect(widths.columns[column].widest == (counted.max() ?? 0), "\(table.columns[column].key)")
            for threshold in Set(counted).sorted() {
                #expect(
                    widths.columns[column].count(widerThan: threshold) == counted.filter { $0 > threshold }.count,
                    "\(table.columns[column].key) wider than \(threshold)"
                )
            }
        }
    }
}
