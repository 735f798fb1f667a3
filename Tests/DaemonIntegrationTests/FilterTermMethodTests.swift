import DataTableProtocol
import Foundation
import Testing

/// `filter` with groups (`any`, `all`, `not`) and `matches` over the real socket, written as a
/// shell user writes them: the rows shown are exactly those a reference evaluation of the
/// exported rows picks, the filter is said in words, bad terms are refused naming the term
/// and change nothing, a dropped column takes the terms that read it, and `distinct` follows
/// the terms on other columns.
@Suite struct FilterTermMethodTests {
    let daemon: TestDaemon

    init() throws { daemon = try TestDaemon(arguments: []) }

    static let statuses = ["OK", "Low", "Reorder", "Out"]

    /// 200 rows: `qty` counts up (empty on every ninth), `status` cycles, `item` names a
    /// valve, pump or gauge with a number.
    static func create(_ client: UnixClient) throws {
        let items = ["Valve", "Pump", "Gauge", "valve seat"]
        try client.send(
            CreateRequest(
                table: "stock",
                columns: [
                    ColumnDefinition(key: "item"), ColumnDefinition(key: "qty", type: .number),
                    ColumnDefinition(key: "status", type: .picker, options: statuses),
                ],
                rows: (0..<200).map { n in
                    .object([
                        "item": .string("\(items[n % 4]) \(n % 13)"),
                        "qty": n % 9 == 0 ? .null : .integer(Int64(n)),
                        "status": .string(statuses[n / 3 % 4]),
                    ])
                }
            )
        )
    }

