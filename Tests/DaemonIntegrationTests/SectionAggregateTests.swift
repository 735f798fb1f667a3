import DataTableProtocol
import Foundation
import TestSupport
import Testing

/// Section aggregates and the grand total over the real socket: what a scroll shows equals
/// what the exported rows add up to, before and after an edit that moves a row to another
/// section, and a function a column cannot take is refused.
@Suite struct SectionAggregateTests {
    let daemon: TestDaemon

    init() throws { daemon = try TestDaemon(arguments: []) }

    static let racks = ["A", "B", "C"]
    static let functions: [AggregateFunction] = [
        .count, .sum, .avg, .min, .max, .median, .countDistinct, .first, .last,
    ]

    /// The table's columns: `n` numbers the rows, `rack` groups them, `w` and `d` are summed up.
    static let columns = [
        ColumnDefinition(key: "n", type: .number),
        ColumnDefinition(key: "rack", type: .picker, options: racks),
        ColumnDefinition(key: "w", type: .number),
        ColumnDefinition(key: "d", type: .date),
    ]

    /// `w` is empty on every fifth row and repeats every seven; `d` is empty on every fourth.
    static func rows() -> [[String: JSONValue]] {
        (0..<40).map { n in
            var row: [String: JSONValue] = ["n": .integer(Int64(n)), "rack": .string(racks[n * 7 % 3])]
            if n % 5 != 0 { row["w"] = .number(Double(n % 7) * 1.5 + 0.25) }
            if n % 4 != 0 { row["d"] = .string("2024-03-\(10 + n % 17)") }
            return row
        }
    }

    static func scroll(aggregates: [String: ScrollRequest.AggregateFunctions]) -> ScrollRequest {
        var request = ScrollRequest(table: "sums", viewport: .init(x: 0, y: 0, width: 60, height: 200), unit: .cell)
        request.sections = .init(column: "rack", aggregates: aggregates, grandTotal: .bottom)
        return request
    }

    /// The exported rows (in the view's order: by rack, then the table's order), grouped by rack.
    static func exported(_ client: UnixClient, view: Bool? = nil) throws -> [(
        rack: String, rows: [[String: JSONValue]]
    )] {
        let export = try client.send(ExportRequest(table: "sums", format: .ndjson, view: view))
        let rows = try (export.text ?? "").split(separator: "\n").map {
            try JSONDecoder().decode([String: JSONValue].self, from: Data($0.utf8))
        }
        return racks.map { rack in (rack, rows.filter { $0["rack"] == .string(rack) }) }
            .filter { !$0.rows.isEmpty }
    }

    /// `function` of the values of `column` in `rows`, worked out here.
    static func reference(_ function: AggregateFunction, _ column: String, _ rows: [[String: JSONValue]]) -> JSONValue?
    {
        let values = rows.compactMap { row -> JSONValue? in
            guard let value = row[column], value != .null else { return nil }
            return value
        }
        let numbers = values.compactMap(\.doubleValue)
        let texts = values.compactMap(\.stringValue).sorted()
        let isNumber = !numbers.isEmpty
        func number(_ value: Double) -> JSONValue {
            value.rounded() == value ? .integer(Int64(value)) : .number(value)
        }
        switch function {
        case .count: return .integer(Int64(values.count))
        case .countDistinct: return .integer(Int64(Set(values).count))
        case .first: return values.first
        case .last: return values.last
        case .sum: return number(numbers.reduce(0, +))
        case .avg: return numbers.isEmpty ? nil : number(numbers.reduce(0, +) / Double(numbers.count))
        case .min: return isNumber ? numbers.min().map(number) : texts.first.map(JSONValue.string)
        case .max: return isNumber ? numbers.max().map(number) : texts.last.map(JSONValue.string)
        case .median:
            if isNumber {
                let sorted = numbers.sorted()
                guard !sorted.isEmpty else { return nil }
                let middle = sorted.count / 2
                return number(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2)
            }
            guard !texts.isEmpty else { return nil }
            return .string(texts[(texts.count - 1) / 2])
        }
    }

    static func same(_ shown: JSONValue?, _ expected: JSONValue?) -> Bool {
        if let a = shown?.doubleValue, let b = expected?.doubleValue { return abs(a - b) <= 1e-9 * max(1, abs(b)) }
        return shown == expected
    }

