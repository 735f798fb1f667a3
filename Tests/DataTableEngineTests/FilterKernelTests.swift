import TestSupport
import Testing

@testable import DataTableEngine

/// Conditions worked out a column at a time admit exactly the rows a look at each row admits:
/// every operator on a number and a text column with empty cells, alone, together, beside a
/// condition that has no such form, in groups of any, all and not, and with a search, over
/// more rows than one piece.
@Suite struct FilterKernelTests {
    @Test(arguments: [(UInt64(5), false), (6, true)])
    func aColumnAtATimeAdmitsWhatEachRowWould(seed: UInt64, coded: Bool) throws {
        var random = SeededRandom(seed: seed)
        var table = try Table(
            name: "k",
            columns: [
                Column(key: "qty", rules: try ColumnRules(type: .number)),
                Column(key: "grade", rules: try ColumnRules(type: .text)),
                Column(key: "when", rules: try ColumnRules(type: .date)),
            ]
        )
        let grades = ["Low", "Mid", "High", "low"]
        let rows = (0..<70_000).map { _ -> RowInput in
            var values: [String: CellInput] = [:]
            if random.next() % 6 != 0 { values["qty"] = .number(Double(Int(random.next() % 40) - 10) / 2) }
            if random.next() % 5 != 0 { values["grade"] = .text(grades[Int(random.next() % 4)]) }
            if random.next() % 3 != 0 { values["when"] = .text("2024-0\(1 + random.next() % 9)-1\(random.next() % 9)") }
            return RowInput(values: values)
        }
        _ = try table.add(rows, now: 0)
        if coded {
            table.codeTexts()
            #expect(table.stores[1].isCoded)
        }
        // Some slots freed, as deletes leave them.
        _ = try table.delete((1...200).map { RowID.number(Int64($0 * 97)) })
        func number() -> CellInput { .number(Double(Int(random.next() % 40) - 10) / 2) }
        func grade() -> CellInput { .text(grades[Int(random.next() % 4)]) }
        func condition() -> FilterCondition.Input {
            let onQty = random.next() % 2 == 0
            let value = onQty ? number : grade
            let operators: [FilterOperator] =
                onQty
                ? [
                    .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .between, .oneOf, .empty,
                    .notEmpty,
                ]
                : [.equal, .notEqual, .oneOf, .empty, .notEmpty, .less, .contains]
            let op = operators[Int(random.next() % UInt64(operators.count))]
            let values: [CellInput] =
                switch op {
                case .empty, .notEmpty: []
                case .between:
                    // The lower first.
                    onQty
                        ? [Double(Int(random.next() % 20) - 10) / 2, Double(random.next() % 20) / 2].sorted().map {
                            .number($0)
                        }
                        : [.text("High"), .text("Mid")]
                case .oneOf: [value(), value(), value()]
                default: [value()]
                }
            return .init(column: onQty ? "qty" : "grade", operator: op, values: values)
        }
        /// A term: a condition, or (`depth` left) a group of any or all of two or three terms,
        /// or one that must not hold; now and then the date condition, which has no
        /// column-at-a-time form.
        func term(depth: Int) -> FilterTerm.Input {
            if random.next() % 9 == 0 {
                return .condition(.init(column: "when", operator: .greater, values: [.text("2024-05-01")]))
            }
            guard depth > 0 else { return .condition(condition()) }
            let terms = (0..<(2 + Int(random.next() % 2))).map { _ in term(depth: depth - 1) }
            switch random.next() % 4 {
            case 0: return .any(terms)
            case 1: return .all(terms)
            case 2: return .not(terms[0])
            default: return .condition(condition())
            }
        }
        for round in 0..<90 {
            var conditions = (0..<(1 + Int(random.next() % 3))).map { _ in FilterTerm.Input.condition(condition()) }
            if round % 5 == 0 {
                conditions.append(.condition(.init(column: "when", operator: .greater, values: [.text("2024-05-01")])))
            }
            // Past the first rounds, groups: any, all and not, nested.
            if round >= 60 { conditions = (0..<(1 + Int(random.next() % 2))).map { _ in term(depth: 2) } }
            let filter = try RowFilter(terms: conditions, search: round % 7 == 0 ? "ow" : "", in: table)
            let admitted = table.admittedRows(filter).rows.allSlots
            var expected: [UInt32] = []
            table.order.forEachSlot { slot in if filter.admits(slot, in: table) { expected.append(slot) } }
            // (Compared so that a failure says where the two part, not every slot.)
            let parting = (0..<min(admitted.count, expected.count)).first { admitted[$0] != expected[$0] }
            let same = parting == nil && admitted.count == expected.count
            #expect(
                same,
                "round \(round), \(conditions): \(admitted.count) rows, not \(expected.count); apart from \(String(describing: parting))"
            )
        }
    }
}
