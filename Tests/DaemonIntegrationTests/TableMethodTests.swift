import DataTableClient
import DataTableProtocol
import Foundation
import Testing

/// Every table method over the real socket, with its errors.
@Suite struct TableMethodTests {
    /// A daemon holding a "stock" table sorted by date, newest first.
    private final class Stock {
        let daemon: TestDaemon
        let client: UnixClient

        init(key: Bool = false) throws {
            daemon = try TestDaemon()
            client = try daemon.connect()
            let created = try client.send(
                CreateRequest(
                    table: "stock",
                    columns: [
                        ColumnDefinition(key: "item", label: "Item", required: true, maxLength: 20),
                        ColumnDefinition(key: "rack", label: "Rack", editable: false),
                        ColumnDefinition(key: "qty", label: "Qty", type: .number, min: 0, decimals: 0),
                        ColumnDefinition(key: "received", label: "Received", type: .date),
                        ColumnDefinition(key: "grade", type: .picker, options: ["Low", "Medium", "High"]),
                    ],
                    key: key ? "item" : nil,
                    sort: [SortKeyParam(column: "received", descending: true)]
                )
            )
            #expect(created.rows == 0)
        }

        /// The typed result of `request`; an error reply throws.
        @discardableResult
        func send<Request: DataTableRequest>(_ request: Request) throws -> Request.Response {
            try client.send(request)
        }

