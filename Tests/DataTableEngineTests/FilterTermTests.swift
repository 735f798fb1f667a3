import TestSupport
import Testing

@testable import DataTableEngine

/// Filters with groups (any, all, not) and regular expressions against a reference evaluation
/// written here from the cells' values: after random adds, edits, deletes and sorts, a view
/// shows exactly the rows the reference says meet its terms, in order.
@Suite struct FilterTermTests {
    typealias Input = FilterTerm.Input

    static func condition(_ column: String, _ op: FilterOperator, _ values: CellInput...) -> Input {
        .condition(.init(column: column, operator: op, values: values))
    }

    /// The conditions the random terms are made of.
    static let pool: [Input] = [
        condition("qty", .between, .number(50), .number(200)),
        condition("qty", .less, .number(30)),
        condition("qty", .empty),
        condition("rack", .equal, .text("A1")),
        condition("rack", .oneOf, .text("B2"), .text("C1")),
        condition("item", .contains, .text("valve")),
        condition("item", .startsWith, .text("P")),
        condition("item", .matches, .text("^[Vv]alve [0-9]$")),
        condition("item", .matches, .text("(?i)pu|ga")),
        condition("received", .greaterOrEqual, .text("2024-05-01")),
    ]

    /// A random term at most `depth` groups deep.
    static func randomTerm(_ random: inout SeededRandom, depth: Int) -> Input {
        let choice = depth == 0 ? 0 : random.next() % 4
        switch choice {
        case 1: return .any((0..<(1 + random.next() % 3)).map { _ in randomTerm(&random, depth: depth - 1) })
        case 2: return .all((0..<(1 + random.next() % 3)).map { _ in randomTerm(&random, depth: depth - 1) })
        case 3: return .not(randomTerm(&random, depth: depth - 1))
        default: return pool[Int(random.next() % UInt64(pool.count))]
        }
    }

    /// Whether the row in `slot` meets `term`, worked out from its cells' values with Swift's
    /// own comparisons and regular expressions.
    static func meets(_ term: Input, slot: UInt32, table: Table) -> Bool {
        switch term {
        case .any(let terms): return terms.contains { meets($0, slot: slot, table: table) }
        case .all(let terms): return terms.allSatisfy { meets($0, slot: slot, table: table) }
        case .not(let term): return !meets(term, slot: slot, table: table)
        case .condition(let condition):
            let column = table.columnIndex(of: condition.column)!
            let value = table.stores[column][slot]
            let shown = table.columns[column].rules.displayText(value)
            func number(_ input: CellInput) -> Double { if case .number(let n) = input { n } else { .nan } }
            func text(_ input: CellInput) -> String { if case .text(let t) = input { t } else { "" } }
            switch condition.operator {
            case .empty: return value.isEmpty
            case .between:
                guard case .number(let n) = value else { return false }
                return n >= number(condition.values[0]) && n <= number(condition.values[1])
            case .less:
                guard case .number(let n) = value else { return false }
                return n < number(condition.values[0])
            case .equal: return !value.isEmpty && shown == text(condition.values[0])
            case .oneOf: return !value.isEmpty && condition.values.map(text).contains(shown)
            case .contains: return !value.isEmpty && shown.lowercased().contains(text(condition.values[0]))
            case .startsWith:
                return !value.isEmpty && shown.lowercased().hasPrefix(text(condition.values[0]).lowercased())
            case .matches:
                let pattern = try! Regex(text(condition.values[0]))
                return !value.isEmpty && shown.contains(pattern)
            case .greaterOrEqual: return !value.isEmpty && shown >= text(condition.values[0])
            default: Issue.record("no reference for \(condition.operator)"); return false
            }
        }
    }

    static func reference(_ table: Table, _ terms: [Input]) -> [RowID] {
        table.orderSlots(from: 0, limit: table.rowCount).filter { slot in
            terms.allSatisfy { meets($0, slot: slot, table: table) }
        }.map(table.id(of:))
    }

