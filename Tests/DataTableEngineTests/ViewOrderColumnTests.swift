import TestSupport
import Testing

@testable import DataTableEngine

/// Columns worked out from the rows a view shows and their order (`runningSum`,
/// `runningCount`, `rank`, `percentOfTotal`): equal, in every window, to what the rows above
/// give when added up again from the start, through edits, adds, deletes, sorts and filters.
@Suite struct ViewOrderColumnTests {
    /// item, qty, grade; run = runningSum(qty), place = runningCount(), rank = rank(),
    /// share = percentOfTotal(qty).
    static func table() throws -> Table {
        try Table(
            name: "ledger",
            columns: [
                Column(key: "item", rules: try ColumnRules(type: .text)),
                Column(key: "qty", rules: try ColumnRules(type: .number)),
                Column(key: "grade", rules: try ColumnRules(type: .text)),
                Column(key: "run", expression: ColumnExpression(source: "runningSum(qty)")),
                Column(key: "place", expression: ColumnExpression(source: "runningCount()")),
                Column(key: "rank", expression: ColumnExpression(source: "rank()")),
                Column(key: "share", expression: ColumnExpression(source: "percentOfTotal([qty])")),
            ]
        )
    }

    /// A row with a whole qty from -50 to 50 (empty one time in eight) and a grade of three.
    static func row(_ random: inout SeededRandom, _ next: inout Int) -> RowInput {
        next += 1
        let qty: CellInput = random.next() % 8 == 0 ? .null : .number(Double(Int(random.next() % 101) - 50))
        return RowInput(values: [
            "item": .text("item \(next)"), "qty": qty, "grade": .text(["A", "B", "C"][Int(random.next() % 3)]),
        ])
    }

    /// What the view-order columns of `view` should hold at each of its rows, from the rows
    /// it shows added up from the first: run, place, rank, share.
    static func expected(_ table: Table, _ view: ViewState) -> [[CellValue]] {
        let rows = table.viewRows(view)
        let slots = table.slots(of: rows, from: 0, limit: table.count(of: rows))
        let qty = table.columnIndex(of: "qty")!
        // Without a sort every row has its own place; with one, rows tie in their groups' and
        // the sort's values.
        var keys = table.sortKeys.map { table.columnIndex(of: $0.column)! }
        if !keys.isEmpty { keys = (rows.sectionsIndex.map { table.sections[$0].spec.columns } ?? []) + keys }
        func number(_ slot: UInt32) -> Double? {
            if case .number(let value) = table.stores[qty][slot] { return value }
            return nil
        }
        let total = slots.reduce(0.0) { $0 + (number($1) ?? 0) }
        var (sum, rank) = (0.0, 1)
        return slots.enumerated().map { position, slot in
            sum += number(slot) ?? 0
            if position > 0,
                keys.isEmpty || !keys.allSatisfy({ table.stores[$0][slot] == table.stores[$0][slots[position - 1]] })
            {
                rank = position + 1
            }
            let share: CellValue = number(slot).flatMap { total == 0 ? nil : .number($0 / total * 100) } ?? .empty
            return [.number(sum), .number(Double(position + 1)), .number(Double(rank)), share]
        }
    }

