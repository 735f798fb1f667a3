import TestSupport
import Testing

@testable import DataTableEngine

/// Adding, sorting, editing, selecting and deleting rows, as the table's owner sees it.
@Suite struct TableTests {
    @Test func rowsAppendWithoutASortAndGoInAtAGivenIndex() throws {
        var table = try Fixtures.stock()
        _ = try table.add([Fixtures.row(item: "a"), Fixtures.row(item: "b")], now: 0)
        let added = try table.add([Fixtures.row(item: "c")], at: 1, now: 0)
        #expect(added.map(\.index) == [1])
        #expect(table.column("item") == ["a", "c", "b"])
        #expect(table.ids == [.number(1), .number(3), .number(2)])
    }

    @Test(arguments: [false, true])
    func aNewRowLandsAfterItsEqualsUnderEitherDirection(descending: Bool) throws {
        var table = try Fixtures.stock()
        try table.sort(by: [SortKey(column: "received", descending: descending)])
        _ = try table.add(
            [
                Fixtures.row(item: "old", received: "2024-01-01"),
                Fixtures.row(item: "mid-1", received: "2024-02-01"),
                Fixtures.row(item: "new", received: "2024-03-01"),
            ],
            now: 0
        )
        let added = try table.add([Fixtures.row(item: "mid-2", received: "2024-02-01")], now: 0)
        let expected = descending ? ["new", "mid-1", "mid-2", "old"] : ["old", "mid-1", "mid-2", "new"]
        #expect(table.column("item") == expected)
        #expect(added[0].index == 2)
    }

    @Test func theNewestRowLandsOnTopUnderADescendingDateSort() throws {
        var table = try Fixtures.stock()
        try table.sort(by: [SortKey(column: "received", descending: true)])
        _ = try table.add([Fixtures.row(item: "a", received: "2024-01-05")], now: 0)
        let newest = try table.add([Fixtures.row(item: "b", received: "2025-01-01")], now: 0)
        #expect(newest[0].index == 0)
    }

    @Test func sortIsTypedAndStable() throws {
        var table = try Fixtures.stock()
        _ = try table.add(
            [
                Fixtures.row(item: "banana", qty: 10),
                Fixtures.row(item: "Apple", qty: 9),
                Fixtures.row(item: "apple", qty: 100),
                Fixtures.row(item: "cherry"),
                Fixtures.row(item: "Banana", qty: 10),
            ],
            now: 0
        )
        try table.sort(by: [SortKey(column: "qty")])
        // Numbers numerically (9 < 10 < 100), empty first, ties in insertion order.
        #expect(table.column("item") == ["cherry", "Apple", "banana", "Banana", "apple"])
        try table.sort(by: [SortKey(column: "item")])
        // Case-insensitive, ties broken by the exact text.
        #expect(table.column("item") == ["Apple", "apple", "Banana", "banana", "cherry"])
        try table.sort(by: [SortKey(column: "qty", descending: true), SortKey(column: "item")])
        #expect(table.column("item") == ["apple", "Banana", "banana", "Apple", "cherry"])
        try table.sort(by: [])
        #expect(table.column("item") == ["banana", "Apple", "apple", "cherry", "Banana"])
    }

    @Test func datesSortChronologicallyAndPickersByOption() throws {
        var table = try Fixtures.stock()
        _ = try table.add(
            [
                Fixtures.row(["item": .text("x"), "received": .text("2024-10-01"), "grade": .text("High")]),
                Fixtures.row(["item": .text("y"), "received": .text("2024-09-30"), "grade": .text("Low")]),
                Fixtures.row(["item": .text("z"), "received": .text("2023-12-31"), "grade": .text("Medium")]),
            ],
            now: 0
        )
        try table.sort(by: [SortKey(column: "received")])
        #expect(table.column("item") == ["z", "y", "x"])
        try table.sort(by: [SortKey(column: "grade")])
        #expect(table.column("item") == ["y", "z", "x"])
    }

