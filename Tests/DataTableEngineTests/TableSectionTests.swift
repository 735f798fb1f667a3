import TestSupport
import Testing

@testable import DataTableEngine

/// Sections against a naive reference: after any sequence of adds, edits, deletes, sorts and
/// filter changes, a view's sections hold the rows it shows grouped by value, sections in the
/// value's order, rows in each in the current order.
@Suite struct TableSectionTests {
    /// The view's rows as the reference has them: (value, ids) per section.
    static func reference(_ table: Table, column: Int, filter: UInt64?, descending: Bool) -> [(CellValue, [RowID])] {
        var slots = table.orderSlots(from: 0, limit: table.rowCount)
        if let filter, let shown = table.filterIndex(filter) {
            slots = slots.filter { table.filters[shown].rows.contains($0) }
        }
        var order: [CellValue] = []
        var bySection: [CellValue: [RowID]] = [:]
        for slot in slots {
            let value = table.stores[column][slot]
            if bySection[value] == nil { order.append(value) }
            bySection[value, default: []].append(table.id(of: slot))
        }
        order.sort { Table.sectionOrder($0, $1, descending: descending) < 0 }
        return order.map { ($0, bySection[$0]!) }
    }

    static func kept(_ table: Table, id: UInt64) -> [(CellValue, [RowID])] {
        let sections = table.sections[table.sectionsIndex(id)!]
        let ids = sections.rows.allSlots.map(table.id(of:))
        var result: [(CellValue, [RowID])] = []
        var start = 0
        for (section, value) in sections.values.enumerated() {
            let count = sections.counts.counts[section]
            #expect(sections.counts.rowsBefore(section) == start)
            result.append((value, Array(ids[start..<(start + count)])))
            start += count
        }
        #expect(start == ids.count)
        return result
    }

