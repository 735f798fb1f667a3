import TestSupport
import Testing

@testable import DataTableEngine

/// Undo and redo of every change a person makes (add, delete, clear, edit, upsert, alter)
/// against a reference: the table as it looked before each change. After any random sequence,
/// `undo` gives back exactly the table before the change, `redo` exactly the table after it.
@Suite struct UndoHistoryTests {
    /// What a person sees of a table: its columns, and each row in order with its id, values,
    /// drafts and read-only cells.
    static func look(_ table: Table) -> [String] {
        var lines = [table.columns.map { "\($0.key):\($0.label):\($0.type.rawValue)" }.joined(separator: " ")]
        lines.append("readOnly \(table.readOnly) errors \(table.errorCount) rows \(table.rowCount)")
        for row in table.rows(from: 0, count: table.rowCount) {
            let values = row.values.map { "\($0)" }.joined(separator: "|")
            let drafts = row.drafts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.text)" }
            lines.append("\(row.id) \(values) \(drafts) \(row.readOnly)")
        }
        return lines
    }

    static func randomRow(_ random: inout SeededRandom, _ table: Table) -> RowInput {
        var values: [String: CellInput] = [:]
        for column in table.columns where random.next() % 4 != 0 {
            switch column.type {
            case .number: values[column.key] = .number(Double(random.next() % 100))
            case .picker: values[column.key] = .text(column.rules.options[Int(random.next() % 3)])
            case .date: values[column.key] = .text("2024-0\(1 + random.next() % 9)-1\(random.next() % 9)")
            default: values[column.key] = .text("v\(random.next() % 1000)")
            }
        }
        if values["item"] == nil, table.column("item") != nil { values["item"] = .text("item \(random.next() % 99)") }
        var row = RowInput(values: values)
        if random.next() % 7 == 0 { row.readOnlyCells = [table.columns.last!.key: true] }
        return row
    }

    /// One random change that may be undone; returns whether it changed the table.
    static func change(_ table: inout Table, _ random: inout SeededRandom, serial: Int) throws -> Bool {
        let ids = table.rows(from: 0, count: table.rowCount).map(\.id)
        switch random.next() % 12 {
        case 0, 1, 2:
            let rows = (0..<(1 + Int(random.next() % 3))).map { _ in randomRow(&random, table) }
            let index = random.next() % 3 == 0 ? Int(random.next() % UInt64(table.rowCount + 1)) : nil
            _ = try table.add(rows, at: index, now: 0)
        case 3, 4:
            guard !ids.isEmpty else { return false }
            let picked = (0..<(1 + Int(random.next() % 3))).map { _ in ids[Int(random.next() % UInt64(ids.count))] }
            _ = try table.delete(picked)
        case 5:
            guard !ids.isEmpty else { return false }
            let picked = ids.filter { _ in random.next() % 3 == 0 }
            try table.select(.set, .ids(picked))
            return table.deleteSelection() > 0
        case 6:
            guard random.next() % 3 == 0 else { return false }
            return table.clear() > 0
        case 7, 8:
            guard !ids.isEmpty, let qty = table.column("qty") else { return false }
            let id = ids[Int(random.next() % UInt64(ids.count))]
            do {
                _ = try table.edit([CellEdit(id: id, column: qty.key, input: .number(Double(serial)))])
            } catch {
                // The table, or the cell, is read-only: nothing changed.
                if case .readOnly = error { return false }
                throw error
            }
        case 9:
            var alteration = TableAlteration()
            alteration.add = [
                NewColumn(
                    column: Column(
                        key: "extra\(serial)",
                        label: "Extra \(serial)",
                        rules: try ColumnRules(type: .text)
                    ),
                    index: random.next() % 2 == 0 ? nil : Int(random.next() % UInt64(table.columns.count + 1)),
                    value: random.next() % 2 == 0 ? .null : .text("x\(serial)")
                )
            ]
            _ = try table.alter(alteration)
        case 10:
            let droppable = table.columns.map(\.key).filter { !["item", "qty"].contains($0) }
            guard !droppable.isEmpty else { return false }
            var alteration = TableAlteration()
            alteration.drop = [droppable[Int(random.next() % UInt64(droppable.count))]]
            if random.next() % 2 == 0 { alteration.readOnly = !table.readOnly }
            _ = try table.alter(alteration)
        default:
            let renamable = table.columns.map(\.key).filter { !["item", "qty"].contains($0) }
            guard !renamable.isEmpty else { return false }
            var alteration = TableAlteration()
            let key = renamable[Int(random.next() % UInt64(renamable.count))]
            alteration.rename = [(key, "r\(serial)")]
            var relabelled = table.column("item")!
            relabelled.label = "Item \(serial)"
            alteration.change = [relabelled]
            _ = try table.alter(alteration)
        }
        return true
    }

    @Test(arguments: [(1, 100, false), (2, 100, true), (3, 5, true), (4, 1, false)])
    func undoAndRedoGiveBackTheTableAsItWas(seed: UInt64, depth: Int, coded: Bool) throws {
        var random = SeededRandom(seed: seed)
        var table = try Fixtures.stock()
        if coded { table.codeTexts(all: true) }
        table.undoDepth = depth
        var before: [[String]] = []
        var after: [[String]] = []
        for serial in 0..<400 {
            let now = Self.look(table)
            switch random.next() % 10 {
            case 0, 1, 2:
                if before.isEmpty {
                    #expect(throws: TableError.nothingToUndo(redo: false)) { try table.undo() }
                    continue
                }
                _ = try table.undo()
                #expect(Self.look(table) == before.removeLast(), "undo at step \(serial)")
                after.append(now)
            case 3:
                if after.isEmpty {
                    #expect(throws: TableError.nothingToUndo(redo: true)) { try table.redo() }
                    continue
                }
                _ = try table.redo()
                #expect(Self.look(table) == after.removeLast(), "redo at step \(serial)")
                before.append(now)
                if before.count > depth { before.removeFirst() }
            default:
                guard try Self.change(&table, &random, serial: serial) else { continue }
                before.append(now)
                if before.count > depth { before.removeFirst() }
                after.removeAll()
            }
            #expect(table.canUndo == !before.isEmpty && table.canRedo == !after.isEmpty)
            #expect(Self.keysIndexed(table), "the columns found by key at step \(serial)")
        }
    }

    /// Whether the columns' indexes by key (kept in step by each schema edit, not rebuilt) find
    /// every column where it is, and list them in the order of their keys.
    static func keysIndexed(_ table: Table) -> Bool {
        table.columns.indices.allSatisfy { table.columnIndex(of: table.columns[$0].key) == $0 }
            && table.columnsInKeyOrder == table.columns.indices.sorted { table.columns[$0].key < table.columns[$1].key }
    }

    @Test func aDeletedSelectionComesBackWithItsIdsPlacesSelectionAndDrafts() throws {
        var table = try Fixtures.stock()
        _ = try table.add((0..<8).map { Fixtures.row(item: "Item \($0)", qty: Double(8 - $0)) }, now: 0)
        try table.sort(by: [SortKey(column: "qty")])
        #expect(throws: TableError.self) {
            try table.edit([CellEdit(id: .number(3), column: "qty", input: .text("many"))])
        }
        let shown = table.rows(from: 0, count: table.rowCount).map(\.id)
        try table.select(.set, .ids([.number(2), .number(3), .number(6)]))
        #expect(table.deleteSelection() == 3)
        #expect(table.rowCount == 5 && table.errorCount == 0)
        let outcome = try table.undo()
        #expect(Set(outcome.rowsBack) == [.number(2), .number(3), .number(6)])
        #expect(table.rows(from: 0, count: table.rowCount).map(\.id) == shown)
        #expect(table.selectedIDs() == [.number(6), .number(3), .number(2)])
        let draft = try table.rows(ids: [.number(3)])[0].drafts[2]
        #expect(table.errorCount == 1 && draft?.text == "many")
        // Redo deletes them again; a new row after that gets a new id, never one of theirs.
        #expect(try table.redo().rowsOut.count == 3)
        let added = try table.add([Fixtures.row(item: "New")], now: 0)
        #expect(added[0].id == .number(9))
    }

    @Test func undoOfAnAddTakesTheRowsOutAndRedoBringsThemBack() throws {
        var table = try Fixtures.stock(key: "item")
        _ = try table.add([Fixtures.row(item: "A"), Fixtures.row(item: "B")], now: 0)
        #expect(try table.undo().rowsOut == [.text("A"), .text("B")])
        #expect(table.rowCount == 0)
        #expect(try table.redo().rowsBack == [.text("A"), .text("B")])
        #expect(table.rows(from: 0, count: 2).map(\.id) == [.text("A"), .text("B")])
    }

    @Test func alterRefusesWholeAndChangesNothing() throws {
        var table = try Fixtures.stock(key: "item")
        _ = try table.add([Fixtures.row(item: "A", qty: 5), Fixtures.row(item: "B", qty: 50)], now: 0)
        try table.sort(by: [SortKey(column: "received")])
        let version = table.version
        let look = Self.look(table)
        func refused(_ build: (inout TableAlteration) throws -> Void) throws {
            var alteration = TableAlteration()
            try build(&alteration)
            #expect(throws: TableError.self) { try table.alter(alteration) }
            #expect(table.version == version && Self.look(table) == look)
        }
        try refused { _ in }
        try refused { $0.drop = ["item"] }
        try refused { $0.drop = ["received"] }
        try refused { $0.drop = ["nope"] }
        // Renamed first, then dropped under the new name: still the key, still the sort.
        try refused {
            $0.rename = [("item", "name")]
            $0.drop = ["name"]
        }
        try refused {
            $0.rename = [("received", "got")]
            $0.drop = ["got"]
        }
        try refused { $0.rename = [("rack", "qty")] }
        try refused { $0.rename = [("rack", "$rack")] }
        try refused { $0.add = [NewColumn(column: Column(key: "rack", rules: try ColumnRules(type: .text)))] }
        try refused {
            $0.add = [
                NewColumn(column: Column(key: "n", rules: try ColumnRules(type: .number)), value: .text("lots"))
            ]
        }
        try refused { $0.change = [Column(key: "qty", rules: try ColumnRules(type: .text))] }
        // The key column keeps its key; hints only one column may have stay with one.
        try refused { $0.rename = [("item", "name")] }
        var flexible = table.column("rack")!
        flexible.layout.width = -1
        try refused {
            $0.change = [flexible]
            $0.add = [
                NewColumn(column: Column(key: "wide", rules: try ColumnRules(type: .text), layout: .init(width: -1)))
            ]
        }
        try refused {
            $0.add = [
                NewColumn(
                    column: Column(key: "first", rules: try ColumnRules(type: .text), layout: .init(sticky: true))
                )
            ]
        }
        var sticky = table.column("item")!
        sticky.layout.sticky = true
        try refused {
            $0.change = [sticky]
            $0.add = [NewColumn(column: Column(key: "first", rules: try ColumnRules(type: .text)), index: 0)]
        }
        // A new bound that a stored value breaks is refused, naming the row and the value.
        var alteration = TableAlteration()
        alteration.change = [Column(key: "qty", rules: try ColumnRules(type: .number, maximum: .number(10)))]
        #expect(
            throws: TableError.invalidValues([
                CellProblem(id: .text("B"), column: "qty", input: "50", message: "The value must be 10 or less.")
            ])
        ) { try table.alter(alteration) }
        #expect(table.version == version)
    }

    @Test func aRenamedSortKeyStaysTheSortAndAnAddedColumnFillsEveryRow() throws {
        var table = try Fixtures.stock()
        _ = try table.add([Fixtures.row(item: "B", qty: 2), Fixtures.row(item: "A", qty: 1)], now: 0)
        try table.sort(by: [SortKey(column: "qty")])
        var alteration = TableAlteration()
        alteration.rename = [("qty", "quantity")]
        alteration.add = [
            NewColumn(column: Column(key: "zone", rules: try ColumnRules(type: .text)), index: 0, value: .text("N"))
        ]
        let summary = try table.alter(alteration)
        #expect(summary.renamed == [["qty", "quantity"]] && summary.added == ["zone"])
        #expect(table.sortKeys == [SortKey(column: "quantity")])
        #expect(table.columns.map(\.key) == ["zone", "item", "rack", "quantity", "received", "grade"])
        #expect(table.rows(from: 0, count: 2).map { $0.values[0] } == [.text("N"), .text("N")])
        _ = try table.add([Fixtures.row(["item": .text("C"), "quantity": .number(0)])], now: 0)
        #expect(table.rows(from: 0, count: 3).map { $0.values[1] } == [.text("C"), .text("A"), .text("B")])
        _ = try table.undo()
        _ = try table.undo()
        #expect(table.sortKeys == [SortKey(column: "qty")] && table.columns.count == 5)
    }

    @Test func brokenValuesMayStayAsDraftsAndUndoTakesThemBack() throws {
        var table = try Fixtures.stock()
        _ = try table.add([Fixtures.row(item: "A", qty: 5), Fixtures.row(item: "B", qty: 50)], now: 0)
        table.forgetHistory()
        let before = Self.look(table)
        var alteration = TableAlteration()
        alteration.change = [Column(key: "qty", rules: try ColumnRules(type: .number, maximum: .number(10)))]
        alteration.rename = [("qty", "count")]
        alteration.keepBrokenAsDrafts = true
        let summary = try table.alter(alteration)
        #expect(summary.keptAsDrafts == 1 && table.errorCount == 1)
        let draft = try table.rows(ids: [.number(2)])[0].drafts[2]
        #expect(draft == Draft(text: "50", message: "The value must be 10 or less."))
        // The value stays until someone fixes it.
        #expect(try table.rows(ids: [.number(2)])[0].values[2] == .number(50))
        _ = try table.undo()
        #expect(Self.look(table) == before)
        _ = try table.redo()
        #expect(table.errorCount == 1 && table.columns[2].key == "count")
    }
}