    @Test(.tags(.slow), arguments: 0..<8)
    func groupedTermsShowExactlyTheRowsTheyMeet(_ seed: Int) throws {
        var random = SeededRandom(seed: UInt64(700 + seed))
        var table = try TableFilterTests.table()
        _ = try table.add((0..<300).map { _ in TableFilterTests.randomRow(&random) }, now: 0)
        let terms = (0..<(1 + random.next() % 2)).map { _ in Self.randomTerm(&random, depth: 3) }
        let filter = try RowFilter(terms: terms, in: table)
        table.setFilter(filter, id: 5)
        #expect(TableFilterTests.shown(table, filter: 5) == Self.reference(table, terms))
        for step in 0..<200 {
            switch random.next() % 5 {
            case 0, 1:
                _ = try table.add((0..<2).map { _ in TableFilterTests.randomRow(&random) }, now: 0)
            case 2:
                let slots = table.orderSlots(from: 0, limit: table.rowCount)
                guard !slots.isEmpty else { continue }
                let id = table.id(of: slots[Int(random.next() % UInt64(slots.count))])
                let row = TableFilterTests.randomRow(&random)
                let column = ["qty", "rack", "item"][Int(random.next() % 3)]
                _ = try table.edit([CellEdit(id: id, column: column, input: row.values[column] ?? .text(""))])
            case 3:
                try TableFilterTests.deleteSome(&table, &random)
            default:
                try table.sort(by: [[], [SortKey(column: "qty")], [SortKey(column: "item")]][Int(random.next() % 3)])
            }
            #expect(TableFilterTests.shown(table, filter: 5) == Self.reference(table, terms), "after step \(step)")
        }
    }

    @Test func groupsAreSaidInWords() throws {
        var table = try TableFilterTests.table()
        _ = try table.add([RowInput(values: ["item": .text("Valve"), "qty": .number(5)])], now: 0)
        let terms: [Input] = [
            Self.condition("qty", .between, .number(5), .number(500)),
            .any([Self.condition("rack", .equal, .text("A1")), Self.condition("rack", .equal, .text("B2"))]),
            .any([
                Self.condition("qty", .empty),
                .all([Self.condition("item", .matches, .text("^V")), .not(Self.condition("rack", .oneOf, .text("C1")))]
                ),
            ]),
            .not(.any([Self.condition("item", .contains, .text("Pump")), Self.condition("qty", .less, .number(2))])),
        ]
        let filter = try RowFilter(terms: terms, search: "seat", in: table)
        #expect(
            filter.description(in: table)
                == "qty 5–500 · rack is A1 or B2 · qty is empty or (item matches /^V/ and not rack is C1) · "
                + "not (item contains “pump” or qty < 2) · “seat”"
        )
    }

    /// Refusals name the term: an empty group, nesting past the limit, a pattern RE2 does not take.
    @Test func badTermsAreRefusedNamingTheTerm() throws {
        let table = try TableFilterTests.table()
        func field(_ terms: [Input]) -> String? {
            do {
                _ = try RowFilter(terms: terms, in: table)
                return nil
            } catch {
                if case .invalidArgument(_, let field) = error { return field }
                return "\(error)"
            }
        }
        #expect(field([Self.condition("qty", .less, .number(1)), .any([])]) == "where[1].any")
        var deep = Self.condition("qty", .empty)
        for _ in 0..<RowFilter.maximumDepth { deep = .not(deep) }
        #expect(field([deep]) == nil)
        #expect(field([.all([deep])]) == "where[0].all[0]" + String(repeating: ".not", count: 7))
        #expect(field([.any([Self.condition("item", .matches, .text("(a"))])]) == "where[0].any[0].value")
        // Back-references need backtracking: refused, not run.
        #expect(field([Self.condition("item", .matches, .text("(a)\\1"))]) == "where[0].value")
        let many = (0...RowFilter.maximumConditions).map { _ in Self.condition("qty", .empty) }
        #expect(field([.any(many)]) == "where[0].any[\(RowFilter.maximumConditions)]")
    }

    /// A pattern that sends a backtracking engine into exponential time is matched in linear
    /// time: every one of 2,000 rows of 40 a's and a b is looked at, and none matches.
    @Test func aPatternThatBacktracksCostsWhatAPlainOneDoes() throws {
        var table = try TableFilterTests.table()
        let text = String(repeating: "a", count: 40) + "b"
        _ = try table.add((0..<2000).map { _ in RowInput(values: ["item": .text(text)]) }, now: 0)
        let filter = try RowFilter(terms: [Self.condition("item", .matches, .text("^(a+)+$"))], in: table)
        table.setFilter(filter, id: 3)
        #expect(TableFilterTests.shown(table, filter: 3).isEmpty)
        let plain = try RowFilter(terms: [Self.condition("item", .matches, .text("a+b$"))], in: table)
        table.setFilter(plain, id: 4)
        #expect(TableFilterTests.shown(table, filter: 4).count == 2000)
    }
}