    static func same(_ a: [(CellValue, [RowID])], _ b: [(CellValue, [RowID])]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    @Test(arguments: [false, true], [false, true])
    func sectionsFollowEveryChange(filtered: Bool, coded: Bool) throws {
        var random = SeededRandom(seed: filtered ? 21 : 22)
        var table = try TableFilterTests.table()
        _ = try table.add((0..<200).map { _ in TableFilterTests.randomRow(&random) }, now: 0)
        // Coded, the groups are by the text column, whose store is then coded.
        if coded { table.codeTexts(all: true) }
        let groupedBy = coded ? "item" : "rack"
        let rack = table.columnIndex[groupedBy]!
        let filter = try RowFilter([.init(column: "qty", operator: .less, values: [.number(200)])], in: table)
        if filtered { table.setFilter(filter, id: 5) }
        table.setSections(SectionSpec(columns: [rack], style: .grouped), id: 5, within: filtered ? 5 : nil)
        for step in 0..<400 {
            switch random.next() % 7 {
            case 0, 1:
                _ = try table.add(
                    (0..<Int(1 + random.next() % 3)).map { _ in TableFilterTests.randomRow(&random) },
                    now: 0
                )
            case 2:
                let slots = table.orderSlots(from: 0, limit: table.rowCount)
                guard !slots.isEmpty else { continue }
                let id = table.id(of: slots[Int(random.next() % UInt64(slots.count))])
                let edit =
                    random.next() % 2 == 0
                    ? CellEdit(
                        id: id,
                        column: groupedBy,
                        input: coded
                            ? TableFilterTests.randomRow(&random).values["item"]!
                            : .text(TableFilterTests.racks[Int(random.next() % 5)])
                    )
                    : CellEdit(id: id, column: "qty", input: .number(Double(random.next() % 300)))
                _ = try table.edit([edit])
            case 3:
                try TableFilterTests.deleteSome(&table, &random)
            case 4:
                let keys: [[SortKey]] = [
                    [], [SortKey(column: "qty")], [SortKey(column: "rack", descending: true)],
                    [SortKey(column: "item", descending: true)],
                ]
                try table.sort(by: keys[Int(random.next() % 4)])
            case 5 where filtered:
                let bound = Double(50 + random.next() % 250)
                let changed = try RowFilter(
                    [.init(column: "qty", operator: .less, values: [.number(bound)])],
                    in: table
                )
                table.setFilter(changed, id: 5)
            default:
                if table.canUndo { _ = try table.undo() }
            }
            let descending = table.sortKeys.first.map { $0.column == groupedBy && $0.descending } ?? false
            let expected = Self.reference(table, column: rack, filter: filtered ? 5 : nil, descending: descending)
            #expect(Self.same(Self.kept(table, id: 5), expected), "after step \(step)")
        }
    }

    /// Ten rows in three racks, numbered in order: A1 holds 0, 3, 6, 9; B2 1, 4, 7; C1 2, 5, 8.
    /// A view long enough for a coded column's values to be numbered on every core, in an
    /// order that meets them at random, one value met only in the last rows and some rows
    /// empty: the sections are those counting row by row gives, each in the view's order.
    @Test func aLongViewIsSectionedAsRowByRowCountingDoes() throws {
        var random = SeededRandom(seed: 40)
        var table = try TableFilterTests.table()
        let count = 140_000
        let items = ["", "bolt", "Nut", "washer", "ウィジェット", "pin"]
        _ = try table.add(
            (0..<count).map { row in
                RowInput(values: [
                    "item": .text(row >= count - 50 ? "last of all" : items[Int(random.next() % 6)]),
                    "qty": .number(row >= count - 50 ? Double(count + row) : Double(random.next() % 100_000)),
                ])
            },
            now: 0
        )
        table.codeTexts(all: true)
        let item = table.columnIndex["item"]!
        #expect(table.stores[item].isCoded)
        try table.sort(by: [SortKey(column: "qty")])
        table.setSections(SectionSpec(columns: [item]), id: 1, within: nil)
        let kept = Self.kept(table, id: 1)
        #expect(kept.count == 7)
        #expect(Self.same(kept, Self.reference(table, column: item, filter: nil, descending: false)))
    }

    static func racked() throws -> Table {
        var table = try TableFilterTests.table()
        let racks = ["A1", "B2", "C1"]
        _ = try table.add(
            (0..<10).map {
                RowInput(values: [
                    "item": .text("item \($0)"), "qty": .number(Double($0)), "rack": .text(racks[$0 % 3]),
                ])
            },
            now: 0
        )
        return table
    }

    @Test func plainSectionsPlaceHeadersBetweenRowsAndStickTheTopOne() throws {
        var table = try Self.racked()
        table.setSections(SectionSpec(columns: [table.columnIndex["rack"]!], index: true), id: 1, within: nil)
        var view = ViewState()
        view.sections = 1
        let options = TableScrollTests.cells(60)
        let top = try table.scroll(options, ScrollInput(height: 8, y: 0, now: 0), view: &view)
        // Table header at 0; A1's header at 1, its rows 2–5; B2's header at 6, its rows 7…
        #expect(top.contentHeight == 1 + 3 + 10)
        #expect(
            top.rows.map { window in top.cells(of: window)[0] } == ["item 0", "item 3", "item 6", "item 9", "item 1"]
        )
        #expect(top.rows.map(\.y) == [2, 3, 4, 5, 7])
        #expect(top.rows.map(\.index) == [0, 1, 2, 3, 4])
        let sections = try #require(top.sections)
        #expect(sections.count == 3)
        #expect(sections.shown.map(\.title) == ["A1", "B2"])
        #expect(sections.shown.map(\.y) == [1, 6])
        #expect(sections.shown.map(\.count) == [4, 3])
        #expect(sections.index?.map(\.title) == ["A1", "B2", "C1"])
        #expect(sections.index?.map(\.y) == [0, 5, 9])

        // Scrolled into A1: its header sticks below the table's; B2's pushes it up.
        let sticky = try table.scroll(options, ScrollInput(height: 8, y: 2, now: 0), view: &view)
        #expect(sticky.sections?.shown.first?.sticky == true)
        #expect(sticky.sections?.shown.first?.y == 1)
        let pushed = try table.scroll(options, ScrollInput(height: 8, y: 5, now: 0), view: &view)
        #expect(pushed.sections?.shown.first?.title == "B2")
        #expect(pushed.sections?.shown.first?.y == 1)

        // A section brought to the top; a row added lands in its section (last: the table is in
        // the order rows were added).
        let atC1 = try table.scroll(
            options,
            ScrollInput(
                height: 4,
                target: .section(.text("C1")),
                now: 0
            ),
            view: &view
        )
        #expect(atC1.y == 9)
        #expect(atC1.rows.first.map { atC1.cells(of: $0)[0] } == "item 2")
        _ = try table.add([RowInput(values: ["item": .text("new"), "qty": .number(1), "rack": .text("B2")])], now: 0)
        let after = try table.scroll(options, ScrollInput(height: 20, y: 0, now: 0), view: &view)
        #expect(
            after.rows.map { after.cells(of: $0)[0] }.prefix(8) == [
                "item 0", "item 3", "item 6", "item 9", "item 1", "item 4", "item 7", "new",
            ]
        )
    }

    @Test func groupedSectionsAreSetApartAndInsetGroupedOnesInset() throws {
        var table = try Self.racked()
        let rack = table.columnIndex["rack"]!
        table.setSections(SectionSpec(columns: [rack], style: .grouped, footers: true), id: 1, within: nil)
        var view = ViewState()
        view.sections = 1
        let grouped = try table.scroll(TableScrollTests.cells(60), ScrollInput(height: 30, y: 0, now: 0), view: &view)
        // A1: header 1, rows 2–5, footer 6; a line apart, B2's header at 8.
        let shown = try #require(grouped.sections?.shown)
        #expect(shown.map(\.y) == [1, 8, 14])
        #expect(shown.map(\.footerY) == [6, 12, 18])
        #expect(grouped.contentHeight == 1 + 3 * 2 + 2 + 10)
        #expect(shown.allSatisfy { !$0.sticky })

        var plain = ViewState()
        let whole = try table.scroll(TableScrollTests.cells(60), ScrollInput(height: 30, y: 0, now: 0), view: &plain)
        table.setSections(SectionSpec(columns: [rack], style: .insetGrouped), id: 2, within: nil)
        var inset = ViewState()
        inset.sections = 2
        let insetWindow = try table.scroll(
            TableScrollTests.cells(60),
            ScrollInput(height: 30, y: 0, now: 0),
            view: &inset
        )
        #expect(insetWindow.sections?.inset == 2)
        #expect(insetWindow.columns.first!.x == whole.columns.first!.x + 2)
        let right = insetWindow.columns.last!
        #expect(right.x + right.width <= 60 - 2)
    }

    /// Sections worked out on a copy are taken as they are when the table has not changed
    /// since, and worked out again when it has.
    @Test func preparedSectionsAreTakenOnlyAtTheirVersion() throws {
        var table = try Self.racked()
        let spec = SectionSpec(columns: [table.columnIndex["rack"]!])
        let prepared = table.preparedSections(spec, id: 4, within: nil)
        var unchanged = table
        unchanged.setSections(spec, id: 4, within: nil, prepared: prepared)
        #expect(
            Self.same(
                Self.kept(unchanged, id: 4),
                Self.reference(unchanged, column: spec.column, filter: nil, descending: false)
            )
        )
        _ = try table.add([RowInput(values: ["item": .text("late"), "rack": .text("C1")])], now: 0)
        table.setSections(spec, id: 4, within: nil, prepared: prepared)
        let kept = Self.kept(table, id: 4)
        #expect(Self.same(kept, Self.reference(table, column: spec.column, filter: nil, descending: false)))
        #expect(kept.last?.1.count == 4)
    }

    /// A filter set on a view in sections: the sections worked out on a copy with the filter set
    /// are taken at the same version, and worked out again after a change.
    @Test func sectionsFollowAFilterSetFromACopy() throws {
        for changedMeanwhile in [false, true] {
            var table = try Self.racked()
            let rack = table.columnIndex["rack"]!
            table.setSections(SectionSpec(columns: [rack]), id: 6, within: nil)
            let filter = try RowFilter(
                [.init(column: "qty", operator: .greaterOrEqual, values: [.number(4)])],
                in: table
            )
            var copy = table
            copy.setFilter(filter, id: 6, admitting: copy.admittedRows(filter))
            let kept = copy.keptSections(of: 6)
            if changedMeanwhile {
                _ = try table.add(
                    [RowInput(values: ["item": .text("late"), "qty": .number(50), "rack": .text("A1")])],
                    now: 0
                )
            }
            table.setFilter(filter, id: 6, admitting: copy.admittedRows(filter), sections: kept)
            let expected = Self.reference(table, column: rack, filter: 6, descending: false)
            #expect(Self.same(Self.kept(table, id: 6), expected), "changed meanwhile: \(changedMeanwhile)")
            #expect(expected.first?.1.count == (changedMeanwhile ? 3 : 2))
        }
    }

    /// Rows of two heights in sections: each row's y is its section's header and the rows
    /// before it, summed by a naive reference, through edits that change heights and sections.
    @Test func rowsOfTwoHeightsInSectionsAreFoundByOffset() throws {
        let long = String(repeating: "long words ", count: 6)
        var table = try TableScrollTests.numbered(200, notes: { $0 % 7 == 0 ? long : "ok \($0 % 3)" })
        let notes = try #require(table.columnIndex(of: "notes"))
        table.setSections(SectionSpec(columns: [notes]), id: 9, within: nil)
        let options = TableScrollTests.cells(40)
        var view = ViewState()
        view.sections = 9
        func check(at y: Int, tall: Bool = true) throws {
            // Heights from the whole table's own window; tops summed section by section.
            var whole = ViewState()
            let all = try table.scroll(options, ScrollInput(height: 100_000, y: 0, now: 0), view: &whole)
            let heights = Dictionary(uniqueKeysWithValues: all.rows.map { ($0.id, $0.height) })
            var tops: [RowID: Int] = [:]
            var top = all.headerHeight
            for (_, ids) in Self.reference(table, column: notes, filter: nil, descending: false) {
                top += 1
                for id in ids {
                    tops[id] = top
                    top += heights[id]!
                }
            }
            let window = try table.scroll(options, ScrollInput(height: 20, y: y, now: 0), view: &view)
            #expect(window.contentHeight == top)
            #expect(window.rows.contains { $0.tall } == tall)
            for row in window.rows { #expect(row.y == tops[row.id]! - window.y, "row \(row.id) at \(y)") }
        }
        try check(at: 30)
        for number in [3, 14, 50, 63, 64] {
            _ = try table.edit([
                CellEdit(id: .number(Int64(number)), column: "notes", input: .text(number % 7 == 0 ? "ok 1" : long))
            ])
        }
        _ = try table.delete([.number(70), .number(71)])
        try check(at: 30)
        // Past the section of long notes, every row is one line.
        try check(at: 120, tall: false)
    }

    @Test func countsFindTheirSections() {
        var counts = SectionCounts([3, 0, 2, 5])
        #expect(counts.total == 10)
        #expect((0..<10).map(counts.section(holding:)) == [0, 0, 0, 2, 2, 3, 3, 3, 3, 3])
        counts.insertSection(at: 1)
        counts.add(4, to: 1)
        #expect(counts.rowsBefore(2) == 7)
        #expect(counts.section(holding: 6) == 1)
        #expect(counts.section(holding: 7) == 3)
        counts.add(-3, to: 0)
        counts.removeSection(at: 0)
        #expect(counts.counts == [4, 0, 2, 5])
        #expect(counts.section(holding: 4) == 2)
    }
}
