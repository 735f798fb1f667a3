import Testing

@testable import DataTableEngine

/// CSV and NDJSON as people write them: quotes, commas and newlines in fields, a BOM, blank
/// lines, CRLF, and rows that do not fit.
@Suite struct LoaderTests {
    private func load(_ text: String, _ format: DataFormat = .csv, columns: [Column]? = nil) throws -> Table {
        let loaded = try TableLoader.parse(text, format: format, columns: columns)
        var table = try Table(name: "t", columns: loaded.columns)
        _ = try table.append(loaded)
        return table
    }

    private func problems(_ text: String, _ format: DataFormat = .csv, columns: [Column]? = nil) -> [CellProblem] {
        do {
            _ = try TableLoader.parse(text, format: format, columns: columns)
            return []
        } catch {
            guard case .invalidValues(let problems) = error else { return [] }
            return problems
        }
    }

    /// A JSON array of objects, as most programs export: columns in the first object's order
    /// then the keys later ones add, escapes decoded, numbers kept as written, and each bad
    /// element named by the line it starts on.
    @Test func aJSONArrayOfObjectsLoadsInTheOrderWritten() throws {
        let text = """
            [
              {"name": "Bolt \\u00e9\\ud83d\\ude00 \\"x\\"", "qty": 4, "id": 3992579991854942347},
              {"qty": 1.50, "name": "Nut", "id": 12, "note": "added"},
              {"name": null, "qty": -0.5e1, "id": 7}
            ]
            """
        let table = try load(text, .json)
        #expect(table.columns.map(\.key) == ["name", "qty", "id", "note"])
        #expect(table.column("name") == ["Bolt é😀 \"x\"", "Nut", ""])
        // 1.50 and -0.5e1 are not written as a number column would write them back.
        #expect(table.columns.map(\.type) == [.text, .text, .text, .text])
        #expect(table.column("id") == ["3992579991854942347", "12", "7"])
        // An empty array names no columns for a new table, and adds no rows to one that has them.
        #expect(throws: TableError.self) { try TableLoader.parse("[]\n", format: .json, columns: nil) }
        #expect(try load("[ ]", .json, columns: table.columns).rowCount == 0)

        let bad = problems("[\n{\"a\": 1},\n{\"a\": [1, 2]},\n5,\n{\"a\": tru},\n{\"a\": \"\\ud800\"}\n]", .json)
        #expect(bad.map(\.line) == [3, 4, 5, 6], "\(bad)")
        #expect(
            bad.map(\.message) == [
                "a is an array; give a string, a number or null.", "This element of the array is not a JSON object.",
                "This element of the array is not valid JSON.", "This element of the array is not valid JSON.",
            ]
        )
        #expect(
            problems("[{\"a\": 1}", .json).first?.message == "The array that starts the file is never closed with ]."
        )
        #expect(problems("[{\"a\": 1}] [", .json).first?.message.hasPrefix("Only one array") == true)
        #expect(problems("{\"a\": 1}", .json).first?.message.hasPrefix("A JSON file of rows is one array") == true)
        // Deeply nested values are refused, not followed.
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let nested = problems("[{\"a\": 1}, {\"a\": " + deep + "}]", .json)
        #expect(nested.first?.message == "This element of the array is not valid JSON.")
    }

    /// Dates in the common forms other than ISO's become date columns shown in their form, when
    /// every value has the same one; day first and month first are told apart by a day past 12,
    /// else by the load's locale, else the column stays text.
    @Test func commonDateFormsAreReadWhenEveryValueHasOne() throws {
        let text =
            "ymd,dots,dm,md,open,mixed,short\n"
            + "2012/01/31,31.01.2012,13/01/2024,01/13/2024,01/02/2024,2012/01/31,1/2/2024\n"
            + "2012/02/01,01.02.2012,02/03/2024,02/03/2024,03/04/2024,31.01.2012,3/4/2024\n"
        let loaded = try TableLoader.parse(text, format: .csv, columns: nil)
        #expect(loaded.columns.map(\.type) == [.date, .date, .date, .date, .text, .text, .text])
        #expect(
            loaded.dateForms == [
                "ymd": .yearMonthDaySlashes, "dots": .dayMonthYearDots, "dm": .dayMonthYearSlashes,
                "md": .monthDayYearSlashes,
            ]
        )
        var table = try Table(name: "t", columns: loaded.columns)
        _ = try table.append(loaded)
        #expect(table.column("ymd") == ["2012/01/31", "2012/02/01"])
        #expect(table.column("dm") == ["13/01/2024", "02/03/2024"])
        #expect(
            table.rows(from: 0, count: 1)[0].values[2] == .date(days: CivilDate.days(year: 2024, month: 1, day: 13)!)
        )
        #expect(
            table.rows(from: 0, count: 1)[0].values[3] == .date(days: CivilDate.days(year: 2024, month: 1, day: 13)!)
        )

        // 01/02/2024 either way: the locale says which.
        let british = try TableLoader.parse("open\n01/02/2024\n", format: .csv, columns: nil, locale: .enGB)
        #expect(british.dateForms == ["open": .dayMonthYearSlashes])
        let american = try TableLoader.parse("open\n01/02/2024\n", format: .csv, columns: nil, locale: .enUS)
        #expect(american.dateForms == ["open": .monthDayYearSlashes])

        // A value past the rows looked at in another form makes the column text again.
        let late = "d\n" + String(repeating: "2012/01/31\n", count: TableLoader.sampleSize + 5) + "2012-01-31\n"
        let demoted = try TableLoader.parse(late, format: .csv, columns: nil)
        #expect(demoted.columns.map(\.type) == [.text] && demoted.dateForms.isEmpty)
    }

    @Test func quotedFieldsKeepCommasQuotesAndNewlines() throws {
        let table = try load("name,note\n\"Smith, J\",\"said \"\"hi\"\"\"\nplain,\"two\nlines\"\n")
        #expect(table.column("name") == ["Smith, J", "plain"])
        #expect(table.column("note") == ["said \"hi\"", "two\nlines"])
    }

    @Test func aByteOrderMarkBlankLinesAndCRLFAreTolerated() throws {
        let table = try load("\u{FEFF}qty,when\r\n1,2024-01-02\r\n\r\n2.5,2024-02-03\r\n")
        #expect(table.columns.map(\.key) == ["qty", "when"])
        #expect(table.columns.map(\.type) == [.number, .date])
        #expect(table.column("qty") == ["1", "2.5"])
    }

    /// A carriage return on its own ends a line, as the parser reads it (old Mac text); one in
    /// a quoted field stays in the field.
    @Test func aCarriageReturnAloneEndsALine() throws {
        let table = try load("item,qty\rBolt,4\r\"Nut\rM8\",5\r")
        #expect(table.column("item") == ["Bolt", "Nut\rM8"])
        #expect(table.column("qty") == ["4", "5"])
        let found = problems("item,qty,received\nBolt,212-05-06\ry")
        #expect(found.map(\.line) == [2, 3])
    }

    @Test func typesAreInferredAndFallBackToText() throws {
        let table = try load("n,d,t,span,mixed\n1,2024-01-01,09:30,1h 30m,5\n2,2024-01-02,10:00,2h,x\n")
        #expect(table.columns.map(\.type) == [.number, .date, .time, .duration, .text])
        #expect(table.column("span") == ["1h 30m", "2h"])
        // A value a column of the type would write back otherwise keeps the column text: the
        // ISO duration, the one-digit hour, the zip code, the id longer than a double holds.
        let written = try load(
            "span,t,zip,id,n\nPT2H,9:30,09929,3992579991854942347,+5\n1h,10:00,10001,1,5\n"
        )
        #expect(written.columns.map(\.type) == [.text, .text, .text, .text, .text])
        #expect(written.column("zip") == ["09929", "10001"])
        #expect(written.column("id") == ["3992579991854942347", "1"])
    }

    @Test func aLateValueThatBreaksAnInferredTypeMakesTheColumnText() throws {
        var text = "code\n"
        for index in 0..<1500 { text += "\(index)\n" }
        text += "A-7\n"
        let table = try load(text)
        #expect(table.columns[0].type == .text)
        #expect(table.rowCount == 1501)
    }

    @Test func badRowsAreReportedByLineAndNothingLoads() throws {
        let columns = [
            Column(key: "item", rules: try ColumnRules(type: .text, required: true)),
            Column(key: "qty", rules: try ColumnRules(type: .number)),
        ]
        let found = problems("item,qty\na,1\n\"multi\nline\",2\nb,x\n,3\nc,4,extra\n", columns: columns)
        #expect(found.map(\.line) == [5, 6, 7])
        #expect(found[0].column == "qty" && found[0].input == "x")
        #expect(found[1].message == "A value is required.")
        #expect(found[2].message == "This row has 3 fields; the header has 2.")
    }

    @Test func anUnclosedQuoteIsReportedWhereItOpens() {
        let found = problems("a,b\n1,2\n3,\"open\n4,5\n")
        #expect(found.first?.line == 3)
    }

    @Test func aHeaderColumnTheTableLacksIsRefused() throws {
        let columns = [Column(key: "item", rules: try ColumnRules(type: .text))]
        #expect(throws: TableError.self) {
            try TableLoader.parse("item,colour\na,red\n", format: .csv, columns: columns)
        }
    }

    @Test func ndjsonLoadsObjectsAndReportsBadLines() throws {
        let table = try load(#"{"qty": 2, "item": "a"}"# + "\n\n" + #"{"item": "b", "qty": null}"# + "\n", .ndjson)
        // In the order the first object writes them.
        #expect(table.columns.map(\.key) == ["qty", "item"])
        #expect(table.column("qty") == ["2", ""])
        let found = problems(#"{"item": "a"}"# + "\n" + "not json\n" + #"{"item": true}"# + "\n", .ndjson)
        #expect(found.map(\.line) == [2, 3])
    }

    @Test func exportLoadsBackTheSame() throws {
        var table = try load("item,qty,when,span\n\"a, b\",1.5,2024-01-01,1h\nc,,2024-01-03,2h 5m\n")
        try table.select(.set, .ids([.number(2)]))
        let csv = table.export(.csv).text
        #expect(csv == "item,qty,when,span\n\"a, b\",1.5,2024-01-01,1h\nc,,2024-01-03,2h 5m\n")
        #expect(table.export(.csv, selectedOnly: true).rows == 1)
        let again = try load(csv)
        #expect(again.column("item") == table.column("item"))
        let ndjson = table.export(.ndjson).text
        #expect(ndjson.split(separator: "\n").first == #"{"item":"a, b","qty":1.5,"span":3600,"when":"2024-01-01"}"#)
    }
}
