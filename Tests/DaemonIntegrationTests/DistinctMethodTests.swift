import DataTableProtocol
import Foundation
import Testing

/// `distinct` over the real socket: a column's values with their counts follow the view's
/// conditions on the other columns (not its own), its search, a prefix, an order and a limit,
/// and equal what a reference counts from the exported rows.
@Suite struct DistinctMethodTests {
    let daemon: TestDaemon

    init() throws { daemon = try TestDaemon(arguments: []) }

    static let colors = ["red", "Green", "blue", "green", "Rose"]

    /// 60 rows: `color` repeats every five (empty on every seventh row), `n` counts up.
    static func create(_ client: UnixClient) throws {
        try client.send(
            CreateRequest(
                table: "paint",
                columns: [ColumnDefinition(key: "n", type: .number), ColumnDefinition(key: "color")],
                rows: (0..<60).map { n in
                    .object(["n": .integer(Int64(n)), "color": n % 7 == 0 ? .null : .string(colors[n % 5])])
                }
            )
        )
    }

    /// The counts a reference makes of the exported rows that `admits`.
    static func reference(_ client: UnixClient, admits: ([String: JSONValue]) -> Bool) throws -> [String: Int] {
        let export = try client.send(ExportRequest(table: "paint", format: .ndjson))
        var counts: [String: Int] = [:]
        for line in (export.text ?? "").split(separator: "\n") {
            let row = try JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8))
            guard admits(row) else { continue }
            counts[row["color"]?.stringValue ?? "", default: 0] += 1
        }
        return counts
    }

    static func counts(_ reply: DistinctRequest.Response) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: reply.values.map { ($0.text, $0.count) })
    }

    @Test func valuesFollowTheOtherConditionsOfTheView() throws {
        let client = try daemon.connect()
        try Self.create(client)
        let every = try client.send(DistinctRequest(table: "paint", column: "color"))
        #expect(every.rows == 60 && every.distinct == 6)
        #expect(Self.counts(every) == (try Self.reference(client) { _ in true }))
        // In the column's order (case folded, the empty cell first).
        #expect(every.values.map(\.text) == ["", "blue", "Green", "green", "red", "Rose"])
        #expect(every.values.first?.value == .null)

        // The view keeps n < 30 and color = red: color's own condition does not narrow its list.
        _ = try client.send(
            FilterRequest(
                table: "paint",
                where: [
                    .condition(column: "n", op: .less, value: .integer(30)),
                    .condition(column: "color", op: .equal, value: .string("red")),
                ]
            )
        )
        let narrowed = try client.send(DistinctRequest(table: "paint", column: "color"))
        #expect(narrowed.rows == 30)
        #expect(Self.counts(narrowed) == (try Self.reference(client) { ($0["n"]?.doubleValue ?? 0) < 30 }))
        // n's list follows color = red, and not n < 30.
        let numbers = try client.send(DistinctRequest(table: "paint", column: "n", order: .count))
        #expect(numbers.rows == (try Self.reference(client) { $0["color"] == .string("red") }).values.reduce(0, +))
        #expect(numbers.rows == 10)
        // Every row, whatever the view.
        #expect(try client.send(DistinctRequest(table: "paint", column: "color", view: false)).rows == 60)
        // Another connection's view is its own.
        #expect(try daemon.connect().send(DistinctRequest(table: "paint", column: "color")).rows == 60)

        // A prefix (ignoring case), by count, limited.
        let greens = try client.send(DistinctRequest(table: "paint", column: "color", prefix: "GR", order: .count))
        #expect(Set(greens.values.map(\.text)) == ["green", "Green"])
        let top = try client.send(DistinctRequest(table: "paint", column: "color", order: .count, limit: 2))
        #expect(top.values.count == 2 && top.distinct == 6)
        #expect(top.values[0].count >= top.values[1].count)
        #expect(top.values[1].count >= Self.counts(narrowed).values.sorted(by: >)[1])
    }

    @Test func badParamsAreRefused() throws {
        let client = try daemon.connect()
        try Self.create(client)
        #expect(try client.failure(DistinctRequest(table: "paint", column: "colour")).kind == .noSuchColumn)
        #expect(
            try client.failure(DistinctRequest(table: "paint", column: "n", limit: 0)).details["field"]
                == "params.limit"
        )
        #expect(try client.failure(DistinctRequest(table: "nope", column: "n")).kind == .noSuchTable)
        let misspelt = try client.failure(
            toLine: #"{"method":"distinct","params":{"table":"paint","column":"n","prefx":"1"}}"#
        )
        #expect(misspelt.details["field"] == "params.prefx")
    }
}