    @Test(arguments: [1, 7, 99])
    func aLargeSortAgreesWithTheRowComparison(seed: UInt64) throws {
        var generator = SeededRandom(seed: seed)
        var table = try Fixtures.stock()
        let words = ["alpha", "Alpha", "beta", "BETA", "gamma", "", "ärger", "Zulu", "zulu"]
        let rows = (0..<3000).map { _ in
            Fixtures.row([
                "item": .text("i"),
                "rack": .text(words.randomElement(using: &generator)!),
                "qty": Bool.random(using: &generator)
                    ? .number(Double(Int.random(in: 0..<20, using: &generator))) : .null,
            ])
        }
        _ = try table.add(rows, now: 0)
        let keys = [SortKey(column: "rack", descending: true), SortKey(column: "qty")]
        try table.sort(by: keys)
        let resolved = table.resolvedSortKeys
        let order = table.ids.map { table.slot(of: $0)! }
        for (left, right) in zip(order, order.dropFirst()) {
            #expect(table.compareRows(left, right, keys: resolved) < 0)
        }
    }

    @Test func editingASortKeyMovesTheRow() throws {
        var table = try Fixtures.stock()
        try table.sort(by: [SortKey(column: "qty")])
        _ = try table.add(
            [Fixtures.row(item: "a", qty: 1), Fixtures.row(item: "b", qty: 2), Fixtures.row(item: "c", qty: 3)],
            now: 0
        )
        let cells = try table.edit([CellEdit(id: .number(1), column: "qty", input: .text("5"))])
        #expect(cells[0].index == 2)
        #expect(cells[0].display == "5")
        #expect(table.column("item") == ["b", "c", "a"])
    }

