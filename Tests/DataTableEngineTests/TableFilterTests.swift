import TestSupport
import Testing

@testable import DataTableEngine

/// Filtered views against a naive reference: after any sequence of adds, edits, deletes and
/// sorts, the rows a filter lets through, in order, are exactly the rows of the whole order that
/// meet it, and a filtered view scrolls over them.
@Suite struct TableFilterTests {
    static let racks = ["A1", "A2", "B1", "B2", "C1"]

    static func table() throws -> Table {
        try Table(
            name: "stock",
            columns: [
                Column(key: "item", rules: try ColumnRules(type: .text)),
                Column(key: "qty", rules: try ColumnRules(type: .number)),
                Column(key: "rack", rules: try ColumnRules(type: .picker, options: racks)),
                Column(key: "received", rules: try ColumnRules(type: .date)),
            ]
        )
    }

    static func randomRow(_ random: inout SeededRandom) -> RowInput {
        let words = ["Valve", "valve seat", "Pump", "Gauge", "Bolt", "VALVE", "pipe"]
        var values: [String: CellInput] = [
            "item": .text("\(words[Int(random.next() % UInt64(words.count))]) \(random.next() % 50)"),
            "rack": .text(racks[Int(random.next() % UInt64(racks.count))]),
            "received": .text("2024-0\(1 + random.next() % 9)-1\(random.next() % 9)"),
        ]
        if random.next() % 5 != 0 { values["qty"] = .number(Double(random.next() % 300)) }
        return RowInput(values: values)
    }

    /// Deletes a few random rows (one time in twenty, half the table: a large delete rebuilds
    /// the orders), unless ten or fewer are left.
    static func deleteSome(_ table: inout Table, _ random: inout SeededRandom) throws {
        let slots = table.orderSlots(from: 0, limit: table.rowCount)
        guard slots.count > 10 else { return }
        let count = random.next() % 20 == 0 ? slots.count / 2 : 1 + Int(random.next() % 3)
        _ = try table.delete(slots.shuffled(using: &random).prefix(count).map(table.id(of:)))
    }

    /// The rows of the whole order that `filter` admits, by id, asked row by row.
    static func reference(_ table: Table, _ filter: RowFilter) -> [RowID] {
        table.orderSlots(from: 0, limit: table.rowCount).filter { filter.admits($0, in: table) }.map(table.id(of:))
    }

    static func shown(_ table: Table, filter id: UInt64) -> [RowID] {
        let index = table.filterIndex(id)!
        return table.filters[index].rows.allSlots.map(table.id(of:))
    }

    static let filters: [([FilterCondition.Input], String)] = [
        ([.init(column: "qty", operator: .between, values: [.number(50), .number(200)])], ""),
        ([.init(column: "rack", operator: .oneOf, values: [.text("A1"), .text("B2")])], ""),
        ([.init(column: "qty", operator: .greaterOrEqual, values: [.number(100)])], "valve"),
        ([.init(column: "qty", operator: .empty, values: [])], ""),
        ([.init(column: "item", operator: .startsWith, values: [.text("VAL")])], ""),
        ([], "2024-03"),
    ]

    @Test(.tags(.slow), arguments: filters.indices)
    func filteredRowsFollowEveryChange(_ which: Int) throws {
        var random = SeededRandom(seed: UInt64(40 + which))
        var table = try Self.table()
        _ = try table.add((0..<300).map { _ in Self.randomRow(&random) }, now: 0)
        let (conditions, search) = Self.filters[which]
        let filter = try RowFilter(conditions, search: search, in: table)
        table.setFilter(filter, id: 7)
        #expect(Self.shown(table, filter: 7) == Self.reference(table, filter))
        for step in 0..<400 {
            switch random.next() % 6 {
            case 0, 1:
                _ = try table.add((0..<Int(1 + random.next() % 3)).map { _ in Self.randomRow(&random) }, now: 0)
            case 2:
                let slots = table.orderSlots(from: 0, limit: table.rowCount)
                guard !slots.isEmpty else { continue }
                let id = table.id(of: slots[Int(random.next() % UInt64(slots.count))])
                let column = ["qty", "rack", "item"][Int(random.next() % 3)]
                let input: CellInput =
                    switch column {
                    case "qty": .number(Double(random.next() % 300))
                    case "rack": .text(Self.racks[Int(random.next() % 5)])
                    default: Self.randomRow(&random).values["item"]!
                    }
                _ = try table.edit([CellEdit(id: id, column: column, input: input)])
            case 3:
                try Self.deleteSome(&table, &random)
            case 4:
                let keys: [[SortKey]] = [
                    [], [SortKey(column: "qty")], [SortKey(column: "item", descending: true)],
                    [SortKey(column: "rack"), SortKey(column: "received")],
                ]
                try table.sort(by: keys[Int(random.next() % 4)])
            default:
                if table.canUndo { _ = try table.undo() }
            }
            #expect(Self.shown(table, filter: 7) == Self.reference(table, filter), "after step \(step)")
        }
    }

