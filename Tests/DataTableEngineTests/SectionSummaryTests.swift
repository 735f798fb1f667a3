import DataTableVocabulary
import TestSupport
import Testing

@testable import DataTableEngine

/// Section aggregates and the grand total against a reference worked out from the rows the view
/// shows, after every step of a random run of adds, edits (of the grouping column and of summed
/// ones), deletes, sorts, filter changes and undos: every function, on columns with empty cells.
@Suite struct SectionSummaryTests {
    static let racks = ["A1", "A2", "B1", "B2", "C1"]
    static let words = ["Valve", "valve", "Pump", "Gauge", "Bolt", "VALVE", "pipe"]

    static func table() throws -> Table {
        try Table(
            name: "stock",
            columns: [
                Column(key: "item", rules: try ColumnRules(type: .text)),
                Column(key: "qty", rules: try ColumnRules(type: .number)),
                Column(key: "rack", rules: try ColumnRules(type: .picker, options: racks)),
                Column(key: "received", rules: try ColumnRules(type: .date)),
                Column(key: "lead", rules: try ColumnRules(type: .duration)),
                Column(key: "units", rules: try ColumnRules(type: .number)),
                Column(key: "serial", rules: try ColumnRules(type: .number)),
            ]
        )
    }

    /// A row whose cells are each empty one time in four; values repeat often (for `countDistinct`).
    /// `qty` holds quarters, `units` whole numbers a few dozen apart (counted into value order),
    /// `serial` whole numbers millions apart (sorted as integers).
    static func randomRow(_ random: inout SeededRandom) -> RowInput {
        var values: [String: CellInput] = ["rack": .text(racks[Int(random.next() % UInt64(racks.count))])]
        if random.next() % 4 != 0 { values["item"] = .text(words[Int(random.next() % UInt64(words.count))]) }
        if random.next() % 4 != 0 { values["qty"] = .number(Double(Int(random.next() % 400)) / 4 - 20) }
        if random.next() % 4 != 0 { values["received"] = .text("2024-0\(1 + random.next() % 9)-1\(random.next() % 9)") }
        if random.next() % 4 != 0 { values["lead"] = .number(Double(random.next() % 5000)) }
        if random.next() % 4 != 0 { values["units"] = .number(Double(Int(random.next() % 40) - 10)) }
        if random.next() % 4 != 0 { values["serial"] = .number(Double(Int(random.next() % 41) * 50_000 - 1_000_000)) }
        return RowInput(values: values)
    }

    static let summed = ["item", "qty", "received", "lead", "units", "serial"]

    /// Every function that fits each column; with `totalsOnly`, those that need no value order
    /// (counts, totals, means, first and last), which are kept without one.
    static func aggregates(_ table: Table, totalsOnly: Bool = false) -> [SectionAggregate] {
        let ordered: Set<AggregateFunction> = [.min, .max, .median, .countDistinct]
        return summed.flatMap { key in
            let column = table.columnIndex[key]!
            return AggregateFunction.allCases.filter {
                $0.fits(table.columns[column].type) && !(totalsOnly && ordered.contains($0))
            }.map { SectionAggregate(column: column, function: $0) }
        }
    }

    /// `function` of `cells` (the values of one group's rows, in the view's order), worked out directly.
    static func reference(_ function: AggregateFunction, _ cells: [CellValue], type: ColumnType) -> AggregateValue? {
        let filled = cells.filter { !$0.isEmpty }
        let sorted = filled.sorted { ValueOrder.compare($0, $1) < 0 }
        let adds = type == .number || type == .duration
        func typed(_ amount: Double) -> CellValue {
            type == .duration ? .duration(seconds: Int64(amount.rounded())) : .number(amount)
        }
        let total = filled.map(ColumnSummary.amount).reduce(0, +)
        switch function {
        case .count: return .count(filled.count)
        case .countDistinct: return .count(Set(filled).count)
        case .sum: return adds ? .value(typed(total)) : nil
        case .avg: return adds && !filled.isEmpty ? .value(typed(total / Double(filled.count))) : nil
        case .min: return sorted.first.map(AggregateValue.value)
        case .max: return sorted.last.map(AggregateValue.value)
        case .first: return filled.first.map(AggregateValue.value)
        case .last: return filled.last.map(AggregateValue.value)
        case .median:
            guard !sorted.isEmpty else { return nil }
            let upper = sorted[sorted.count / 2]
            guard sorted.count % 2 == 0 else { return .value(upper) }
            let lower = sorted[sorted.count / 2 - 1]
            return .value(
                adds ? typed((ColumnSummary.amount(lower) + ColumnSummary.amount(upper)) / 2) : lower
            )
        }
    }