        /// The error `request` must get.
        func failure<Request: DataTableRequest>(
            _ request: Request,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> ResponseError {
            try client.failure(request, sourceLocation: sourceLocation)
        }

        /// The error `line` (what no request type can say) must get.
        func failure(toLine line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ResponseError {
            try client.failure(toLine: line, sourceLocation: sourceLocation)
        }
    }

    /// Formatted columns show their values in their style everywhere a person reads them
    /// (get, scroll, an edit's reply), take either form, and keep the plain forms in values,
    /// exports and across a restart (through a snapshot).
    @Test func formattedColumnsShowTheirStyleAndKeepPlainValues() throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path, "--compact-after-bytes", "1"]
        let scroll = ScrollRequest(table: "prices", viewport: .init(width: 80, height: 5), unit: .cell)
        let shown = ["Lathe", "$1,234.50", "25%", "24.11.2026"]
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            try client.send(
                CreateRequest(
                    table: "prices",
                    columns: [
                        ColumnDefinition(key: "item"),
                        ColumnDefinition(
                            key: "price",
                            type: .number,
                            decimals: 2,
                            format: ColumnFormat(grouping: true, prefix: "$")
                        ),
                        ColumnDefinition(key: "share", type: .number, format: ColumnFormat(percent: true)),
                        ColumnDefinition(key: "due", type: .date, format: ColumnFormat(locale: "de")),
                    ],
                    rows: [["item": "Lathe", "price": 12500, "share": "25%", "due": "24.11.2026"]]
                )
            )
            let edited = try client.send(EditRequest(table: "prices", id: 1, column: "price", value: "$1,234.50"))
            let cell = try #require(edited.cells.first)
            #expect(cell.display == "$1,234.50" && cell.value == 1234.5)
            let row = try #require(try client.send(GetRequest(table: "prices")).rows.first)
            #expect(row.values == ["item": "Lathe", "price": 1234.5, "share": 0.25, "due": "2026-11-24"])
            #expect(try client.send(scroll).rows.first?.cells == shown)
            let export = try client.send(ExportRequest(table: "prices"))
            #expect(export.text == "item,price,share,due\nLathe,1234.50,0.25,2026-11-24\n")
        }
        let daemon = try TestDaemon(arguments: arguments)
        let client = try daemon.connect()
        let columns = try client.send(DescribeRequest(table: "prices")).columns
        #expect(
            columns.map(\.format) == [
                nil, ColumnFormat(grouping: true, prefix: "$"), ColumnFormat(percent: true),
                ColumnFormat(locale: "de-DE"),
            ]
        )
        #expect(try client.send(scroll).rows.first?.cells == shown)
        // A value that is not a number says what the column's numbers look like.
        let refused = try client.failure(EditRequest(table: "prices", id: 1, column: "price", value: "lots"))
        #expect(refused.message == "Enter a number, like $1,234.50 or 42.")
        let bad = try client.failure(
            CreateRequest(
                table: "bad",
                columns: [ColumnDefinition(key: "d", type: .date, format: ColumnFormat(locale: "xx"))]
            )
        )
        #expect(bad.details["field"] == "params.columns[0].format.locale")
    }

    @Test func createDescribeTablesAndDrop() throws {
        let stock = try Stock()
        let described = try stock.send(DescribeRequest(table: "stock"))
        let columns = described.columns
        #expect(columns.map(\.key) == ["item", "rack", "qty", "received", "grade"])
        #expect(columns[2].min == 0)
        #expect(columns[4].options == ["Low", "Medium", "High"])
        #expect(described.sort.first?.descending == true)
        #expect(described.selection == .multiple)
        let tables = try stock.send(TablesRequest()).tables
        #expect(tables.map(\.name) == ["stock"])
        let a = ColumnDefinition(key: "a")
        #expect(try stock.failure(CreateRequest(table: "stock", columns: [a])).kind == .alreadyExists)
        #expect(
            try stock.client.failure(
                toLine: #"{"id":1,"method":"create","params":{"table":"x","columns":[{"key":"a","type":"colour"}]}}"#
            ).kind
                == .invalidValue
        )
        #expect(try stock.failure(CreateRequest(table: "x", columns: [])).kind == .invalidValue)
        // A sort key naming no column is named where create took it: params.sort[i].column.
        let badSort = try stock.failure(CreateRequest(table: "x", columns: [a], sort: [SortKeyParam(column: "b")]))
        #expect(badSort.details["field"] == "params.sort[0].column")
        #expect(
            try stock.failure(SortRequest(table: "stock", keys: [SortKeyParam(column: "b")])).details["field"]
                == "params.keys[0].column"
        )
        // Without columns, which a create request always has.
        let noColumns = #"{"jsonrpc":"2.0","id":1,"method":"create","params":{"table":"x"}}"#
        #expect(try stock.failure(toLine: noColumns).kind == .invalidParams)
        #expect(try stock.send(DropRequest(table: "stock")).dropped == true)
        #expect(try stock.failure(DropRequest(table: "stock")).kind == .noSuchTable)
        #expect(try stock.failure(DescribeRequest(table: "stock")).kind == .noSuchTable)
    }

    @Test func addPlacesRowsByTheSortAndRefusesBadBatchesWhole() throws {
        let stock = try Stock()
        try stock.send(
            AddRequest(
                table: "stock",
                rows: [["item": "old", "received": "2024-01-01"], ["item": "mid", "received": "2024-06-01"]]
            )
        )
        let added = try stock.send(AddRequest(table: "stock", row: ["item": "new", "received": "2025-01-01"]))
        let first = try #require(added.added.first)
        #expect(first.index == 0)
        #expect(first.id == 3)
        #expect(first.addedAt.hasSuffix("Z"))
        let bad = try stock.failure(AddRequest(table: "stock", rows: [["item": "ok"], ["item": "x", "qty": -1]]))
        #expect(bad.kind == .invalidValue)
        #expect(bad.details["row"] == 1)
        #expect(bad.details["column"] == "qty")
        #expect(bad.message == "Row 2, column qty: The value must be 0 or more.")
        #expect(
            try stock.failure(AddRequest(table: "stock", row: ["item": "x", "colour": "red"])).kind == .noSuchColumn
        )
        #expect(try stock.failure(AddRequest(table: "stock", row: ["item": "x"], index: 0)).kind == .invalidValue)
        #expect(try stock.failure(AddRequest(table: "stock", row: ["item": true])).kind == .invalidValue)
        #expect(try stock.failure(AddRequest(table: "stock")).kind == .invalidParams)
        #expect(try stock.failure(AddRequest(table: "nope", row: [:])).kind == .noSuchTable)
        #expect(try stock.send(GetRequest(table: "stock")).total == 3)
    }

    @Test func duplicateKeysAreRefused() throws {
        let stock = try Stock(key: true)
        try stock.send(AddRequest(table: "stock", row: ["item": "A-1"]))
        let duplicate = try stock.failure(AddRequest(table: "stock", row: ["item": "A-1"]))
        #expect(duplicate.kind == .alreadyExists)
        let rows = try stock.send(GetRequest(table: "stock", ids: ["A-1"])).rows
        #expect(rows.first?.id == "A-1")
    }

    @Test func editCommitsOrKeepsADraftAndRevertClearsIt() throws {
        let stock = try Stock()
        try stock.send(
            AddRequest(
                table: "stock",
                rows: [
                    ["item": "a", "received": "2024-01-01", "rack": "R1"], ["item": "b", "received": "2024-02-01"],
                ]
            )
        )
        let moved = try stock.send(EditRequest(table: "stock", id: 1, column: "received", value: "2024-03-01"))
        let cell = try #require(moved.cells.first)
        #expect(cell.index == 0)
        #expect(cell.display == "2024-03-01")
        let invalid = try stock.failure(EditRequest(table: "stock", id: 1, column: "received", value: "2024-02-30"))
        #expect(invalid.kind == .invalidValue)
        #expect(invalid.message == "2024-02-30 is not a day of the calendar.")
        let row = try #require(try stock.send(GetRequest(table: "stock", ids: [1])).rows.first)
        let draft = try #require(row.drafts?["received"])
        #expect(draft.text == "2024-02-30")
        #expect(draft.error == "2024-02-30 is not a day of the calendar.")
        #expect(row.values["received"] == "2024-03-01")
        #expect(row.readOnly == ["rack"])
        #expect(try stock.send(RevertRequest(table: "stock", id: 1)).cleared == 1)
        let readOnly = try stock.failure(EditRequest(table: "stock", id: 1, column: "rack", value: "R2"))
        #expect(readOnly.kind == .readOnly)
        #expect(readOnly.message == "This cell is read-only.")
        #expect(try stock.failure(EditRequest(table: "stock", id: 99, column: "qty", value: 1)).kind == .noSuchRow)
        #expect(
            try stock.failure(EditRequest(table: "stock", id: 1, column: "nope", value: 1)).kind == .noSuchColumn
        )
        #expect(try stock.failure(EditRequest(table: "stock", id: 1, column: "qty")).kind == .invalidParams)
        let batch = try stock.send(
            EditRequest(
                table: "stock",
                edits: [
                    EditRequest.Change(id: 1, column: "qty", value: 3),
                    EditRequest.Change(id: 2, column: "grade", value: "high"),
                ]
            )
        )
        #expect(batch.edited == 2)
        try stock.send(SelectRequest(table: "stock", action: .all))
        let bulk = try stock.send(EditRequest(table: "stock", column: "qty", value: "7", selection: true))
        #expect(bulk.edited == 2)
        let undone = try stock.send(UndoRequest(table: "stock"))
        #expect(undone.cells.count == 2)
        #expect(try stock.send(RedoRequest(table: "stock")).canRedo == false)
        #expect(try stock.failure(RedoRequest(table: "stock")).kind == .nothingToUndo)
    }

    @Test func selectSelectionAndDelete() throws {
        let stock = try Stock()
        try stock.send(
            AddRequest(
                table: "stock",
                rows: [
                    ["item": "a", "received": "2024-01-01"], ["item": "b", "received": "2024-02-01"],
                    ["item": "c", "received": "2024-03-01"],
                ]
            )
        )
        #expect(try stock.send(SelectRequest(table: "stock", ids: [1, 3])).count == 2)
        #expect(try stock.send(SelectionRequest(table: "stock")).ids == [3, 1])
        #expect(try stock.send(SelectRequest(table: "stock", action: .toggle, from: 0, count: 2)).count == 2)
        #expect(try stock.send(SelectionRequest(table: "stock")).ids == [2, 1])
        #expect(try stock.send(SelectRequest(table: "stock", mode: .single)).count == 1)
        #expect(try stock.failure(SelectRequest(table: "stock", action: .all)).kind == .invalidValue)
        #expect(
            try stock.client.failure(
                toLine: #"{"id":1,"method":"select","params":{"table":"stock","action":"flip","ids":[1]}}"#
            ).kind
                == .invalidValue
        )
        #expect(try stock.failure(SelectRequest(table: "stock", ids: [42])).kind == .noSuchRow)
        #expect(try stock.send(SelectRequest(table: "stock", action: .all, mode: .multiple)).count == 3)
        #expect(try stock.failure(DeleteRequest(table: "stock", ids: [1, 42])).kind == .noSuchRow)
        #expect(try stock.failure(DeleteRequest(table: "stock")).kind == .invalidParams)
        #expect(try stock.send(DeleteRequest(table: "stock", ids: [2])).rows == 2)
        let deleted = try stock.send(DeleteRequest(table: "stock", selection: true))
        #expect(deleted.deleted == 2)
        #expect(deleted.rows == 0)
    }

    @Test func sortAndGetByRange() throws {
        let stock = try Stock()
        try stock.send(
            AddRequest(
                table: "stock",
                rows: [["item": "b", "qty": 10], ["item": "A", "qty": 9], ["item": "c", "qty": 100]]
            )
        )
        try stock.send(SortRequest(table: "stock", keys: [SortKeyParam(column: "qty")]))
        func items(_ request: GetRequest) throws -> [String] {
            try stock.send(request).rows.map { $0.values["item"]?.stringValue ?? "?" }
        }
        #expect(try items(GetRequest(table: "stock")) == ["A", "b", "c"])
        try stock.send(SortRequest(table: "stock", keys: [SortKeyParam(column: "item", descending: true)]))
        #expect(try items(GetRequest(table: "stock", from: 1, count: 5)) == ["b", "A"])
        try stock.send(SortRequest(table: "stock"))
        #expect(try items(GetRequest(table: "stock")) == ["b", "A", "c"])
        #expect(
            try stock.failure(SortRequest(table: "stock", keys: [SortKeyParam(column: "nope")])).kind == .invalidValue
        )
        #expect(try stock.failure(GetRequest(table: "stock", count: 100000)).kind == .limitExceeded)
        #expect(try stock.failure(GetRequest(table: "stock", ids: ["x"])).kind == .noSuchRow)
    }

    @Test func loadAndExport() throws {
        let stock = try Stock()
        let file = stock.daemon.scratch.file("more.csv")
        try "item,qty,received\nx,1,2024-05-01\n\"y, z\",2,2024-05-02\n".write(
            toFile: file,
            atomically: true,
            encoding: .utf8
        )
        let loaded = try stock.send(LoadRequest(table: "stock", path: file))
        #expect(loaded.added == 2)
        #expect(loaded.created == false)
        let inferred = try stock.send(LoadRequest(table: "fresh", format: .ndjson, text: "{\"a\":1}\n{\"a\":2.5}\n"))
        #expect(inferred.columns.first?.type == .number)
        let bad = try stock.failure(LoadRequest(table: "stock", text: "item,qty\nok,1\nbad,x\n"))
        #expect(bad.kind == .invalidValue)
        #expect(bad.details["line"] == 3)
        #expect(try stock.send(GetRequest(table: "stock")).total == 2)
        #expect(try stock.failure(LoadRequest(table: "stock", path: "/nonexistent.csv")).kind == .invalidValue)
        // A load that would create a table and fails leaves no table behind.
        let duplicateKeys = try stock.failure(LoadRequest(table: "keyed", text: "k,v\nA,1\nA,2\n", key: "k"))
        #expect(duplicateKeys.kind == .invalidValue)
        #expect(try stock.failure(DescribeRequest(table: "keyed")).kind == .noSuchTable)
        #expect(
            try stock.client.failure(
                toLine: #"{"id":1,"method":"load","params":{"table":"stock","format":"xml","text":"a"}}"#
            ).kind
                == .invalidValue
        )
        let exported = try stock.send(ExportRequest(table: "stock"))
        #expect(exported.text == "item,rack,qty,received,grade\n\"y, z\",,2,2024-05-02,\nx,,1,2024-05-01,\n")
        try stock.send(SelectRequest(table: "stock", ids: [1]))
        let selected = try stock.send(ExportRequest(table: "stock", format: .ndjson, selection: true))
        #expect(selected.rows == 1)
    }

    @Test(.tags(.slow)) func aLargeLoadReportsProgressBeforeItsReply() throws {
        let daemon = try TestDaemon()
        let file = daemon.scratch.file("big.csv")
        var text = "n,label\n"
        for index in 0..<250_000 { text += "\(index),row \(index)\n" }
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let client = try daemon.connect()
        // Sent as a line, so that the progress notifications before the reply are read too.
        try client.send(try LineConnection.line(for: LoadRequest(table: "big", path: file), id: 77) + "\n")
        var progress: [LoadProgress] = []
        var line = try #require(try client.readLine())
        while !LineConnection.isReply(line) {
            let notification = try JSONDecoder().decode(Notification<LoadProgress>.self, from: Data(line.utf8))
            #expect(notification.method == "progress", "\(line)")
            progress.append(try #require(notification.params, "\(line)"))
            line = try #require(try client.readLine())
        }
        let reply = try JSONDecoder().decode(ReplyMessage.self, from: Data(line.utf8))
        #expect(reply.id == 77)
        let loaded = try decoded(LoadRequest.Response.self, from: try #require(reply.result, "\(line)"))
        #expect(loaded.added == 250_000)
        #expect(!progress.isEmpty)
        #expect(progress.allSatisfy { $0.request == 77 && $0.total == 250_000 })
        #expect(progress.last?.done == 250_000)
    }
}

/// The demo table `scripts/start` asks for.
@Suite struct DemoTableTests {
    @Test func theDemoFlagStartsWithTheStockSummary() throws {
        let daemon = try TestDaemon(arguments: ["--demo"])
        let tables = try daemon.connect().send(TablesRequest()).tables
        #expect(tables.first?.name == "stock")
        #expect(tables.first?.rows == 10)
        let plain = try TestDaemon()
        #expect(try daemon.connect().send(StatsRequest()).tables == 1)
        #expect(try plain.connect().send(StatsRequest()).tables == 0)
    }
}