    @Test func anInvalidEditKeepsADraftUntilAValidEditOrRevert() throws {
        var table = try Fixtures.stock()
        _ = try table.add([Fixtures.row(item: "a", received: "2024-01-01")], now: 0)
        let version = table.version
        #expect(throws: TableError.self) {
            try table.edit([CellEdit(id: .number(1), column: "received", input: .text("2024-02-30"))])
        }
        #expect(table.errorCount == 1)
        #expect(table.version > version)
        let row = try table.rows(ids: [.number(1)])[0]
        #expect(row.values[3] == .date(days: try ValueSyntax.date(.text("2024-01-01"))))
        #expect(row.drafts[3] == Draft(text: "2024-02-30", message: "2024-02-30 is not a day of the calendar."))
        _ = try table.edit([CellEdit(id: .number(1), column: "received", input: .text("2024-02-29"))])
        #expect(table.errorCount == 0)
        #expect(throws: TableError.self) {
            try table.edit([CellEdit(id: .number(1), column: "qty", input: .text("many"))])
        }
        #expect(try table.revert(id: .number(1), column: nil) == 1)
        #expect(table.errorCount == 0)
    }

    @Test func aBatchWithOneBadValueAddsNothingAndNamesTheRowAndColumn() throws {
        var table = try Fixtures.stock()
        _ = try table.add([Fixtures.row(item: "kept")], now: 0)
        let version = table.version
        do {
            _ = try table.add([Fixtures.row(item: "a", qty: 1), Fixtures.row(item: "b", qty: -4)], now: 0)
            Issue.record("the batch was accepted")
        } catch {
            guard case .invalidValues(let problems) = error else { throw error }
            #expect(problems.count == 1)
            #expect(problems[0].row == 1)
            #expect(problems[0].column == "qty")
            #expect(problems[0].message == "The value must be 0 or more.")
        }
        #expect(table.rowCount == 1)
        #expect(table.version == version)
    }

    /// Every row goes as one change; columns, sort and numbering stay (a new row after a clear
    /// gets the next id, never one given before).
    @Test func clearRemovesEveryRowAndKeepsColumnsSortAndNumbering() throws {
        var table = try Fixtures.stock()
        _ = try table.add([Fixtures.row(item: "a", qty: 1), Fixtures.row(item: "b", qty: 2)], now: 0)
        try table.sort(by: [SortKey(column: "qty", descending: true)])
        try table.select(.set, .ids([.number(1)]))
        #expect(throws: TableError.self) {
            try table.edit([CellEdit(id: .number(2), column: "qty", input: .text("x"))])
        }
        let version = table.version
        #expect(table.clear() == 2)
        #expect(table.rowCount == 0 && table.selectedCount == 0 && table.errorCount == 0)
        #expect(table.version == version + 1)
        #expect(table.sortKeys == [SortKey(column: "qty", descending: true)])
        let added = try table.add([Fixtures.row(item: "c", qty: 3)], now: 0)
        #expect(added.map(\.id) == [.number(3)])
        #expect(table.clear() == 1)
        #expect(table.clear() == 0)
    }

    /// Nothing commits, and every cell keeps what was typed: the refused one with why, the
    /// valid one saying it was not saved; a valid edit of both then clears both drafts.
    @Test func aBatchEditWithOneBadValueCommitsNothing() throws {
        var table = try Fixtures.stock()
        _ = try table.add([Fixtures.row(item: "a", qty: 1), Fixtures.row(item: "b", qty: 2)], now: 0)
        #expect(throws: TableError.self) {
            try table.edit([
                CellEdit(id: .number(1), column: "qty", input: .number(10)),
                CellEdit(id: .number(2), column: "qty", input: .text("x")),
            ])
        }
        #expect(table.column("qty") == ["1", "2"])
        let rows = try table.rows(ids: [.number(1), .number(2)])
        let qty = try #require(table.columnIndex(of: "qty"))
        #expect(rows[0].drafts[qty] == Draft(text: "10", message: Table.pendingMessage))
        #expect(rows[1].drafts[qty] == Draft(text: "x", message: "Enter a number, like 42 or 3.75."))
        #expect(table.errorCount == 2)
        _ = try table.edit([
            CellEdit(id: .number(1), column: "qty", input: .number(10)),
            CellEdit(id: .number(2), column: "qty", input: .number(3)),
        ])
        #expect(table.column("qty") == ["10", "3"])
        #expect(table.errorCount == 0)
        #expect(throws: TableError.noSuchRow(.number(9))) {
            try table.edit([
                CellEdit(id: .number(1), column: "qty", input: .number(10)),
                CellEdit(id: .number(9), column: "qty", input: .number(1)),
            ])
        }
        #expect(table.column("qty") == ["10", "3"])
        #expect(table.errorCount == 0)
    }

    @Test func readOnlyFollowsCellThenRowThenColumnThenTable() throws {
        var table = try Table(
            name: "t",
            columns: [
                Column(key: "a", rules: try ColumnRules(type: .text)),
                Column(key: "b", rules: try ColumnRules(type: .text), editable: true),
                Column(key: "c", rules: try ColumnRules(type: .text), editable: false),
            ],
            readOnly: true
        )
        _ = try table.add(
            [
                RowInput(values: [:]),
                RowInput(values: [:], readOnly: false),
                RowInput(values: [:], readOnly: true, readOnlyCells: ["b": false]),
            ],
            now: 0
        )
        func editable(_ id: Int64, _ column: String) -> Bool {
            (try? table.edit([CellEdit(id: .number(id), column: column, input: .text("x"))])) != nil
        }
        // Row 1 follows its columns, then the (read-only) table.
        #expect(!editable(1, "a"))
        #expect(editable(1, "b"))
        #expect(!editable(1, "c"))
        // Row 2 is editable, over its columns and the table.
        #expect(editable(2, "a") && editable(2, "c"))
        // Row 3 is read-only, but its cell b says otherwise.
        #expect(!editable(3, "a"))
        #expect(editable(3, "b"))
        #expect(throws: TableError.readOnly(.number(3), column: "c")) {
            try table.edit([CellEdit(id: .number(3), column: "c", input: .text("x"))])
        }
    }

    @Test func selectionSurvivesSortInsertAndDelete() throws {
        var table = try Fixtures.stock()
        _ = try table.add((0..<6).map { Fixtures.row(item: "r\($0)", qty: Double(6 - $0)) }, now: 0)
        try table.select(.set, .ids([.number(2), .number(5)]))
        try table.sort(by: [SortKey(column: "qty")])
        #expect(table.selectedIDs() == [.number(5), .number(2)])
        _ = try table.add([Fixtures.row(item: "new", qty: 0)], now: 0)
        _ = try table.delete([.number(5)])
        #expect(table.selectedIDs() == [.number(2)])
        #expect(table.selectedCount == 1)
        try table.select(.toggle, .range(from: 0, count: 2))
        #expect(table.selectedCount == 3)
        try table.select(.set, .all)
        #expect(table.selectedCount == table.rowCount)
        #expect(table.deleteSelection() == 6)
        #expect(table.rowCount == 0 && table.selectedCount == 0)
    }

    @Test func singleAndNoneModesLimitTheSelection() throws {
        var table = try Fixtures.stock()
        _ = try table.add((0..<3).map { Fixtures.row(item: "r\($0)") }, now: 0)
        table.setSelectionMode(.single)
        try table.select(.set, .ids([.number(1)]))
        try table.select(.add, .ids([.number(2)]))
        #expect(table.selectedIDs() == [.number(2)])
        #expect(throws: TableError.self) { try table.select(.set, .all) }
        // A refused change under a new mode leaves the mode and the selection as they were.
        let version = table.version
        #expect(throws: TableError.self) { try table.select(.set, .ids([.number(42)]), mode: .multiple) }
        #expect(table.selectionMode == .single && table.selectedIDs() == [.number(2)] && table.version == version)
        try table.select(.set, .all, mode: .multiple)
        #expect(table.selectedCount == 3)
        table.setSelectionMode(.none)
        #expect(table.selectedCount == 0)
        #expect(throws: TableError.self) { try table.select(.add, .ids([.number(1)])) }
    }

    @Test func undoAndRedoTakeBackEdits() throws {
        var table = try Fixtures.stock()
        _ = try table.add([Fixtures.row(item: "a", qty: 1)], now: 0)
        table.forgetHistory()
        _ = try table.edit([CellEdit(id: .number(1), column: "qty", input: .number(2))])
        _ = try table.edit([CellEdit(id: .number(1), column: "qty", input: .number(3))])
        #expect(try table.undo().cells[0].display == "2")
        #expect(try table.undo().cells[0].display == "1")
        #expect(throws: TableError.nothingToUndo(redo: false)) { try table.undo() }
        #expect(try table.redo().cells[0].display == "2")
        _ = try table.edit([CellEdit(id: .number(1), column: "qty", input: .number(7))])
        #expect(!table.canRedo)
    }

    @Test func keyColumnIdsAreStableAndUnique() throws {
        var table = try Fixtures.stock(key: "item")
        _ = try table.add([Fixtures.row(item: "A-1"), Fixtures.row(item: "A-2")], now: 0)
        #expect(throws: TableError.duplicateID(.text("A-1"), row: nil)) {
            try table.add([Fixtures.row(item: "A-1")], now: 0)
        }
        #expect(throws: TableError.readOnly(.text("A-1"), column: "item")) {
            try table.edit([CellEdit(id: .text("A-1"), column: "item", input: .text("B"))])
        }
        // Churn: delete and add many, every id still finds its row.
        for round in 0..<50 {
            _ = try table.add((0..<40).map { Fixtures.row(item: "k\(round)-\($0)") }, now: 0)
            _ = try table.delete((0..<40).filter { $0 % 3 == 0 }.map { .text("k\(round)-\($0)") })
        }
        for round in 0..<50 {
            for index in 0..<40 {
                #expect((table.index(of: .text("k\(round)-\(index)")) == nil) == (index % 3 == 0))
            }
        }
        #expect(table.index(of: .text("A-2")) != nil)
    }

    @Test func everyChangeRaisesTheVersion() throws {
        var table = try Fixtures.stock()
        var last = table.version
        func changed() -> Bool {
            defer { last = table.version }
            return table.version > last
        }
        _ = try table.add([Fixtures.row(item: "a")], now: 0)
        #expect(changed())
        _ = try table.edit([CellEdit(id: .number(1), column: "rack", input: .text("R1"))])
        #expect(changed())
        try table.select(.set, .all)
        #expect(changed())
        try table.sort(by: [SortKey(column: "rack")])
        #expect(changed())
        _ = table.deleteSelection()
        #expect(changed())
    }
}
