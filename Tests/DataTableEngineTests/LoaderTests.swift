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
        let table = try load("n,d,t,span,mixed\n1,2024-01-01,09:30,1h 30m,5\n2,2024-01-02,10:00,PT2H,x\n")
        #expect(table.columns.map(\.type) == [.number, .date, .time, .duration, .text])
        #expect(table.column("span") == ["1h 30m", "2h"])
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
        #expect(table.columns.map(\.key) == ["item", "qty"])
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