    /// Every aggregate of `window` against the exported rows.
    static func check(_ window: ScrollRequest.Response, _ client: UnixClient, _ when: String, view: Bool? = nil) throws
    {
        let groups = try exported(client, view: view)
        let sections = try #require(window.sections)
        #expect(sections.shown.map(\.title) == groups.map(\.rack), "\(when)")
        for (shown, group) in zip(sections.shown, groups) {
            for aggregate in shown.aggregates ?? [] {
                let expected = reference(aggregate.function, aggregate.column, group.rows)
                #expect(
                    same(aggregate.value, expected),
                    "\(when): \(aggregate.column) \(aggregate.function) of \(shown.title) is \(String(describing: aggregate.value)), not \(String(describing: expected))"
                )
            }
        }
        let grand = try #require(sections.grandTotal)
        for aggregate in grand.aggregates {
            let expected = reference(aggregate.function, aggregate.column, groups.flatMap(\.rows))
            #expect(
                same(aggregate.value, expected),
                "\(when): the grand total's \(aggregate.column) \(aggregate.function)"
            )
        }
    }

    @Test func aggregatesEqualTheExportedRowsBeforeAndAfterARowMoves() throws {
        let client = try daemon.connect()
        try client.send(
            CreateRequest(
                table: "sums",
                columns: Self.columns,
                rows: Self.rows().map { .object($0) },
                sort: [SortKeyParam(column: "n", descending: true)]
            )
        )
        let asked: [String: ScrollRequest.AggregateFunctions] = [
            "w": .init(Self.functions), "d": .init([.min, .max, .median, .count, .first]),
        ]
        let window = try client.send(Self.scroll(aggregates: asked))
        let shown = try #require(window.sections?.shown.first?.aggregates)
        // In the table's column order, each column's functions in the order the list has them.
        #expect(shown.map(\.column) == Array(repeating: "w", count: 9) + Array(repeating: "d", count: 5))
        #expect(shown.prefix(9).map(\.function) == AggregateFunction.allCases)
        #expect(shown.suffix(5).map(\.function) == [.count, .min, .max, .median, .first])
        #expect(window.sections?.totals == .header)
        #expect(window.sections?.grandTotal?.placement == .bottom)
        try Self.check(window, client, "at first")

        // Row 7 (rack B, w 0.25) moves to rack A; its w empties in another edit.
        let moved = try client.send(EditRequest(table: "sums", id: .integer(7), column: "rack", value: .string("A")))
        let after = try client.send(Self.scroll(aggregates: asked))
        #expect(after.version == moved.version)
        try Self.check(after, client, "after row 7 moved to A")
        _ = try client.send(EditRequest(table: "sums", id: .integer(8), column: "w", value: .null))
        try Self.check(try client.send(Self.scroll(aggregates: asked)), client, "after row 8's w emptied")
        _ = try client.send(DeleteRequest(table: "sums", ids: [.integer(39), .integer(38)]))
        try Self.check(try client.send(Self.scroll(aggregates: asked)), client, "after a delete")
    }

    /// A random row numbered `n`: `w` and `d` each empty one time in four, values that repeat.
    static func randomRow(_ n: Int, _ random: inout SeededRandom) -> [String: JSONValue] {
        var row: [String: JSONValue] = ["n": .integer(Int64(n)), "rack": .string(racks[Int(random.next() % 3)])]
        if random.next() % 4 != 0 { row["w"] = .number(Double(random.next() % 40) / 4 - 3) }
        if random.next() % 4 != 0 { row["d"] = .string("2024-0\(1 + random.next() % 9)-1\(random.next() % 9)") }
        return row
    }

    @Test(.tags(.slow), arguments: [false, true])
    func aggregatesEqualTheExportedRowsAfterEachOfAThousandRandomChanges(filtered: Bool) throws {
        let client = try daemon.connect()
        var random = SeededRandom(seed: filtered ? 71 : 70)
        var ids = Array(0..<60)
        try client.send(
            CreateRequest(
                table: "sums",
                columns: Self.columns,
                key: "n",
                rows: ids.map { .object(Self.randomRow($0, &random)) },
                sort: [SortKeyParam(column: "w")]
            )
        )
        if filtered {
            try client.send(FilterRequest(table: "sums", where: [.condition(column: "w", op: .less, value: 5)]))
        }
        let asked: [String: ScrollRequest.AggregateFunctions] = [
            "w": .init(Self.functions), "d": .init([.count, .min, .max, .median, .countDistinct, .first, .last]),
        ]
        var request = Self.scroll(aggregates: asked)
        request.viewport?.height = 1000
        try Self.check(try client.send(request), client, "at first", view: filtered)
        var next = ids.count
        for step in 0..<1000 {
            switch random.next() % 10 {
            case 0, 1, 2:
                try client.send(AddRequest(table: "sums", row: .object(Self.randomRow(next, &random))))
                ids.append(next)
                next += 1
            case 3, 4, 5, 6, 7:
                let id = ids[Int(random.next() % UInt64(ids.count))]
                let other = Self.randomRow(id, &random)
                let column = ["rack", "w", "d"][Int(random.next() % 3)]
                try client.send(
                    EditRequest(table: "sums", id: .integer(Int64(id)), column: column, value: other[column] ?? .null)
                )
            default:
                guard ids.count > 5 else { continue }
                let id = ids.remove(at: Int(random.next() % UInt64(ids.count)))
                try client.send(DeleteRequest(table: "sums", ids: [.integer(Int64(id))]))
            }
            try Self.check(try client.send(request), client, "after step \(step)", view: filtered)
        }
    }

    @Test func aFunctionAColumnCannotTakeIsRefused() throws {
        let client = try daemon.connect()
        try client.send(
            CreateRequest(
                table: "sums",
                columns: [ColumnDefinition(key: "n", type: .number), ColumnDefinition(key: "name", type: .text)],
                rows: [.object(["n": .integer(1), "name": .string("one")])]
            )
        )
        var request = ScrollRequest(table: "sums", viewport: .init(x: 0, y: 0, width: 60, height: 10), unit: .cell)
        request.sections = .init(column: "n", aggregates: ["name": .init([.sum])])
        let refused = try client.failure(request)
        #expect(refused.kind == .invalidParams)
        #expect(refused.details["field"] == "params.sections.aggregates.name")
        #expect(refused.message == "sum needs a number or duration column; name is text.")
        request.sections = .init(column: "n", grandTotal: .top)
        #expect(try client.failure(request).details["field"] == "params.sections.grandTotal")
    }
}