    /// The `qty` of every exported row that `admits`, in table order.
    static func reference(_ client: UnixClient, admits: ([String: JSONValue]) -> Bool) throws -> [Double?] {
        let export = try client.send(ExportRequest(table: "stock", format: .ndjson))
        return try (export.text ?? "").split(separator: "\n").compactMap { line in
            let row = try JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8))
            return admits(row) ? .some(row["qty"]?.doubleValue) : nil
        }
    }

    /// The `qty` of every row the view shows, in its order.
    static func shown(_ client: UnixClient) throws -> [Double?] {
        let got = try client.send(GetRequest(table: "stock", from: 0, count: 1000, columns: ["qty"], view: true))
        return got.rows.map { $0.values["qty"]?.doubleValue }
    }

    @Test func groupedTermsShowWhatAReferencePicks() throws {
        let client = try daemon.connect()
        try Self.create(client)
        // Qty 20–150, and status Low or Reorder, and not (an item matching ^valve, any case, or
        // an empty qty): sent as a shell user types it.
        let reply = try client.reply(
            toLine: #"{"id":1,"method":"filter","params":{"table":"stock","where":["#
                + #"{"column":"qty","op":"between","values":[20,150]},"#
                + #"{"any":[{"column":"status","op":"=","value":"Low"},{"column":"status","op":"=","value":"Reorder"}]},"#
                + #"{"not":{"any":[{"column":"item","op":"matches","value":"(?i)^valve"},{"column":"qty","op":"empty"}]}}"#
                + #"]}}"#
        )
        let result = try #require(reply.result)
        #expect(
            result["filter"]
                == "qty 20–150 · status is Low or Reorder · not (item matches /(?i)^valve/ or qty is empty)"
        )
        let expected = try Self.reference(client) { row in
            let qty = row["qty"]?.doubleValue
            let status = row["status"]?.stringValue ?? ""
            let item = row["item"]?.stringValue ?? ""
            return (qty.map { (20...150).contains($0) } ?? false) && ["Low", "Reorder"].contains(status)
                && !(item.lowercased().hasPrefix("valve") || qty == nil)
        }
        #expect(!expected.isEmpty)
        #expect(result["shown"] == .integer(Int64(expected.count)))
        #expect(try Self.shown(client) == expected)
        // The reply gives the terms back as set.
        #expect(
            result["where"]?.arrayValue?[1] == [
                "any": [
                    ["column": "status", "op": "=", "value": "Low"],
                    ["column": "status", "op": "=", "value": "Reorder"],
                ]
            ]
        )

        // all inside any: qty under 10, or both an Out status and a pump.
        let typed = try client.send(
            FilterRequest(
                table: "stock",
                where: [
                    .any([
                        .condition(column: "qty", op: .less, value: 10),
                        .all([
                            .condition(column: "status", op: .equal, value: "Out"),
                            .condition(column: "item", op: .startsWith, value: "pump"),
                        ]),
                    ])
                ]
            )
        )
        #expect(typed.filter == "qty < 10 or (status is Out and item starts with “pump”)")
        let either = try Self.reference(client) { row in
            (row["qty"]?.doubleValue.map { $0 < 10 } ?? false)
                || (row["status"] == "Out" && (row["item"]?.stringValue ?? "").hasPrefix("Pump"))
        }
        #expect(typed.shown == either.count)
        #expect(try Self.shown(client) == either)
    }

    @Test func badTermsAreRefusedNamingTheTermAndChangeNothing() throws {
        let client = try daemon.connect()
        try Self.create(client)
        let kept = try client.send(
            FilterRequest(table: "stock", where: [.condition(column: "qty", op: .less, value: 50)])
        )
        func field(_ terms: String) throws -> String? {
            let error = try client.failure(
                toLine: #"{"id":1,"method":"filter","params":{"table":"stock","where":"# + terms + "}}"
            )
            #expect(error.code == .invalidParams, "\(terms): \(error.message)")
            return error.details["field"]?.stringValue
        }
        // A group beside a condition's members, an empty group, a pattern RE2 cannot take (or
        // one that needs backtracking), nesting deeper than eight.
        #expect(try field(#"[{"any":[],"column":"qty"}]"#) == "params.where[0]")
        #expect(try field(#"[{"all":[]}]"#) == "params.where[0].all")
        #expect(
            try field(#"[{"any":[{"column":"qty","op":"<","value":1},{"column":"item","op":"matches","value":"(x"}]}]"#)
                == "params.where[0].any[1].value"
        )
        #expect(try field(#"[{"column":"item","op":"matches","value":"(a)\\1"}]"#) == "params.where[0].value")
        let deep =
            String(repeating: #"{"not":"#, count: 9) + #"{"column":"qty","op":"empty"}"#
            + String(repeating: "}", count: 9)
        #expect(try field("[\(deep)]") == "params.where[0]" + String(repeating: ".not", count: 8))
        let error = try client.failure(
            toLine:
                #"{"id":1,"method":"filter","params":{"table":"stock","where":[{"any":[{"column":"qty","op":"<","value":1}],"colum":"x"}]}}"#
        )
        #expect(error.message.contains("stands alone"), "\(error.message)")
        // The view keeps what it had.
        #expect(try Self.shown(client).count == kept.shown)
    }

    @Test func droppingAColumnTakesTheTermsThatReadIt() throws {
        let client = try daemon.connect()
        try Self.create(client)
        let group: FilterTermParam = .any([
            .condition(column: "status", op: .equal, value: "Low"),
            .condition(column: "item", op: .contains, value: "pump"),
        ])
        try client.send(
            FilterRequest(
                table: "stock",
                where: [.condition(column: "qty", op: .greaterOrEqualASCII, value: 100), group]
            )
        )
        try daemon.connect().send(AlterRequest(table: "stock", drop: ["status"]))
        let after = try client.send(FilterRequest(table: "stock"))
        #expect(after.lost?.where == [group])
        #expect(after.where == [.condition(column: "qty", op: .greaterOrEqualASCII, value: 100)])
        #expect(after.shown == (try Self.reference(client) { ($0["qty"]?.doubleValue ?? 0) >= 100 }).count)
    }

    @Test func distinctFollowsTheGroupsOnOtherColumns() throws {
        let client = try daemon.connect()
        try Self.create(client)
        // Terms on qty and item narrow status's list; the group on status itself does not.
        try client.send(
            FilterRequest(
                table: "stock",
                where: [
                    .any([
                        .condition(column: "qty", op: .less, value: 40),
                        .condition(column: "item", op: .matches, value: "^Gauge"),
                    ]),
                    .not(.condition(column: "status", op: .equal, value: "OK")),
                ]
            )
        )
        let statuses = try client.send(DistinctRequest(table: "stock", column: "status"))
        let rows = try Self.reference(client) { row in
            (row["qty"]?.doubleValue.map { $0 < 40 } ?? false) || (row["item"]?.stringValue ?? "").hasPrefix("Gauge")
        }
        #expect(statuses.rows == rows.count)
        #expect(statuses.values.map(\.text).contains("OK"))
        // qty's list: the any group reads qty itself, so only not(status = OK) narrows it.
        let numbers = try client.send(DistinctRequest(table: "stock", column: "qty"))
        #expect(numbers.rows == (try Self.reference(client) { $0["status"] != "OK" }).count)
    }
}