    /// Whether a kept aggregate is the reference's: exactly, but for totals and means of numbers,
    /// which may differ in the last places from a sum made afresh.
    static func close(_ kept: AggregateValue?, _ expected: AggregateValue?) -> Bool {
        switch (kept, expected) {
        case (.value(.number(let a)), .value(.number(let b))): abs(a - b) <= 1e-9 * max(1, abs(b))
        default: kept == expected
        }
    }

    /// Checks every aggregate of the view with `id` against the reference, by its sections as the
    /// section reference has them.
    static func check(_ table: Table, id: UInt64, column rack: Int, filter: UInt64?, step: Int, totalsOnly: Bool) {
        let descending = table.sortKeys.first.map { $0.column == "rack" && $0.descending } ?? false
        let expected = TableSectionTests.reference(table, column: rack, filter: filter, descending: descending)
        guard let kept = table.summaries(of: id) else {
            Issue.record("no summaries at step \(step)")
            return
        }
        #expect(kept.sections.count == expected.count, "sections at step \(step)")
        let aggregates = aggregates(table, totalsOnly: totalsOnly)
        func compare(_ results: [AggregateResult], _ ids: [RowID], _ what: String) {
            #expect(results.count == aggregates.count)
            for (result, aggregate) in zip(results, aggregates) {
                let cells = ids.map { table.stores[aggregate.column][table.slot(of: $0)!] }
                let want = reference(aggregate.function, cells, type: table.columns[aggregate.column].type)
                #expect(
                    close(result.value, want),
                    "\(result.column) \(result.function) of \(what) at step \(step): \(String(describing: result.value)), not \(String(describing: want))"
                )
            }
        }
        for (section, (_, ids)) in zip(kept.sections, expected) {
            compare(section.aggregates, ids, "section \(section.path.joined(separator: " › "))")
        }
        if let grand = kept.grand { compare(grand, expected.flatMap(\.1), "the grand total") }
    }

    @Test(.tags(.slow), arguments: [(false, false), (true, false), (true, true)])
    func aggregatesEqualAReferenceAfterEveryChange(filtered: Bool, totalsOnly: Bool) throws {
        var random = SeededRandom(seed: filtered ? (totalsOnly ? 33 : 31) : 32)
        var table = try Self.table()
        _ = try table.add((0..<150).map { _ in Self.randomRow(&random) }, now: 0)
        let rack = table.columnIndex["rack"]!
        let filter = try RowFilter([.init(column: "qty", operator: .less, values: [.number(60)])], in: table)
        if filtered { table.setFilter(filter, id: 5) }
        table.setSections(
            SectionSpec(
                columns: [rack],
                aggregates: Self.aggregates(table, totalsOnly: totalsOnly),
                grandTotal: .bottom
            ),
            id: 5,
            within: filtered ? 5 : nil
        )
        Self.check(table, id: 5, column: rack, filter: filtered ? 5 : nil, step: -1, totalsOnly: totalsOnly)
        for step in 0..<1000 {
            switch random.next() % 9 {
            case 0, 1:
                _ = try table.add((0..<Int(1 + random.next() % 3)).map { _ in Self.randomRow(&random) }, now: 0)
            case 2, 3, 4:
                let slots = table.orderSlots(from: 0, limit: table.rowCount)
                guard !slots.isEmpty else { continue }
                let id = table.id(of: slots[Int(random.next() % UInt64(slots.count))])
                let other = Self.randomRow(&random).values
                let key = ["rack", "item", "qty", "received", "lead", "units", "serial"][Int(random.next() % 7)]
                _ = try table.edit([CellEdit(id: id, column: key, input: other[key] ?? .null)])
            case 5:
                try TableFilterTests.deleteSome(&table, &random)
            case 6:
                let keys: [[SortKey]] = [
                    [], [SortKey(column: "qty")], [SortKey(column: "rack", descending: true)],
                    [SortKey(column: "item", descending: true)], [SortKey(column: "received")],
                ]
                try table.sort(by: keys[Int(random.next() % 5)])
            case 7 where filtered:
                let bound = Double(Int(random.next() % 100) - 20)
                table.setFilter(
                    try RowFilter([.init(column: "qty", operator: .less, values: [.number(bound)])], in: table),
                    id: 5
                )
            default:
                if table.canUndo { _ = try table.undo() }
            }
            Self.check(table, id: 5, column: rack, filter: filtered ? 5 : nil, step: step, totalsOnly: totalsOnly)
        }
    }

    @Test func functionsRefuseColumnsTheyDoNotFit() {
        #expect(AggregateFunction.sum.fits(.number) && AggregateFunction.avg.fits(.duration))
        #expect(!AggregateFunction.sum.fits(.text) && !AggregateFunction.avg.fits(.date))
        #expect(!AggregateFunction.min.fits(.image) && AggregateFunction.max.fits(.text))
        #expect(AggregateFunction.allCases.filter { $0.fits(.image) } == [.count, .countDistinct, .first, .last])
    }
}
