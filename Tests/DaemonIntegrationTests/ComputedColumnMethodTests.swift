import DataTableProtocol
import Foundation
import Testing

/// Computed columns over the socket: refusals that name the member and the place and change
/// nothing, and columns that come back after a restart with the values they had.
@Suite struct ComputedColumnMethodTests {
    static let columns = [
        ColumnDefinition(key: "qty", type: .number),
        ColumnDefinition(key: "weight", label: "Unit weight", type: .number),
        ColumnDefinition(key: "item"), ColumnDefinition(key: "value", expression: "qty * [Unit weight]"),
    ]

    @Test func everyRefusalNamesTheFieldAndTheOffsetAndChangesNothing() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        let created = try client.send(
            CreateRequest(table: "goods", columns: Self.columns, rows: [["qty": 2, "weight": 3, "item": "bolt"]])
        )
        let deep = String(repeating: "(", count: 40) + "qty" + String(repeating: ")", count: 40)
        let long = "qty" + String(repeating: " + 1", count: 1024)  // 4,099 bytes
        #expect(long.utf8.count == 4099)
        let cases: [(AlterRequest, field: String, offset: Int64)] = [
            (
                AlterRequest(table: "goods", add: [ColumnDefinition(key: "x", expression: "qty * nothing")]),
                "params.add[0].expression", 6
            ),
            (
                AlterRequest(table: "goods", add: [ColumnDefinition(key: "x", expression: "upper(qty)")]),
                "params.add[0].expression", 6
            ),
            (
                AlterRequest(table: "goods", add: [ColumnDefinition(key: "x", expression: "qty + item")]),
                "params.add[0].expression", 4
            ),
            (
                AlterRequest(
                    table: "goods",
                    add: [
                        ColumnDefinition(key: "x", expression: "y + 1"),
                        ColumnDefinition(key: "y", expression: "x * 2"),
                    ]
                ),
                "params.add[0].expression", 0
            ),
            (
                AlterRequest(table: "goods", add: [ColumnDefinition(key: "x", expression: deep)]),
                "params.add[0].expression", 32
            ),
            (
                AlterRequest(table: "goods", add: [ColumnDefinition(key: "x", expression: long)]),
                "params.add[0].expression", 4096
            ),
            (AlterRequest(table: "goods", drop: ["weight"]), "params.drop", 6),
            (
                AlterRequest(table: "goods", change: [ColumnDefinition(key: "value", expression: "item & '!'")]),
                "params.change[0].expression", 0
            ),
            (
                AlterRequest(table: "goods", add: [ColumnDefinition(key: "x", type: .text, expression: "qty")]),
                "params.add[0].type", 0
            ),
        ]
        for (request, field, offset) in cases {
            let error = try client.failure(request)
            #expect(error.kind == .invalidValue, "\(request)")
            #expect(error.details["field"] == .string(field), "\(request): \(error.message)")
            #expect(error.details["offset"] == .integer(offset), "\(request): \(error.message)")
        }
        // Nothing changed: the same version, columns and values.
        let described = try client.send(DescribeRequest(table: "goods"))
        #expect(described.version == created.version)
        #expect(described.columns.map(\.key) == ["qty", "weight", "item", "value"])
        #expect(described.columns[3].expression == "qty * [Unit weight]")
        let row = try client.send(GetRequest(table: "goods", ids: [1])).rows[0]
        #expect(row.values["value"] == 6)
        // A create is refused the same way.
        let bad = try client.failure(
            CreateRequest(table: "other", columns: [ColumnDefinition(key: "a", expression: "len(b)")])
        )
        #expect(bad.details["field"] == "params.columns[0].expression")
        #expect(bad.details["offset"] == 4)
        #expect(try client.failure(DescribeRequest(table: "other")).kind == .noSuchTable)
    }

    /// Stopped at once (SIGKILL: the log is replayed) or asked to stop (SIGTERM: the state is
    /// written out), the daemon comes back with every computed column, a running sum too.
    @Test(arguments: [SIGKILL, SIGTERM])
    func computedColumnsComeBackAfterARestartWithTheirValues(signal: Int32) throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path]
        let before: GetRequest.Response
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            try client.send(
                CreateRequest(
                    table: "goods",
                    columns: Self.columns,
                    rows: (1...20).map { (n: Int) -> JSONValue in
                        let row: [String: JSONValue] = [
                            "qty": .integer(Int64(n)), "weight": .number(Double(n) / 4), "item": .string("i\(n)"),
                        ]
                        return .object(row)
                    }
                )
            )
            try client.send(
                AlterRequest(
                    table: "goods",
                    add: [
                        ColumnDefinition(key: "label", expression: "upper(item) & ': ' & value"),
                        ColumnDefinition(key: "running", expression: "runningSum(value)"),
                    ]
                )
            )
            try client.send(AlterRequest(table: "goods", rename: ["qty": "count"]))
            try client.send(EditRequest(table: "goods", id: 3, column: "count", value: 100))
            try client.send(SortRequest(table: "goods", keys: [SortKeyParam(column: "value", descending: true)]))
            before = try client.send(GetRequest(table: "goods", count: 20))
            #expect(before.rows[0].values["label"] == "I20: 100")
            #expect(before.rows.first { $0.id == 3 }?.values["label"] == "I3: 75")
            // The running sum of every row's value is the sum of them all at the last row.
            let values = before.rows.compactMap { $0.values["value"]?.doubleValue }
            #expect(values.count == 20)
            #expect(before.rows.last?.values["running"]?.doubleValue == values.reduce(0, +))
            #expect(before.rows[1].values["running"]?.doubleValue == values[0] + values[1])
            _ = daemon.process.stop(signal: signal)
        }
        let restarted = try TestDaemon(arguments: arguments)
        let client = try restarted.connect()
        let after = try client.send(GetRequest(table: "goods", count: 20))
        #expect(after.rows.map(\.values) == before.rows.map(\.values))
        #expect(after.rows.map(\.id) == before.rows.map(\.id))
        let described = try client.send(DescribeRequest(table: "goods"))
        #expect(described.columns.first { $0.key == "value" }?.expression == "count * [Unit weight]")
        // Still kept current.
        try client.send(EditRequest(table: "goods", id: 1, column: "count", value: 1000))
        let first = try client.send(GetRequest(table: "goods", count: 1)).rows[0]
        #expect(first.values["label"] == "I1: 250")
        #expect(first.values["running"] == 250)
    }
}
