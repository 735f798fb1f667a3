import DataTableProtocol
import Foundation
import Testing

/// `filter` over the real socket, through socat as a shell user would: a view narrowed by a
/// number range, a picker value and a search word; rows added by another client counted in
/// `newAbove` only when the filter lets them through; views of other connections untouched.
@Suite struct FilterMethodTests {
    let daemon: TestDaemon

    init() throws { daemon = try TestDaemon(arguments: ["--demo"]) }

    @Test func aFilteredViewShowsCountsAndAnchorsOnlyTheRowsItLetsThrough() throws {
        let first = try ScrollMethodTests.SocatSession(to: daemon, name: "first")
        let second = try ScrollMethodTests.SocatSession(to: daemon, name: "second")
        let kinds = ["Bolt", "Nut", "Valve", "Washer"]
        let rows: [JSONValue] = (0..<400).map { n in
            [
                "n": .integer(Int64(n)), "kind": .string(kinds[n % 4]),
                "tag": .string(n % 7 == 0 ? "Safety valve" : "part"),
            ]
        }
        try first.client.send(
            CreateRequest(
                table: "parts",
                columns: [
                    ColumnDefinition(key: "n", type: .number),
                    ColumnDefinition(key: "kind", type: .picker, options: kinds), ColumnDefinition(key: "tag"),
                ],
                rows: rows,
                sort: [SortKeyParam(column: "n", descending: true)]
            )
        )

        let set = try first.client.send(
            FilterRequest(
                table: "parts",
                where: [
                    .condition(column: "n", op: .between, values: [100, 299]),
                    .condition(column: "kind", op: .oneOf, values: ["Nut", "Valve"]),
                ]
            )
        )
        #expect(set.total == 400)
        #expect(set.shown == 100)
        #expect(set.filter == "n 100–299 · kind is Nut or Valve")

        let searched = try first.client.send(FilterRequest(table: "parts", search: "VALVE"))
        // Of 100..<300 with kind Nut or Valve: every Valve (n % 4 == 2), and the Nuts tagged
        // "Safety valve" (n % 7 == 0).
        let expected = (100..<300).filter { $0 % 4 == 2 || ($0 % 4 == 1 && $0 % 7 == 0) }
        #expect(searched.shown == expected.count)

        let window = try first.client.send(
            ScrollRequest(
                table: "parts",
                viewport: .init(width: 40, height: 6),
                to: .init(index: 3, align: .top),
                unit: .cell
            )
        )
        #expect(window.shown == expected.count)
        #expect(window.total == 400)
        #expect(window.filter == "n 100–299 · kind is Nut or Valve · “VALVE”")
        #expect(window.contentHeight == 1 + expected.count)
        var layout = LayoutRequest(table: "parts", width: 40, unit: .cell)
        layout.view = true
        let laidOut = try first.client.send(layout)
        #expect(laidOut.rows.count == expected.count)
        #expect(laidOut.contentHeight == 1 + expected.count)
        let shownIDs = window.rows.map(\.id)
        // (Rows without a key get ids from 1 in the order they were added: n + 1.)
        #expect(shownIDs == Array(expected.reversed()[3..<8]).map { .integer(Int64($0 + 1)) })
        #expect(window.rows.map(\.index) == [3, 4, 5, 6, 7])

        // Another client adds rows that sort on top: only those the filter lets through are new
        // above, and the anchored row stays where it was.
        let added: [JSONValue] = [
            ["n": 295, "kind": "Valve", "tag": "x"], ["n": 296, "kind": "Bolt", "tag": "valve"],
            ["n": 297, "kind": "Nut", "tag": "Valve cap"], ["n": 900, "kind": "Valve", "tag": "x"],
        ]
        try second.client.send(AddRequest(table: "parts", rows: added))
        let after = try first.client.send(ScrollRequest(table: "parts"))
        #expect(after.newAbove == 2)
        #expect(after.hiddenNew == 2, "the Bolt and n 900 are left out")
        #expect(after.rows.first?.id == shownIDs.first)
        #expect(after.rows.first?.index == 5)

        // The other connection's view is the whole table.
        let whole = try second.client.send(
            ScrollRequest(table: "parts", viewport: .init(width: 40, height: 4), unit: .cell)
        )
        #expect(whole.shown == nil)
        #expect(whole.total == 404)

        // Bad conditions change nothing.
        for bad in [
            .condition(column: "n", op: .greater, value: "many"),
            .condition(column: "kind", op: .equal, value: "Screw"),
            .condition(column: "size", op: .empty),
            .condition(column: "n", op: .between, value: 1),
        ] as [FilterTermParam] {
            #expect(
                try first.client.failure(FilterRequest(table: "parts", where: [bad])).code == .invalidParams,
                "\(bad)"
            )
        }
        // An operator outside the set is what no condition can hold: sent as text.
        #expect(
            try first.client.failure(
                toLine:
                    #"{"id":1,"method":"filter","params":{"table":"parts","where":[{"column":"n","op":"~","value":1}]}}"#
            ).code == .invalidParams
        )
        let still = try first.client.send(ScrollRequest(table: "parts"))
        #expect(still.shown == expected.count + 2)
        #expect(
            try first.client.failure(
                FilterRequest(table: "parts", where: [.condition(column: "n", op: .equal, values: [1])])
            ).code == .invalidParams
        )

        // Requests that name the view act on the rows it shows.
        let got = try first.client.send(GetRequest(table: "parts", from: 0, count: 3, columns: ["n"], view: true))
        #expect(got.rows.map(\.index) == [0, 1, 2])
        #expect(got.rows.map { $0.values["n"] } == [298, 297, 295])
        let whole3 = try first.client.send(GetRequest(table: "parts", from: 0, count: 1, columns: ["n"]))
        #expect(whole3.rows.first?.values["n"] == 900)
        let hidden = try first.client.failure(GetRequest(table: "parts", ids: [1], view: true))
        #expect(hidden.details["field"] == "params.ids[0]")

        let selected = try first.client.send(SelectRequest(table: "parts", action: .all, view: true))
        #expect(selected.count == expected.count + 2)
        let exported = try first.client.send(ExportRequest(table: "parts", format: .csv, view: true))
        #expect(exported.rows == expected.count + 2)
        // Every row selected, then the view's selected rows edited and deleted: the rest stay.
        try second.client.send(SelectRequest(table: "parts", action: .all))
        let edited = try first.client.send(
            EditRequest(table: "parts", column: "tag", value: "checked", selection: true, view: true)
        )
        #expect(edited.edited == expected.count + 2)
        // The Nuts were shown for their tags' "valve"; tagged "checked" now, the view leaves them
        // out, and the Valves are what it shows.
        let valves = (100..<300).filter { $0 % 4 == 2 }.count + 1
        #expect(try first.client.send(ScrollRequest(table: "parts")).shown == valves)
        let deleted = try first.client.send(DeleteRequest(table: "parts", selection: true, view: true))
        #expect(deleted.deleted == valves)
        #expect(deleted.rows == 404 - valves)
        #expect(try first.client.failure(DeleteRequest(table: "parts", ids: [1], view: true)).code == .invalidParams)
        #expect(try first.client.failure(SelectRequest(table: "parts", ids: [1], view: true)).code == .invalidParams)

        // Cleared, the view shows every row again.
        let cleared = try first.client.send(FilterRequest(table: "parts", where: [], search: ""))
        #expect(cleared.shown == 404 - valves)
        #expect(cleared.filter == "")
        #expect(try first.client.send(ScrollRequest(table: "parts")).shown == nil)
    }
}
