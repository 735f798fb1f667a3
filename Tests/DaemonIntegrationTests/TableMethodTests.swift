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
            let created = try call(
                "create",
                #"""
                {"table":"stock","columns":[
                  {"key":"item","label":"Item","required":true,"maxLength":20},
                  {"key":"rack","label":"Rack","editable":false},
                  {"key":"qty","label":"Qty","type":"number","min":0,"decimals":0},
                  {"key":"received","label":"Received","type":"date"},
                  {"key":"grade","type":"picker","options":["Low","Medium","High"]}],
                 "sort":[{"column":"received","descending":true}]\#(key ? #","key":"item""# : "")}
                """#
            )
            #expect(created["rows"] as? Int == 0)
        }

        /// The reply to `method` with `params`: its `result`, or the error object.
        @discardableResult
        func call(_ method: String, _ params: String = "{}") throws -> [String: Any] {
            let compact = params.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
            try client.send(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(compact)}"# + "\n")
            var reply = try object(try client.readLine())
            while reply["id"] == nil { reply = try object(try client.readLine()) }
            return reply["result"] as? [String: Any] ?? reply["error"] as! [String: Any]
        }

        /// The `data.kind` of an error reply to `method`.
        func failure(_ method: String, _ params: String) throws -> (
            kind: String?, message: String?, data: [String: Any]
        ) {
            let error = try call(method, params)
            let data = error["data"] as? [String: Any] ?? [:]
            return (data["kind"] as? String, error["message"] as? String, data)
        }
    }

    /// Formatted columns show their values in their style everywhere a person reads them
    /// (get, scroll, an edit's reply), take either form, and keep the plain forms in values,
    /// exports and across a restart (through a snapshot).
    @Test func formattedColumnsShowTheirStyleAndKeepPlainValues() throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path, "--compact-after-bytes", "1"]
        let scroll = #"{"table":"prices","unit":"cell","viewport":{"width":80,"height":5}}"#
        let shown = ["Lathe", "$1,234.50", "25%", "24.11.2026"]
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            try client.call(
                "create",
                #"""
                {"table":"prices","columns":[{"key":"item"},\#
                {"key":"price","type":"number","decimals":2,"format":{"grouping":true,"prefix":"$"}},\#
                {"key":"share","type":"number","format":{"percent":true}},\#
                {"key":"due","type":"date","format":{"locale":"de"}}],\#
                "rows":[{"item":"Lathe","price":12500,"share":"25%","due":"24.11.2026"}]}
                """#
            )
            let edited = try client.call("edit", #"{"table":"prices","id":1,"column":"price","value":"$1,234.50"}"#)
            let cell = try #require((edited["cells"] as? [[String: Any]])?.first)
            #expect(cell["display"] as? String == "$1,234.50" && cell["value"] as? Double == 1234.5)
            let row = try #require((try client.call("get", #"{"table":"prices"}"#)["rows"] as? [[String: Any]])?.first)
            #expect(
                row["values"] as? NSDictionary == [
                    "item": "Lathe", "price": 1234.5, "share": 0.25, "due": "2026-11-24",
                ]
            )
            #expect((ScrollMethodTests.rows(try client.call("scroll", scroll)).first?["cells"] as? [String]) == shown)
            let export = try client.call("export", #"{"table":"prices"}"#)
            #expect(export["text"] as? String == "item,price,share,due\nLathe,1234.50,0.25,2026-11-24\n")
        }
        let daemon = try TestDaemon(arguments: arguments)
        let client = try daemon.connect()
        let columns = try client.call("describe", #"{"table":"prices"}"#)["columns"] as? [[String: Any]]
        #expect(
            columns?.map { $0["format"] as? NSDictionary } == [
                nil, ["grouping": true, "prefix": "$"], ["percent": true], ["locale": "de-DE"],
            ]
        )
        #expect((ScrollMethodTests.rows(try client.call("scroll", scroll)).first?["cells"] as? [String]) == shown)
        // A value that is not a number says what the column's numbers look like.
        let refused = try client.call("edit", #"{"table":"prices","id":1,"column":"price","value":"lots"}"#)
        #expect(refused["message"] as? String == "Enter a number, like $1,234.50 or 42.")
        let bad = try client.call(
            "create",
            #"{"table":"bad","columns":[{"key":"d","type":"date","format":{"locale":"xx"}}]}"#
        )
        #expect((bad["data"] as? [String: Any])?["field"] as? String == "params.columns[0].format.locale")
    }

    @Test func createDescribeTablesAndDrop() throws {
        let stock = try Stock()
        let described = try stock.call("describe", #"{"table":"stock"}"#)
        let columns = try #require(described["columns"] as? [[String: Any]])
        #expect(columns.map { $0["key"] as? String } == ["item", "rack", "qty", "received", "grade"])
        #expect(columns[2]["min"] as? Int == 0)
        #expect(columns[4]["options"] as? [String] == ["Low", "Medium", "High"])
        #expect((described["sort"] as? [[String: Any]])?.first?["descending"] as? Bool == true)
        #expect(described["selection"] as? String == "multiple")
        let tables = try #require(try stock.call("tables")["tables"] as? [[String: Any]])
        #expect(tables.map { $0["name"] as? String } == ["stock"])
        #expect(try stock.failure("create", #"{"table":"stock","columns":[{"key":"a"}]}"#).kind == "already_exists")
        #expect(
            try stock.failure("create", #"{"table":"x","columns":[{"key":"a","type":"colour"}]}"#).kind
                == "invalid_value"
        )
        #expect(try stock.failure("create", #"{"table":"x","columns":[]}"#).kind == "invalid_value")
        // A sort key naming no column is named where create took it: params.sort[i].column.
        let badSort = try stock.failure("create", #"{"table":"x","columns":[{"key":"a"}],"sort":[{"column":"b"}]}"#)
        #expect(badSort.data["field"] as? String == "params.sort[0].column")
        #expect(
            try stock.failure("sort", #"{"table":"stock","keys":[{"column":"b"}]}"#).data["field"] as? String
                == "params.keys[0].column"
        )
        #expect(try stock.failure("create", #"{"table":"x"}"#).kind == "invalid_params")
        #expect(try stock.call("drop", #"{"table":"stock"}"#)["dropped"] as? Bool == true)
        #expect(try stock.failure("drop", #"{"table":"stock"}"#).kind == "no_such_table")
        #expect(try stock.failure("describe", #"{"table":"stock"}"#).kind == "no_such_table")
    }

    @Test func addPlacesRowsByTheSortAndRefusesBadBatchesWhole() throws {
        let stock = try Stock()
        try stock.call(
            "add",
            #"{"table":"stock","rows":[{"item":"old","received":"2024-01-01"},{"item":"mid","received":"2024-06-01"}]}"#
        )
        let added = try stock.call("add", #"{"table":"stock","row":{"item":"new","received":"2025-01-01"}}"#)
        let first = try #require((added["added"] as? [[String: Any]])?.first)
        #expect(first["index"] as? Int == 0)
        #expect(first["id"] as? Int == 3)
        #expect((first["addedAt"] as? String)?.hasSuffix("Z") == true)
        let bad = try stock.failure("add", #"{"table":"stock","rows":[{"item":"ok"},{"item":"x","qty":-1}]}"#)
        #expect(bad.kind == "invalid_value")
        #expect(bad.data["row"] as? Int == 1)
        #expect(bad.data["column"] as? String == "qty")
        #expect(bad.message == "Row 2, column qty: The value must be 0 or more.")
        #expect(
            try stock.failure("add", #"{"table":"stock","row":{"item":"x","colour":"red"}}"#).kind == "no_such_column"
        )
        #expect(try stock.failure("add", #"{"table":"stock","row":{"item":"x"},"index":0}"#).kind == "invalid_value")
        #expect(try stock.failure("add", #"{"table":"stock","row":{"item":true}}"#).kind == "invalid_value")
        #expect(try stock.failure("add", #"{"table":"stock"}"#).kind == "invalid_params")
        #expect(try stock.failure("add", #"{"table":"nope","row":{}}"#).kind == "no_such_table")
        #expect(try stock.call("get", #"{"table":"stock"}"#)["total"] as? Int == 3)
    }

    @Test func duplicateKeysAreRefused() throws {
        let stock = try Stock(key: true)
        try stock.call("add", #"{"table":"stock","row":{"item":"A-1"}}"#)
        let duplicate = try stock.failure("add", #"{"table":"stock","row":{"item":"A-1"}}"#)
        #expect(duplicate.kind == "already_exists")
        let rows = try #require(try stock.call("get", #"{"table":"stock","ids":["A-1"]}"#)["rows"] as? [[String: Any]])
        #expect(rows.first?["id"] as? String == "A-1")
    }

    @Test func editCommitsOrKeepsADraftAndRevertClearsIt() throws {
        let stock = try Stock()
        try stock.call(
            "add",
            #"{"table":"stock","rows":[{"item":"a","received":"2024-01-01","rack":"R1"},{"item":"b","received":"2024-02-01"}]}"#
        )
        let moved = try stock.call("edit", #"{"table":"stock","id":1,"column":"received","value":"2024-03-01"}"#)
        let cell = try #require((moved["cells"] as? [[String: Any]])?.first)
        #expect(cell["index"] as? Int == 0)
        #expect(cell["display"] as? String == "2024-03-01")
        let invalid = try stock.failure("edit", #"{"table":"stock","id":1,"column":"received","value":"2024-02-30"}"#)
        #expect(invalid.kind == "invalid_value")
        #expect(invalid.message == "2024-02-30 is not a day of the calendar.")
        let row = try #require(
            (try stock.call("get", #"{"table":"stock","ids":[1]}"#)["rows"] as? [[String: Any]])?.first
        )
        let draft = try #require((row["drafts"] as? [String: Any])?["received"] as? [String: Any])
        #expect(draft["text"] as? String == "2024-02-30")
        #expect(draft["error"] as? String == "2024-02-30 is not a day of the calendar.")
        #expect((row["values"] as? [String: Any])?["received"] as? String == "2024-03-01")
        #expect(row["readOnly"] as? [String] == ["rack"])
        #expect(try stock.call("revert", #"{"table":"stock","id":1}"#)["cleared"] as? Int == 1)
        let readOnly = try stock.failure("edit", #"{"table":"stock","id":1,"column":"rack","value":"R2"}"#)
        #expect(readOnly.kind == "read_only")
        #expect(readOnly.message == "This cell is read-only.")
        #expect(try stock.failure("edit", #"{"table":"stock","id":99,"column":"qty","value":1}"#).kind == "no_such_row")
        #expect(
            try stock.failure("edit", #"{"table":"stock","id":1,"column":"nope","value":1}"#).kind == "no_such_column"
        )
        #expect(try stock.failure("edit", #"{"table":"stock","id":1,"column":"qty"}"#).kind == "invalid_params")
        let batch = try stock.call(
            "edit",
            #"{"table":"stock","edits":[{"id":1,"column":"qty","value":3},{"id":2,"column":"grade","value":"high"}]}"#
        )
        #expect(batch["edited"] as? Int == 2)
        try stock.call("select", #"{"table":"stock","action":"all"}"#)
        let bulk = try stock.call("edit", #"{"table":"stock","selection":true,"column":"qty","value":"7"}"#)
        #expect(bulk["edited"] as? Int == 2)
        let undone = try stock.call("undo", #"{"table":"stock"}"#)
        #expect((undone["cells"] as? [[String: Any]])?.count == 2)
        #expect(try stock.call("redo", #"{"table":"stock"}"#)["canRedo"] as? Bool == false)
        #expect(try stock.failure("redo", #"{"table":"stock"}"#).kind == "nothing_to_undo")
    }

    @Test func selectSelectionAndDelete() throws {
        let stock = try Stock()
        try stock.call(
            "add",
            #"{"table":"stock","rows":[{"item":"a","received":"2024-01-01"},{"item":"b","received":"2024-02-01"},{"item":"c","received":"2024-03-01"}]}"#
        )
        #expect(try stock.call("select", #"{"table":"stock","ids":[1,3]}"#)["count"] as? Int == 2)
        #expect(try stock.call("selection", #"{"table":"stock"}"#)["ids"] as? [Int] == [3, 1])
        #expect(
            try stock.call("select", #"{"table":"stock","action":"toggle","from":0,"count":2}"#)["count"] as? Int == 2
        )
        #expect(try stock.call("selection", #"{"table":"stock"}"#)["ids"] as? [Int] == [2, 1])
        #expect(try stock.call("select", #"{"table":"stock","mode":"single"}"#)["count"] as? Int == 1)
        #expect(try stock.failure("select", #"{"table":"stock","action":"all"}"#).kind == "invalid_value")
        #expect(try stock.failure("select", #"{"table":"stock","action":"flip","ids":[1]}"#).kind == "invalid_value")
        #expect(try stock.failure("select", #"{"table":"stock","ids":[42]}"#).kind == "no_such_row")
        #expect(try stock.call("select", #"{"table":"stock","mode":"multiple","action":"all"}"#)["count"] as? Int == 3)
        #expect(try stock.failure("delete", #"{"table":"stock","ids":[1,42]}"#).kind == "no_such_row")
        #expect(try stock.failure("delete", #"{"table":"stock"}"#).kind == "invalid_params")
        #expect(try stock.call("delete", #"{"table":"stock","ids":[2]}"#)["rows"] as? Int == 2)
        let deleted = try stock.call("delete", #"{"table":"stock","selection":true}"#)
        #expect(deleted["deleted"] as? Int == 2)
        #expect(deleted["rows"] as? Int == 0)
    }

    @Test func sortAndGetByRange() throws {
        let stock = try Stock()
        try stock.call(
            "add",
            #"{"table":"stock","rows":[{"item":"b","qty":10},{"item":"A","qty":9},{"item":"c","qty":100}]}"#
        )
        try stock.call("sort", #"{"table":"stock","keys":[{"column":"qty"}]}"#)
        func items(_ params: String) throws -> [String] {
            let rows = try #require(try stock.call("get", params)["rows"] as? [[String: Any]])
            return rows.map { ($0["values"] as? [String: Any])?["item"] as? String ?? "?" }
        }
        #expect(try items(#"{"table":"stock"}"#) == ["A", "b", "c"])
        try stock.call("sort", #"{"table":"stock","keys":[{"column":"item","descending":true}]}"#)
        #expect(try items(#"{"table":"stock","from":1,"count":5}"#) == ["b", "A"])
        try stock.call("sort", #"{"table":"stock"}"#)
        #expect(try items(#"{"table":"stock"}"#) == ["b", "A", "c"])
        #expect(try stock.failure("sort", #"{"table":"stock","keys":[{"column":"nope"}]}"#).kind == "invalid_value")
        #expect(try stock.failure("get", #"{"table":"stock","count":100000}"#).kind == "limit_exceeded")
        #expect(try stock.failure("get", #"{"table":"stock","ids":["x"]}"#).kind == "no_such_row")
    }

    @Test func loadAndExport() throws {
        let stock = try Stock()
        let file = stock.daemon.scratch.file("more.csv")
        try "item,qty,received\nx,1,2024-05-01\n\"y, z\",2,2024-05-02\n".write(
            toFile: file,
            atomically: true,
            encoding: .utf8
        )
        let loaded = try stock.call("load", #"{"table":"stock","path":"\#(file)"}"#)
        #expect(loaded["added"] as? Int == 2)
        #expect(loaded["created"] as? Bool == false)
        let inferred = try stock.call("load", #"{"table":"fresh","format":"ndjson","text":"{\"a\":1}\n{\"a\":2.5}\n"}"#)
        #expect((inferred["columns"] as? [[String: Any]])?.first?["type"] as? String == "number")
        let bad = try stock.failure("load", #"{"table":"stock","text":"item,qty\nok,1\nbad,x\n"}"#)
        #expect(bad.kind == "invalid_value")
        #expect(bad.data["line"] as? Int == 3)
        #expect(try stock.call("get", #"{"table":"stock"}"#)["total"] as? Int == 2)
        #expect(try stock.failure("load", #"{"table":"stock","path":"/nonexistent.csv"}"#).kind == "invalid_value")
        // A load that would create a table and fails leaves no table behind.
        let duplicateKeys = try stock.failure("load", #"{"table":"keyed","key":"k","text":"k,v\nA,1\nA,2\n"}"#)
        #expect(duplicateKeys.kind == "invalid_value")
        #expect(try stock.failure("describe", #"{"table":"keyed"}"#).kind == "no_such_table")
        #expect(try stock.failure("load", #"{"table":"stock","text":"a","format":"xml"}"#).kind == "invalid_value")
        let exported = try stock.call("export", #"{"table":"stock"}"#)
        #expect(
            exported["text"] as? String == "item,rack,qty,received,grade\n\"y, z\",,2,2024-05-02,\nx,,1,2024-05-01,\n"
        )
        try stock.call("select", #"{"table":"stock","ids":[1]}"#)
        let selected = try stock.call("export", #"{"table":"stock","format":"ndjson","selection":true}"#)
        #expect(selected["rows"] as? Int == 1)
    }

    @Test func aLargeLoadReportsProgressBeforeItsReply() throws {
        let daemon = try TestDaemon()
        let file = daemon.scratch.file("big.csv")
        var text = "n,label\n"
        for index in 0..<250_000 { text += "\(index),row \(index)\n" }
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let client = try daemon.connect()
        try client.send(
            #"{"jsonrpc":"2.0","id":"big","method":"load","params":{"table":"big","path":"\#(file)"}}"# + "\n"
        )
        var progress: [[String: Any]] = []
        var reply = try object(try client.readLine())
        while reply["method"] as? String == "progress" {
            progress.append(try #require(reply["params"] as? [String: Any]))
            reply = try object(try client.readLine())
        }
        #expect((reply["result"] as? [String: Any])?["added"] as? Int == 250_000)
        #expect(!progress.isEmpty)
        #expect(progress.allSatisfy { $0["request"] as? String == "big" && $0["total"] as? Int == 250_000 })
        #expect(progress.last?["done"] as? Int == 250_000)
    }
}

/// The demo table `scripts/start` asks for.
@Suite struct DemoTableTests {
    @Test func theDemoFlagStartsWithTheStockSummary() throws {
        let daemon = try TestDaemon(arguments: ["--demo"])
        let tables = try #require(
            (try object(try daemon.request(#"{"method":"tables"}"#))["result"] as? [String: Any])?["tables"]
                as? [[String: Any]]
        )
        #expect(tables.first?["name"] as? String == "stock")
        #expect(tables.first?["rows"] as? Int == 10)
        let plain = try TestDaemon()
        #expect(try daemon.request(#"{"method":"stats"}"#).contains(#""tables":1"#))
        #expect(try plain.request(#"{"method":"stats"}"#).contains(#""tables":0"#))
    }
}
