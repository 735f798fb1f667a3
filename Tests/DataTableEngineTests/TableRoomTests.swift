import Testing

@testable import DataTableEngine

/// Room made ahead for added rows (``Table/makeRoom(forAdding:at:)``, done off the lock on a
/// copy) is room every structure kept per slot has, changes nothing a reader sees, and lasts
/// until the table has doubled.
@Suite struct TableRoomTests {
    static func rows(_ range: Range<Int>) -> [RowInput] {
        range.map { Fixtures.row(item: "item \($0)", qty: Double($0 % 17), rack: "R\($0 % 5)") }
    }

    @Test func anEmptyTableHasNoRoomUntilItIsMade() throws {
        var table = try Fixtures.stock()
        let room = table.hasRoom(forAdding: 1)
        #expect(!room)
        let version = table.version
        table.makeRoom(forAdding: 1)
        let made = table.hasRoom(forAdding: 64)
        #expect(made)
        let unchanged = table.version == version
        #expect(unchanged)
    }

    @Test func placingARowInAnOrderInSequenceNeedsItsTree() throws {
        var table = try Fixtures.stock()
        _ = try table.add(Self.rows(0..<10), now: 0)
        table.makeRoom(forAdding: 100)
        let (atEnd, atThree) = (table.hasRoom(forAdding: 1), table.hasRoom(forAdding: 1, at: 3))
        #expect(atEnd && !atThree)
        table.makeRoom(forAdding: 1, at: 3)
        let treeBuilt = table.hasRoom(forAdding: 1, at: 3)
        #expect(treeBuilt)
        _ = try table.add(Self.rows(10..<11), at: 3, now: 0)
        #expect(table.column("item")[3] == "item 10")
    }

    /// A table with views (a filter, sections of the filtered rows and of all of them), kept
    /// widths, sorted or not, keyed or not: after room is made, adding as many rows again one
    /// at a time finds room before each, and leaves the table as the same adds leave a twin
    /// that had no room made.
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func roomLastsUntilTheTableHasDoubledAndChangesNothing(keyed: Bool, sortedTable: Bool) throws {
        var table = try Fixtures.stock(key: keyed ? "item" : nil)
        _ = try table.add(Self.rows(0..<300), now: 0)
        if sortedTable { try table.sort(by: [SortKey(column: "qty")]) }
        table.setFilter(try RowFilter([.init(column: "qty", operator: .less, values: [.number(9)])], in: table), id: 1)
        table.setSections(SectionSpec(columns: [table.columnIndex(of: "rack")!]), id: 1, within: 1)
        table.setSections(SectionSpec(columns: [table.columnIndex(of: "rack")!]), id: 2, within: nil)
        try table.measure(for: TableScrollTests.cells(40))
        var twin = table
        table.makeRoom(forAdding: 1)
        #expect(table.version == twin.version)
        // The key index is a hash table that doubles once it is 70% full: it may run out of
        // room once on the way, and says so (a request then makes room again off the loop).
        var roomsMade = 0
        for row in 300..<600 {
            if !table.hasRoom(forAdding: 1) {
                roomsMade += 1
                table.makeRoom(forAdding: 1)
                let room = table.hasRoom(forAdding: 1)
                #expect(room, "room made before row \(row)")
            }
            _ = try table.add(Self.rows(row..<row + 1), now: 0)
            _ = try twin.add(Self.rows(row..<row + 1), now: 0)
        }
        #expect(roomsMade <= (keyed ? 1 : 0))
        #expect(table.ids == twin.ids)
        #expect(table.column("qty") == twin.column("qty"))
        #expect(table.version == twin.version)
        for view in [1, 2] {
            var state = ViewState()
            state.filter = view == 1 ? 1 : nil
            state.sections = UInt64(view)
            let shown = table.viewRows(state)
            let twinShown = twin.viewRows(state)
            #expect(table.count(of: shown) > 0)
            #expect(table.count(of: shown) == twin.count(of: twinShown))
            #expect(
                table.slots(of: shown, from: 0, limit: table.count(of: shown))
                    == twin.slots(of: twinShown, from: 0, limit: twin.count(of: twinShown))
            )
        }
    }
}
