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

    @Test(arguments: [false, true])
    func sectionsFollowEveryChange(filtered: Bool) throws {
        var random = SeededRandom(seed: filtered ? 21 : 22)
        var table = try TableFilterTests.table()
        _ = try table.add((0..<200).map { _ in TableFilterTests.randomRow(&random) }, now: 0)
        let rack = table.columnIndex["rack"]!
        let filter = try RowFilter([.init(column: "qty", operator: .less, values: [.number(200)])], in: table)
        if filtered { table.setFilter(filter, id: 5) }
        table.setSections(SectionSpec(column: rack, style: .grouped), id: 5, within: filtered ? 5 : nil)
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
                    ? CellEdit(id: id, column: "rack", input: .text(TableFilterTests.racks[Int(random.next() % 5)]))
                    : CellEdit(id: id, column: "qty", input: .number(Double(random.next() % 300)))
                _ = try table.edit([edit])
            case 3:
                let slots = table.orderSlots(from: 0, limit: table.rowCount)
                guard slots.count > 10 else { continue }
                let count = random.next() % 20 == 0 ? slots.count / 2 : 1 + Int(random.next() % 3)
                _ = try table.delete(slots.shuffled(using: &random).prefix(count).map(table.id(of:)))
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
            let descending = table.sortKeys.first.map { $0.column == "rack" && $0.descending } ?? false
            let expected = Self.reference(table, column: rack, filter: filtered ? 5 : nil, descending: descending)
            #expect(Self.same(Self.kept(table, id: 5), expected), "after step \(step)")
        }
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
