import DataTableProtocol
import Foundation
import Testing

/// Every value a cell can hold can be written back: exported and loaded again as itself, typed
/// again with `edit`; a value that could not be is refused on the way in, naming the column and
/// the range, and changes nothing (issue #36, case 7).
@Suite struct ValueRangeTests {
    static let columns = [
        ColumnDefinition(key: "id", type: .number), ColumnDefinition(key: "dt", type: .datetime),
        ColumnDefinition(key: "d", type: .date), ColumnDefinition(key: "n", type: .number),
        ColumnDefinition(key: "u", type: .duration), ColumnDefinition(key: "cents", type: .number, decimals: 2),
    ]

    /// The reported case: `{"dt":253402300800}` (10000-01-01T00:00:00Z as seconds since 1970)
    /// was stored, and its export then refused by `edit` and `load`. Now it is refused at once,
    /// by `add`, `edit`, `upsert` and `load` alike, and so is every instant past either end,
    /// however written.
    @Test func anInstantPastYear9999OrBeforeYear0IsRefusedEverywhere() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try client.send(CreateRequest(table: "t", columns: Self.columns, key: "id", rows: [["id": 1]]))
        let version = try client.send(DescribeRequest(table: "t")).version
        let range = "from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"
        // Each value as JSON text, as the ndjson load below takes it.
        for text in [
            "253402300800", "253402300800000", "-62167219201", #""10000-01-01T00:00:00Z""#,
            #""9999-12-31T23:59:59-05:00""#, #""0000-01-01T00:00:00+01:00""#, "1e300",
        ] {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            let requests: [any DataTableRequest] = [
                AddRequest(table: "t", row: ["id": 2, "dt": value]),
                AddRequest(table: "t", rows: [["id": 1, "dt": value]], upsert: true),
                LoadRequest(table: "t", format: .ndjson, text: #"{"id":3,"dt":\#(text)}"#),
            ]
            for request in requests {
                let method = type(of: request).method
                let error = try client.failure(request)
                #expect(error.kind == .invalidValue, "\(method) \(text): \(error)")
                #expect(error.details["column"] == "dt", "\(method) \(text): \(error)")
                #expect(error.message.contains(range), "\(method) \(text): \(error)")
            }
        }
        #expect(try client.send(DescribeRequest(table: "t")).version == version)
        // An edit keeps what was typed as the cell's draft, with the range as its error.
        let edit = try client.failure(EditRequest(table: "t", id: 1, column: "dt", value: 253_402_300_800))
        #expect(edit.message.contains(range), "\(edit)")
        let row = try #require(try client.send(GetRequest(table: "t", ids: [1])).rows.first)
        #expect(row.values["dt"] == JSONValue.null)
    }

    /// The edges of each range are stored, exported as CSV and as NDJSON, loaded back into new
    /// tables and exported again: the same text. A duration past 2^53 − 1 seconds is refused.
    @Test func theEdgesOfEachRangeRoundTripThroughExportAndLoad() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        // The rows go as JSON text: 12345678901234567890 is an integer past 64 bits and -0.0 a
        // negative zero, which a JSONValue does not keep as written.
        let rows = [
            #"{"id":1,"dt":-62167219200,"d":"0000-01-01","n":1.7976931348623157e308,"u":0,"cents":1e300}"#,
            #"{"id":2,"dt":253402300799.999,"d":"9999-12-31","n":-1.7976931348623157e308,"u":9007199254740991}"#,
            #"{"id":3,"dt":"9999-12-31T23:59:59.999Z","n":5e-324,"u":"PT1H30M","cents":-0.01}"#,
            #"{"id":4,"dt":"0000-01-01T00:00:00-01:00","n":12345678901234567890,"u":"1h 30m"}"#,
            #"{"id":5,"dt":1700000000,"n":-0.0,"cents":123456789.5}"#,
        ].joined(separator: ",")
        let columns = String(decoding: try JSONEncoder().encode(Self.columns), as: UTF8.self)
        let reply = try client.reply(
            toLine: #"""
                {"jsonrpc":"2.0","id":1,"method":"create","params":\#
                {"table":"t","key":"id","columns":\#(columns),"rows":[\#(rows)]}}
                """#
        )
        let created = try decoded(CreateRequest.Response.self, from: try #require(reply.result, "\(reply)"))
        #expect(created.rows == 5, "\(created)")
        for format in [DataFileFormat.csv, .ndjson] {
            let exported = try #require(try client.send(ExportRequest(table: "t", format: format)).text)
            let loaded = try client.send(
                LoadRequest(table: "back-\(format)", format: format, text: exported, columns: Self.columns, key: "id")
            )
            #expect(loaded.rows == 5, "\(format): \(loaded)")
            let again = try client.send(ExportRequest(table: "back-\(format)", format: format)).text
            #expect(again == exported, "\(format)")
        }
        // Each stored instant, typed back from its reply value, is the same instant.
        for row in try client.send(GetRequest(table: "t")).rows {
            guard let instant = row.values["dt"]?.stringValue else { continue }
            let id = try #require(row.values["id"])
            do {
                try client.send(EditRequest(table: "t", id: id, column: "dt", value: .string(instant)))
            } catch let error as ResponseError {
                Issue.record("\(instant): \(error)")
            }
        }
        let day = try client.failure(AddRequest(table: "t", row: ["id": 9, "d": "10000-01-01"]))
        #expect(day.details["column"] == "d", "\(day)")
        #expect(day.message.contains("from 0000-01-01 to 9999-12-31"), "\(day)")
        let longest = try client.failure(AddRequest(table: "t", row: ["id": 9, "u": 9_007_199_254_740_992]))
        #expect(longest.details["column"] == "u", "\(longest)")
        #expect(longest.message.contains("from 0 to 9007199254740991 seconds"), "\(longest)")
    }
}