    /// Views with equal filters share one set of rows, kept current once; a view that changes
    /// or drops its filter leaves the others theirs.
    @Test func viewsWithEqualFiltersShareTheirRows() throws {
        var random = SeededRandom(seed: 9)
        var table = try Self.table()
        _ = try table.add((0..<200).map { _ in Self.randomRow(&random) }, now: 0)
        let low = try RowFilter([.init(column: "qty", operator: .less, values: [.number(100)])], in: table)
        let high = try RowFilter([.init(column: "qty", operator: .greaterOrEqual, values: [.number(100)])], in: table)
        for view in UInt64(1)...3 { table.setFilter(low, id: view) }
        #expect(table.filters.count == 1)
        _ = try table.edit([CellEdit(id: table.ids(from: 0, limit: 1)[0], column: "qty", input: .number(5))])
        for view in UInt64(1)...3 { #expect(Self.shown(table, filter: view) == Self.reference(table, low)) }
        table.setFilter(high, id: 2)
        #expect(table.filters.count == 2)
        #expect(Self.shown(table, filter: 2) == Self.reference(table, high))
        table.dropFilter(1)
        #expect(table.hasFilter(3) && !table.hasFilter(1))
        #expect(Self.shown(table, filter: 3) == Self.reference(table, low))
        table.dropFilter(3)
        #expect(table.filters.count == 1 && table.hasFilter(2))
    }

    @Test func aFilteredViewScrollsOverTheRowsItShowsAndCountsOnlyThemAsNew() throws {
        var random = SeededRandom(seed: 5)
        var table = try Self.table()
        _ = try table.add((0..<500).map { _ in Self.randomRow(&random) }, now: 0)
        try table.sort(by: [SortKey(column: "qty", descending: true)])
        let filter = try RowFilter(
            [.init(column: "rack", operator: .oneOf, values: [.text("A1"), .text("B2")])],
            in: table
        )
        table.setFilter(filter, id: 3)
        let expected = Self.reference(table, filter)
        var view = ViewState()
        view.filter = 3
        let options = TableScrollTests.cells(60)
        let window = try table.scroll(options, ScrollInput(height: 11, y: 5, now: 0), view: &view)
        #expect(window.rowCount == 500)
        #expect(window.shownCount == expected.count)
        #expect(window.contentHeight == 1 + expected.count)
        #expect(window.rows.map(\.id) == Array(expected[5..<15]))
        #expect(window.rows.map(\.index) == Array(5..<15))
        #expect(window.filterDescription == "rack is A1 or B2")

        // Rows added on top: only those the filter lets through count as new, and the anchor
        // stays put.
        let anchor = window.rows[0].id
        var shownAbove = 0
        for _ in 0..<6 {
            let rack = ["A1", "C1"][Int(random.next() % 2)]
            if rack == "A1" { shownAbove += 1 }
            _ = try table.add(
                [RowInput(values: ["item": .text("new"), "qty": .number(1000), "rack": .text(rack)])],
                now: 0
            )
        }
        let again = try table.scroll(options, ScrollInput(height: 11, now: 0), view: &view)
        #expect(again.rows[0].id == anchor)
        #expect(again.newAbove == shownAbove)
        #expect(again.rows[0].index == 5 + shownAbove)

        // A row the filter hides cannot be scrolled to; one it shows can.
        let hidden = table.orderSlots(from: 0, limit: table.rowCount).map(table.id(of:)).first {
            !expected.contains($0) && $0 != anchor
        }!
        #expect(throws: TableError.self) {
            try table.scroll(options, ScrollInput(height: 11, target: .row(hidden, .top), now: 0), view: &view)
        }
        let target = try table.scroll(options, ScrollInput(height: 11, target: .index(20, .top), now: 0), view: &view)
        #expect(target.rows[0].index == 20)
    }

    /// A large table is looked at in pieces on several cores: the pieces join up in order.
    @Test(.tags(.slow)) func aLargeTableIsAdmittedPieceByPieceInOrder() throws {
        var random = SeededRandom(seed: 9)
        var table = try Self.table()
        _ = try table.add((0..<140_000).map { _ in Self.randomRow(&random) }, now: 0)
        try table.sort(by: [SortKey(column: "item")])
        let filter = try RowFilter(
            [.init(column: "qty", operator: .less, values: [.number(150)])],
            search: "valve",
            in: table
        )
        let admitted = table.admittedRows(filter).rows.allSlots.map(table.id(of:))
        #expect(admitted.count > 10_000)
        #expect(admitted == Self.reference(table, filter))
    }

    @Test func conditionsAreReadAsTheirColumnsTypesAndDescribedInWords() throws {
        let table = try Self.table()
        let filter = try RowFilter(
            [
                .init(column: "qty", operator: .greaterOrEqual, values: [.text("100")]),
                .init(column: "received", operator: .less, values: [.text("2024-05-01")]),
            ],
            search: "Valve",
            in: table
        )
        #expect(filter.description(in: table) == "qty ≥ 100 · received < 2024-05-01 · “Valve”")
        #expect(throws: TableError.self) {
            try RowFilter([.init(column: "qty", operator: .less, values: [.text("many")])], in: table)
        }
        #expect(throws: TableError.self) {
            try RowFilter([.init(column: "size", operator: .empty, values: [])], in: table)
        }
        #expect(throws: TableError.self) {
            try RowFilter([.init(column: "qty", operator: .between, values: [.number(5), .number(1)])], in: table)
        }
        #expect(throws: TableError.self) {
            try RowFilter([.init(column: "rack", operator: .equal, values: [.text("Z9")])], in: table)
        }
        #expect(FilterOperator(spelt: ">=") == .greaterOrEqual)
        #expect(FilterOperator(spelt: "!=") == .notEqual)
        #expect(FilterOperator(spelt: "≤") == .lessOrEqual)
        #expect(RowFilter.contains("Safety VALVE SV-12", folded: "valve"))
        #expect(!RowFilter.contains("Safety Valv", folded: "valve"))
        #expect(RowFilter.contains("Überdruckventil", folded: TextKey.folded("ÜBER")))
    }
}