    @Test(.tags(.slow), arguments: [UInt64(11), 12])
    func aRunningTotalStaysTheSumOfTheRowsAboveThroughAThousandChanges(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var next = 0
        var table = try Self.table()
        _ = try table.add((0..<150).map { _ in Self.row(&random, &next) }, now: 0)
        let options = TableScrollTests.cells(300)
        // The whole table, a filtered view, and sections by grade (of every row).
        var views = [ViewState(), ViewState(), ViewState()]
        views[1].filter = 7
        views[2].sections = 9
        table.setSections(SectionSpec(columns: [2], style: .plain), id: 9, within: nil)
        let viewOrder = ["run", "place", "rank", "share"]
        var checkedRows = 0
        for step in 0..<1000 {
            let ids = table.orderSlots(from: 0, limit: table.rowCount).map(table.id(of:))
            switch random.next() % 10 {
            case 0, 1:
                _ = try table.add((0..<Int(1 + random.next() % 3)).map { _ in Self.row(&random, &next) }, now: 0)
            case 2:
                if ids.count > 20 { _ = try table.delete(Array(ids.shuffled(using: &random).prefix(2))) }
            case 3, 4, 5:
                let id = ids[Int(random.next() % UInt64(ids.count))]
                let input: CellInput = random.next() % 10 == 0 ? .null : .number(Double(Int(random.next() % 101) - 50))
                _ = try table.edit([CellEdit(id: id, column: "qty", input: input)])
            case 6:
                let id = ids[Int(random.next() % UInt64(ids.count))]
                _ = try table.edit([
                    CellEdit(id: id, column: "grade", input: .text(["A", "B", "C"][Int(random.next() % 3)]))
                ])
            case 7:
                let choices: [[SortKey]] = [
                    [], [SortKey(column: "qty")], [SortKey(column: "qty", descending: true)],
                    [SortKey(column: "grade"), SortKey(column: "qty")], [SortKey(column: "item")],
                ]
                try table.sort(by: choices[Int(random.next() % UInt64(choices.count))])
            default:
                let bound = Double(Int(random.next() % 61) - 30)
                let filter =
                    random.next() % 5 == 0
                    ? try RowFilter([], in: table)
                    : try RowFilter([.init(column: "qty", operator: .greater, values: [.number(bound)])], in: table)
                table.setFilter(filter, id: 7)
            }
            for index in views.indices {
                let expected = Self.expected(table, views[index])
                var input = ScrollInput(height: 14, y: Int(random.next() % 200), now: 0)
                input.values = true
                let window = try table.scroll(options, input, view: &views[index])
                let columns = viewOrder.map { key in window.columns.firstIndex { $0.key == key }! }
                for row in window.rows {
                    let values = columns.map { row.values![$0] }
                    #expect(values == expected[row.index], "step \(step), view \(index), row \(row.index)")
                    checkedRows += 1
                }
            }
        }
        #expect(checkedRows > 10_000)
    }

    @Test func viewOrderColumnsAreRefusedWhereTheyWouldChangeTheirOwnRows() throws {
        var table = try Self.table()
        #expect(
            throws: TableError.invalidArgument(
                "run follows the order of the rows a view shows: it cannot be sorted by.",
                field: "keys[0].column"
            )
        ) { try table.sort(by: [SortKey(column: "run")]) }
        #expect(throws: TableError.self) {
            try RowFilter([.init(column: "rank", operator: .greater, values: [.number(1)])], in: table)
        }
        func refusal(_ source: String) -> String? {
            var columns = try! Self.table().columns
            columns.append(Column(key: "x", expression: ColumnExpression(source: source)))
            do {
                _ = try Table(name: "x", columns: columns)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal("runningSum(qty) + 1")?.contains("must be the whole expression") == true)
        #expect(refusal("runningSum(item)")?.contains("sums a number column") == true)
        #expect(refusal("runningSum(run)")?.contains("itself; runningSum(column) sums") == true)
        #expect(refusal("rank(qty)")?.contains("takes no arguments") == true)
        #expect(refusal("run * 2")?.contains("no other column may use them") == true)
        #expect(refusal("percentOfTotal(qty * 2)")?.contains("one column, named alone") == true)
        #expect(refusal("percentOfTotal(qty)") == nil)
    }

    @Test func aSortKeyCannotBeRedefinedToFollowTheViewsOrderAndUndoTakesARedefinitionBack() throws {
        var table = try Self.table()
        _ = try table.add(
            [RowInput(values: ["qty": .number(2)]), RowInput(values: ["qty": .number(5)])],
            now: 0
        )
        var add = TableAlteration()
        add.add = [NewColumn(column: Column(key: "twice", expression: ColumnExpression(source: "qty * 2")))]
        _ = try table.alter(add)
        try table.sort(by: [SortKey(column: "twice", descending: true)])
        var redefine = TableAlteration()
        redefine.change = [Column(key: "twice", expression: ColumnExpression(source: "runningSum(qty)"))]
        let version = table.version
        #expect(
            throws: TableError.invalidExpression(
                "twice is a sort key and cannot follow the view's order; sort by other columns first.",
                field: "change[0].expression",
                offset: 0
            )
        ) { try table.alter(redefine) }
        #expect(table.version == version)
        try table.sort(by: [SortKey(column: "qty", descending: true)])
        _ = try table.alter(redefine)
        let twice = table.columnIndex(of: "twice")!
        #expect(table.rows(from: 0, count: 2).map { $0.values[twice] } == [.number(5), .number(7)])
        _ = try table.undo()
        #expect(table.rows(from: 0, count: 2).map { $0.values[twice] } == [.number(10), .number(4)])
    }
}
