import Foundation
import Testing
import TextMeasure

/// The `datatable` subcommands against the real daemon: text output, `--json`, exit codes.
@Suite struct CommandLineTests {
    let daemon: TestDaemon

    init() throws { daemon = try TestDaemon(arguments: ["--demo"]) }

    /// Runs `datatable ARGUMENTS --socket …`: exit status and combined output.
    func datatable(_ arguments: String...) throws -> (status: Int32, output: String) {
        try run(BuiltProducts.client, arguments + ["--socket", daemon.socketPath])
    }

    @Test func serverCommandsPrintText() throws {
        #expect(try datatable("ping") == (0, "pong\n"))
        let tables = try datatable("tables")
        #expect(tables.status == 0)
        #expect(tables.output.contains("stock") && tables.output.contains("10"))
        let methods = try datatable("methods")
        #expect(methods.output.contains("scroll") && methods.output.contains("subscribe"))
        let stats = try datatable("stats")
        #expect(stats.output.contains("connections:"))
        let raw = try datatable("ping", "--json")
        #expect(try object(raw.output.trimmingCharacters(in: .newlines))["result"] != nil)
        // Where the socket is: what it was told, else the environment, else the default.
        #expect(try datatable("socket") == (0, daemon.socketPath + "\n"))
        let environment = try run(
            BuiltProducts.client,
            ["socket"],
            environment: ["DATATABLED_SOCKET": "/run/elsewhere.sock", "PATH": "/usr/bin:/bin"]
        )
        #expect(environment.output == "/run/elsewhere.sock\n")
    }

