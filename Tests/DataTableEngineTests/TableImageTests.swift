import Testing

@testable import DataTableEngine

/// A table written with ``Table/imageBody()`` and read back is the same table: rows, order,
/// ids, selection, read-only settings, drafts, undo history and version; a damaged image is
/// refused, never read as something else.
@Suite struct TableImageTests {
    /// A table that has been through adds, deletes, a sort, a selection, a refused edit and edits.
    static func worked(key: String? = nil) throws -> Table {
        var table = try Fixtures.stock(key: key)
        let rows = (0..<40).map { index in
            var row = Fixtures.row(
                item: key == nil ? "Bolt \(index % 7)" : "Item \(index)",
                qty: Double(index * 3 % 11),
                received: index % 5 == 0 ? nil : "2024-03-\(10 + index % 15)",
                rack: index % 3 == 0 ? "A\(index)" : nil
            )
            if index == 4 { row.readOnly = true }
            if index == 6 { row.readOnlyCells = ["rack": true] }
            if index % 4 == 1 { row.drillDown = index % 8 == 1 }
            row.values["grade"] = .text(["Low", "Medium", "High"][index % 3])
            return row
        }
        _ = try table.add(rows, now: 0)
        let ids = table.ids
        _ = try table.delete([ids[3], ids[17], ids[30]])
        _ = try table.add([Fixtures.row(item: key == nil ? "Washer" : "Item 99", qty: 5)], at: 2, now: 0)
        try table.sort(by: [SortKey(column: "qty", descending: true), SortKey(column: "item")])
        try table.select(.set, .ids([ids[1], ids[8], ids[20]]))
        _ = try table.edit([CellEdit(id: ids[5], column: "qty", input: .number(7))])
        _ = try table.edit([CellEdit(id: ids[9], column: "rack", input: .text("Z9"))])
        _ = try table.undo()
        #expect(throws: TableError.self) {
            try table.edit([CellEdit(id: ids[10], column: "qty", input: .text("many"))])
        }
        return table
    }

    static func restored(_ table: Table, body: [UInt8]? = nil) throws(TableImageError) -> Table {
        try Table(
            restoring: (body ?? table.imageBody())[...],
            name: table.name,
            columns: table.columns,
            key: table.keyColumn.map { table.columns[$0].key },
            readOnly: table.readOnly,
            selectionMode: table.selectionMode,
            sortKeys: table.sortKeys,
            version: table.version
        )
    }

    static func same(_ left: Table, _ right: Table) {
        #expect(left.version == right.version)
        #expect(left.rowCount == right.rowCount)
        #expect(left.selectedCount == right.selectedCount && left.errorCount == right.errorCount)
        #expect(left.canUndo == right.canUndo && left.canRedo == right.canRedo)
        let before = left.rows(from: 0, count: left.rowCount)
        let after = right.rows(from: 0, count: right.rowCount)
        #expect(before.map(\.id) == after.map(\.id))
        #expect(before.map(\.values) == after.map(\.values))
        #expect(before.map(\.selected) == after.map(\.selected))
        #expect(before.map(\.readOnly) == after.map(\.readOnly))
        #expect(before.map(\.drafts) == after.map(\.drafts))
        #expect(left.selectedIDs() == right.selectedIDs())
        // Each row's own drill-down setting, in order (each table numbers its slots its own way).
        func drillDowns(_ table: Table) -> [Bool] {
            table.orderSlots(from: 0, limit: table.rowCount).map { table.drillsDown($0, column: nil) }
        }
        #expect(drillDowns(left) == drillDowns(right))
    }

    @Test(arguments: [nil, "item"], [false, true])
    func aRestoredTableIsTheSameTable(key: String?, coded: Bool) throws {
        var table = try Self.worked(key: key)
        if coded { table.codeTexts(all: true) }
        var restored = try Self.restored(table)
        Self.same(table, restored)
        #expect(table.orderSlots(from: 0, limit: table.rowCount).contains { !table.drillsDown($0, column: nil) })
        // It goes on the same way: a redo, the next id, the sorted place of a new row.
        var original = table
        _ = try original.redo()
        _ = try restored.redo()
        Self.same(original, restored)
        for copy in [0, 1] {
            let input = Fixtures.row(item: key == nil ? "Nut" : "Item 100", qty: 6)
            if copy == 0 { _ = try original.add([input], now: 0) } else { _ = try restored.add([input], now: 0) }
        }
        Self.same(original, restored)
        // Undo goes back through the adds and deletes of both alike.
        for _ in 0..<4 {
            _ = try original.undo()
            _ = try restored.undo()
            Self.same(original, restored)
        }
    }

    @Test func anEmptyTableRoundTrips() throws {
        let table = try Fixtures.stock()
        Self.same(table, try Self.restored(table))
    }

    /// Every cut-short image and every flipped byte is refused or, where the byte is a value,
    /// read as another value of the same shape; never a crash.
    @Test func aDamagedImageIsRefusedNotMisread() throws {
        let table = try Self.worked()
        let body = table.imageBody()
        for length in stride(from: 0, to: body.count, by: max(1, body.count / 200)) {
            #expect(throws: TableImageError.self) { try Self.restored(table, body: Array(body.prefix(length))) }
        }
        #expect(throws: TableImageError.self) { try Self.restored(table, body: body + [0]) }
        for position in stride(from: 0, to: body.count, by: 7) {
            var damaged = body
            damaged[position] ^= 0xA5
            _ = try? Self.restored(table, body: damaged)
        }
    }
}
