import Testing

@testable import DataTableEngine

/// Tables that keep only their newest rows, and tables refreshed with a whole new set of rows.
@Suite struct RollingAndReplaceTests {
    static func feed(limit: Int?) throws -> Table {
        try Table(name: "feed", columns: [Column(key: "line", rules: try ColumnRules(type: .text))], limit: limit)
    }

    static func lines(_ table: Table) -> [String] {
        table.rows(from: 0, count: table.rowCount).map { "\($0.values[0])" }
    }

    static func add(_ table: inout Table, _ lines: [String]) throws -> [AddedRow] {
        try table.add(lines.map { RowInput(values: ["line": .text($0)]) }, now: 0)
    }

    @Test func addingPastTheLimitDropsTheOldestAndUndoBringsThemBack() throws {
        var table = try Self.feed(limit: 3)
        _ = try Self.add(&table, ["a", "b"])
        let version = table.version
        let added = try Self.add(&table, ["c", "d"])
        #expect(table.rowCount == 3 && table.droppedByLimit == [.number(1)])
        #expect(added.map(\.index) == [1, 2])
        // The add and the drop are two steps of the version: two events.
        #expect(table.version == version + 2)
        #expect(Self.lines(table) == [#"text("b")"#, #"text("c")"#, #"text("d")"#])
        let undone = try table.undo()
        #expect(undone.rowsBack == [.number(1)] && undone.rowsOut == [.number(3), .number(4)])
        #expect(table.rows(from: 0, count: 3).map(\.id) == [.number(1), .number(2)])
        _ = try table.redo()
        #expect(table.rows(from: 0, count: 3).map(\.id) == [.number(2), .number(3), .number(4)])
        // A batch larger than the limit keeps its newest rows.
        let many = try Self.add(&table, ["e", "f", "g", "h"])
        #expect(many.map(\.id) == [.number(6), .number(7), .number(8)])
        #expect(table.rows(from: 0, count: 3).map(\.id) == [.number(6), .number(7), .number(8)])
    }

    @Test func aLowerLimitDropsTheOldestAtOnceAndUndoTakesItBack() throws {
        var table = try Self.feed(limit: nil)
        _ = try Self.add(&table, ["a", "b", "c", "d"])
        var alteration = TableAlteration()
        alteration.limit = 2
        let summary = try table.alter(alteration)
        #expect(summary.limit == 2 && table.rowLimit == 2 && table.droppedByLimit == [.number(1), .number(2)])
        #expect(table.rows(from: 0, count: 4).map(\.id) == [.number(3), .number(4)])
        _ = try table.undo()
        #expect(table.rowLimit == nil && table.rowCount == 4)
        alteration.limit = -1
        #expect(throws: TableError.self) { try table.alter(alteration) }
        #expect(throws: TableError.self) { try Self.feed(limit: 0) }
    }

    @Test func aLoadPastTheLimitKeepsTheNewest() throws {
        var table = try Self.feed(limit: 2)
        let loaded = try TableLoader.parse("line\nx\ny\nz\n", format: .csv, columns: table.columns)
        #expect(try table.append(loaded) == 3)
        #expect(table.rowCount == 2 && table.droppedByLimit == [.number(1)])
    }

    static func bins() throws -> Table {
        var table = try Table(
            name: "bins",
            columns: [
                Column(key: "bin", rules: try ColumnRules(type: .text)),
                Column(key: "qty", rules: try ColumnRules(type: .number)),
            ],
            key: "bin"
        )
        _ = try table.add(
            [("A1", 1), ("B2", 2), ("C3", 3)].map { RowInput(values: ["bin": .text($0.0), "qty": .number($0.1)]) },
            now: 0
        )
        return table
    }

    @Test func aReplaceKeepsTheRowsWhoseKeyStays() throws {
        var table = try Self.bins()
        try table.sort(by: [SortKey(column: "qty", descending: true)])
        try table.select(.set, .ids([.text("B2"), .text("A1")]))
        #expect(throws: TableError.self) {
            try table.edit([CellEdit(id: .text("C3"), column: "qty", input: .text("lots"))])
        }
        let b2 = try #require(table.rowVersion(of: .text("B2")))
        try table.saveColumnState(#"{"columnOrder":["qty"]}"#, as: "mine")
        let filter = try RowFilter([.init(column: "qty", operator: .greaterOrEqual, values: [.number(3)])], in: table)
        table.setFilter(filter, id: 7)
        let version = table.version
        let loaded = try TableLoader.parse("bin,qty\nB2,2\nC3,30\nD4,4\n", format: .csv, columns: table.columns)
        let result = try table.replaceRows(with: loaded)
        #expect(result.kept == 2 && result.changed == 1 && result.added == 1 && result.removed == 1)
        #expect(table.version == version + 1 && !table.canUndo)
        #expect(table.columnStates == ["mine": #"{"columnOrder":["qty"]}"#])
        #expect(table.rows(from: 0, count: 3).map(\.id) == [.text("C3"), .text("D4"), .text("B2")])
        #expect(table.selectedIDs() == [.text("B2")])
        let draft = try table.rows(ids: [.text("C3")])[0].drafts[1]
        #expect(table.errorCount == 1 && draft?.text == "lots")
        #expect(table.rowVersion(of: .text("B2")) == b2 && table.rowVersion(of: .text("C3")) == table.version)
        #expect(table.shownCount(filter: 7) == 2)
        // A key given twice refuses the whole and changes nothing.
        let twice = try TableLoader.parse("bin,qty\nE5,1\nE5,2\n", format: .csv, columns: table.columns)
        #expect(throws: TableError.self) { try table.replaceRows(with: twice) }
        #expect(table.rowCount == 3 && table.version == version + 1)
    }

    @Test func aReplaceWithoutAKeyGivesNewIds() throws {
        var table = try Self.feed(limit: nil)
        _ = try Self.add(&table, ["a", "b"])
        _ = try table.delete([.number(2)])
        let loaded = try TableLoader.parse("line\nx\ny\n", format: .csv, columns: table.columns)
        let result = try table.replaceRows(with: loaded)
        #expect(result.kept == 0 && result.added == 2 && result.removed == 1)
        #expect(table.rows(from: 0, count: 2).map(\.id) == [.number(3), .number(4)])
    }
}