    /// `group`: a line per group with its rows and aggregates, a total line; a function the
    /// column cannot take exits 1 with the daemon's reason.
    @Test func groupPrintsEachGroupsAggregatesAndATotal() throws {
        let grouped = try datatable("group", "stock", "status", "--sum", "qty", "--max", "weight", "--count", "notes")
        #expect(grouped.status == 0)
        #expect(
            grouped.output.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") } == [
                "status rows sum(qty) max(weight) count(notes)", "------------ ---- -------- ----------- ------------",
                "In Stock 6 9883 22.75 3", "Low 2 15 18.50 2", "Reorder 1 3 4.20 1", "Discontinued 1 0 1.80 1",
                "total 10 9901 22.75 7",
            ],
            "\(grouped.output)"
        )
        // Nested: each status, its racks indented under it.
        let nested = try datatable("group", "stock", "status", "rack", "--sum", "qty")
        #expect(nested.status == 0)
        let nestedLines = nested.output.split(separator: "\n").map(String.init)
        #expect(nestedLines.first?.split(separator: " ").joined(separator: " ") == "status › rack rows sum(qty)")
        #expect(
            nestedLines.dropFirst(2).prefix(3).map { $0.split(separator: " ").joined(separator: " ") } == [
                "In Stock 6 9883", "A1 1 1250", "A2 1 8400",
            ]
        )
        #expect(nestedLines.contains { $0.hasPrefix("  B4 ") } && nestedLines.contains { $0.hasPrefix("Low ") })
        #expect(nestedLines.last?.split(separator: " ").joined(separator: " ") == "total 10 9901")
        let csv = try datatable("group", "stock", "status", "--count-distinct", "rack", "--csv")
        #expect(csv.output.hasPrefix("status,rows,countDistinct(rack)\nIn Stock,6,6\n"), "\(csv.output)")
        let values = try datatable("distinct", "stock", "status", "--by-count", "--limit", "2")
        #expect(
            values.output.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") } == [
                "status rows", "-------- ----", "In Stock 6", "Low 2", "2 of 4 values",
            ],
            "\(values.output)"
        )
        let refused = try datatable("group", "stock", "status", "--avg", "item")
        #expect(refused.status == 1)
        #expect(refused.output.contains("avg needs a number or duration column; item is text. (invalid_params)"))
    }

    /// A window drawn from the daemon's own cell layout: every column starts at the same
    /// terminal column on every line, East Asian and emoji text included.
    @Test func scrollDrawsAnAlignedWindow() throws {
        #expect(try datatable("add", "stock", "--row", "item=재고 현황 😀", "rack=K9", "received=2030-01-01").status == 0)
        let window = try datatable("scroll", "stock", "--width", "70", "--rows", "5")
        #expect(window.status == 0, "\(window.output)")
        let lines = window.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("Item") == true && lines.first?.contains("Rack") == true)
        #expect(lines[1].contains("재고 현황 😀"))
        #expect(lines.last == "rows 1–5 of 11")
        // Where "Rack"'s values start, in cells: the same on the header and on every row.
        let header = lines[0]
        let rackColumn = DisplayWidth.cells(header[..<header.range(of: "Rack")!.lowerBound])
        for (line, rack) in zip(lines[1...5], ["K9", "B2", "E2", "A2", "A1"]) {
            let start = try #require(line.range(of: rack), "\(line)")
            #expect(DisplayWidth.cells(line[..<start.lowerBound]) == rackColumn, "\(line)")
        }
        let deep = try datatable("scroll", "stock", "--width", "70", "--rows", "3", "--to", "8")
        #expect(deep.output.split(separator: "\n").last == "rows 9–11 of 11")
        // A view's own column state: rack left out, qty first.
        let arranged = try datatable(
            "scroll",
            "stock",
            "--width",
            "80",
            "--rows",
            "2",
            "--hide",
            "rack",
            "--first",
            "qty"
        )
        let arrangedHeader = String(arranged.output.split(separator: "\n").first ?? "")
        #expect(arrangedHeader.contains("Qty Item") && !arrangedHeader.contains("Rack"), "\(arrangedHeader)")
    }

    @Test func filterAndSearchShowOnlyTheRowsTheyLetThrough() throws {
        let filtered = try datatable(
            "filter",
            "stock",
            "qty>=10",
            "status=Low,In Stock",
            "--width",
            "70",
            "--rows",
            "3"
        )
        #expect(filtered.status == 0, "\(filtered.output)")
        let lines = filtered.output.split(separator: "\n").map(String.init)
        #expect(lines.last == "Qty ≥ 10 · Status is Low or In Stock: 6 of 10 rows")
        #expect(lines.dropLast().last == "rows 1–3 of 6 shown")
        #expect(lines[1].contains("Copper Pipe"))

        // Either of two conditions, one that must not hold, a regular expression.
        let grouped = try datatable("filter", "stock", "qty<10|status=Low", "!item~pipe", "item=~^[A-Z]", "--rows", "1")
        #expect(grouped.status == 0, "\(grouped.output)")
        #expect(
            grouped.output.split(separator: "\n").last
                == "Qty < 10 or Status is Low · not Item contains “pipe” · Item matches /^[A-Z]/: 4 of 10 rows",
            "\(grouped.output)"
        )

        let searched = try datatable("search", "stock", "VALVE", "--width", "70")
        #expect(searched.status == 0, "\(searched.output)")
        #expect(searched.output.contains("Safety Valve SV-12"))
        #expect(searched.output.hasSuffix("“VALVE”: 1 of 10 rows\n"))

        let ranged = try datatable("filter", "stock", "qty=5..60", "item~e", "--width", "70")
        #expect(ranged.output.contains("Qty 5–60 · Item contains “e”"), "\(ranged.output)")

        for bad in ["qty", "qty=1..", "qty>="] {
            let refused = try datatable("filter", "stock", bad)
            #expect(refused.status == 64, "\(bad): \(refused.output)")
        }
        let wrongType = try datatable("filter", "stock", "qty>=lots")
        #expect(wrongType.status == 1)
        #expect(wrongType.output.contains("Enter a number"))
    }

    /// `copy`: the selected rows as shown, tab-separated by default, or aligned text, or HTML;
    /// with `--column`, only those columns, in that order.
    @Test func copyPrintsTheSelectionAsShown() throws {
        #expect(try datatable("select", "stock", "2", "10").status == 0)
        let tsv = try datatable("copy", "stock", "--column", "qty", "--column", "item")
        #expect(tsv == (0, "Qty\tItem\n8400\tHex Bolt M8×40\n57\tTiming Belt T5-600\n"))
        let text = try datatable("copy", "stock", "--format", "text", "--column", "item", "--column", "qty")
        #expect(text == (0, "Item                 Qty\nHex Bolt M8×40      8400\nTiming Belt T5-600    57\n"))
        let html = try datatable("copy", "stock", "--format", "html", "--column", "item")
        #expect(html.output.hasPrefix("<table><thead><tr><th>Item</th></tr></thead><tbody><tr><td>Hex Bolt M8×40</td>"))
        let refused = try datatable("copy", "stock", "--column", "nope")
        #expect(refused.status == 1 && refused.output.contains("no_such_column"))
    }

    @Test func rowCommandsChangeTheTable() throws {
        let added = try datatable("add", "stock", "--row", "item=Gasket", "qty=4", "received=2030-02-02")
        #expect(added == (0, "added row 11 at index 0 (11 rows)\n"))
        #expect(try datatable("edit", "stock", "11", "qty", "12") == (0, "qty of row 11: 12\n"))
        #expect(try datatable("undo", "stock") == (0, "qty of row 11: 4\n"))
        #expect(try datatable("redo", "stock") == (0, "qty of row 11: 12\n"))
        let refused = try datatable("edit", "stock", "11", "qty", "lots")
        #expect(refused.status == 1)
        #expect(refused.output.hasPrefix("datatable: ") && refused.output.contains("(invalid_value)"))
        let rows = try datatable("get", "stock", "--count", "2")
        #expect(rows.output.contains("lots ⚠"))
        #expect(try datatable("revert", "stock").output == "cleared 1 draft (0 left)\n")
        #expect(try datatable("select", "stock", "11", "5").output == "2 selected (multiple)\n")
        #expect(try datatable("selection", "stock").output == "11\n5\n")
        #expect(try datatable("delete", "stock", "--selection").output == "deleted 2 rows (9 left)\n")
        // A sort direction that is neither asc nor desc is an error, not ascending.
        let sideways = try datatable("sort", "stock", "qty:sideways")
        #expect(sideways.status != 0 && sideways.output.contains("asc or desc"), "\(sideways.output)")
        #expect(try datatable("sort", "stock", "qty:desc").output == "sorted by qty descending\n")
        let sorted = try datatable("get", "stock", "--count", "1", "--column", "qty")
        #expect(sorted.output.contains("8400"))
    }

    @Test func tablesComeAndGoFromFiles() throws {
        let csv = daemon.scratch.file("parts.csv")
        try "sku,item,qty\nP-1,Bolt,4\nP-2,Nut,9\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let loaded = try datatable("load", csv, "--key", "sku")
        #expect(loaded == (0, "created parts; loaded 2 rows into parts (2 now)\n"))
        let described = try datatable("describe", "parts")
        #expect(described.output.contains("qty") && described.output.contains("number"))
        let exported = try datatable("export", "parts")
        #expect(exported.output == "sku,item,qty\nP-1,Bolt,4\nP-2,Nut,9\n")
        #expect(
            try datatable("create", "log", "--column", "day:date", "--column", "note", "--sort", "day:desc").status == 0
        )
        let upserted = try datatable("add", "parts", "--upsert", "--row", "sku=P-1", "item=Hex bolt", "qty=40")
        #expect(upserted == (0, "replaced row P-1 at index 0 (2 rows)\n"))
        #expect(try datatable("export", "parts").output == "sku,item,qty\nP-1,Hex bolt,40\nP-2,Nut,9\n")
        #expect(try datatable("clear", "parts") == (0, "cleared parts: 2 rows removed\n"))
        #expect(try datatable("drop", "parts") == (0, "dropped parts (0 rows)\n"))
        let layout = try datatable("layout", "stock", "--width", "80")
        #expect(layout.output.contains("omitted"))
    }

    /// A JSON file of one array of objects, as most programs export, loads with the columns in
    /// the order the first object writes them; it exports as such an array again.
    @Test func aJSONArrayLoadsInTheFirstObjectsOrder() throws {
        let file = daemon.scratch.file("cars.json")
        try """
        [
          {"Name": "chevrolet chevelle malibu", "Miles_per_Gallon": 18, "Cylinders": 8, "Year": "1970-01-01"},
          {"Name": "citroen ds-21 pallas", "Miles_per_Gallon": null, "Cylinders": 4, "Year": "1970-01-01",
           "Origin": "Europe", "Id": 3992579991854942347}
        ]
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let loaded = try datatable("load", file)
        #expect(loaded == (0, "created cars; loaded 2 rows into cars (2 now)\n"), "\(loaded.output)")
        let header = try datatable("get", "cars", "--csv").output.split(separator: "\n").first { $0.hasPrefix("id,") }
        #expect(header == "id,#,Name,Miles_per_Gallon,Cylinders,Year,Origin,Id", "\(String(describing: header))")
        // The id longer than a double holds is kept as written, as text.
        let exported = try datatable("export", "cars", "--format", "json").output
        #expect(exported.hasPrefix("[\n{") && exported.hasSuffix("}\n]\n"), "\(exported)")
        #expect(exported.contains(#""Id":"3992579991854942347""#), "\(exported)")
        let bad = daemon.scratch.file("bad.json")
        try "[{\"a\": 1},\n 5]".write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = try datatable("load", bad)
        #expect(refused.status == 1 && refused.output.contains("Line 2"), "\(refused.output)")
        #expect(refused.output.contains("not a JSON object"), "\(refused.output)")
    }

    /// A table changed from the command line: columns added and renamed, undone, refreshed from
    /// a file, kept to a limit, and a column arrangement saved by name.
    @Test func tablesChangeFromTheCommandLine() throws {
        let csv = daemon.scratch.file("shelf.csv")
        try "bin,qty\nA1,4\nB2,9\n".write(toFile: csv, atomically: true, encoding: .utf8)
        #expect(try datatable("load", csv, "--key", "bin").status == 0)
        let altered = try datatable("alter", "shelf", "--add", "zone", "--value", "zone=north", "--rename", "qty=count")
        #expect(altered == (0, "altered shelf: added zone; renamed qty → count\ncolumns: bin, count, zone\n"))
        #expect(try datatable("export", "shelf").output == "bin,count,zone\nA1,4,north\nB2,9,north\n")
        #expect(try datatable("undo", "shelf") == (0, "columns: dropped zone; renamed count → qty\n"))
        #expect(try datatable("delete", "shelf", "A1").status == 0)
        #expect(try datatable("undo", "shelf") == (0, "rows back: A1\n"))
        try "bin,qty\nB2,10\nC3,1\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let replaced = try datatable("load", csv, "--table", "shelf", "--replace")
        #expect(replaced == (0, "replaced the rows of shelf: 1 kept, 1 new, 1 gone (2 now)\n"))
        #expect(try datatable("alter", "shelf", "--limit", "1").output.contains("at most 1 rows"))
        #expect(try datatable("export", "shelf").output == "bin,qty\nC3,1\n")
        #expect(
            try datatable("column-state", "shelf", "narrow", "--hide", "qty").output
                == "narrow: hidden qty\nnarrow: first as the table\n"
        )
        #expect(try datatable("column-state", "shelf").output == "narrow\n")
        #expect(try datatable("drop", "shelf").status == 0)
    }

    @Test func failuresExitWithOneReadableLine() throws {
        let missing = try datatable("describe", "nope")
        #expect(missing.status == 1)
        #expect(missing.output.split(separator: "\n").count == 1)
        #expect(missing.output.contains("(no_such_table)"))
        let unreachable = try run(BuiltProducts.client, ["ping", "--socket", daemon.scratch.file("none.sock")])
        #expect(unreachable.status == 2)
        #expect(unreachable.output.hasPrefix("datatable: Cannot reach datatabled"))
    }
}

extension CommandLineTests {
    /// `datatable watch`: the window, then the window again each time another client changes
    /// what it shows; with `--json`, the watch's reply and then each delta, one per line.
    @Test func watchRedrawsTheWindowAsAnotherClientChangesIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for json in [false, true] {
            let output = scratch.file(json ? "watch.json" : "watch.txt")
            let watching = try RunningProcess(
                BuiltProducts.client,
                [
                    "watch", "stock", "--rows", "4", "--width", "60", "--count", "1", "--seconds", "20",
                    "--socket", daemon.socketPath,
                ] + (json ? ["--json"] : []),
                outputPath: output
            )
            #expect(watching.waitForOutput(containing: json ? #""watch":1"# : "rows 1–4 of"), "\(watching.output)")
            let value = json ? "4321" : "1234"
            #expect(try datatable("edit", "stock", "5", "qty", value).status == 0)
            #expect(watching.waitForExit() == 0, "\(watching.output)")
            let lines = watching.output.split(separator: "\n").map(String.init)
            if json {
                #expect(lines.count == 2, "\(lines)")
                let delta = try object(lines.last)
                #expect(delta["seq"] as? Int == 1)
                let changed = (delta["changed"] as? [[String: Any]])?.first
                #expect((changed?["cells"] as? [String: Any])?["qty"] as? String == value, "\(lines)")
            } else {
                // The first window, then the same rows with the new value.
                #expect(lines.filter { $0.hasPrefix("stock: ") }.count == 2, "\(watching.output)")
                #expect(lines.last { $0.contains("Servo Motor") }?.contains(value) == true, "\(watching.output)")
            }
        }
    }
}
