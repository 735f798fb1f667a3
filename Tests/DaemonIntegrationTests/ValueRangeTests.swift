import Foundation
import Testing

/// Every value a cell can hold can be written back: exported and loaded again as itself, typed
/// again with `edit`; a value that could not be is refused on the way in, naming the column and
/// the range, and changes nothing (issue #36, case 7).
@Suite struct ValueRangeTests {
    static let columns =
        #"[{"key":"id","type":"number"},{"key":"dt","type":"datetime"},{"key":"d","type":"date"},"#
        + #"{"key":"n","type":"number"},{"key":"u","type":"duration"},{"key":"cents","type":"number","decimals":2}]"#

    /// The reported case: `{"dt":253402300800}` (10000-01-01T00:00:00Z as seconds since 1970)
    /// was stored, and its export then refused by `edit` and `load`. Now it is refused at once,
    /// by `add`, `edit`, `upsert` and `load` alike, and so is every instant past either end,
    /// however written.
    @Test func anInstantPastYear9999OrBeforeYear0IsRefusedEverywhere() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try client.call("create", #"{"table":"t","key":"id","columns":\#(Self.columns),"rows":[{"id":1}]}"#)
        let version = try client.call("describe", #"{"table":"t"}"#)["version"] as? Int
        let range = "from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"
        for value in [
            "253402300800", "253402300800000", "-62167219201", #""10000-01-01T00:00:00Z""#,
            #""9999-12-31T23:59:59-05:00""#, #""0000-01-01T00:00:00+01:00""#, "1e300",
        ] {
            for (method, params) in [
                ("add", #"{"table":"t","row":{"id":2,"dt":\#(value)}}"#),
                ("add", #"{"table":"t","upsert":true,"rows":[{"id":1,"dt":\#(value)}]}"#),
                (
                    "load",
                    #"{"table":"t","format":"ndjson","text":"{\"id\":3,\"dt\":\#(value.replacingOccurrences(of: "\"", with: "\\\""))}"}"#
                ),
            ] {
                let error = try client.call(method, params)
                #expect(errorData(error)["kind"] as? String == "invalid_value", "\(method) \(value): \(error)")
                #expect(errorData(error)["column"] as? String == "dt", "\(method) \(value): \(error)")
                #expect((error["message"] as? String)?.contains(range) == true, "\(method) \(value): \(error)")
            }
        }
        #expect(try client.call("describe", #"{"table":"t"}"#)["version"] as? Int == version)
        // An edit keeps what was typed as the cell's draft, with the range as its error.
        let edit = try client.call("edit", #"{"table":"t","id":1,"column":"dt","value":253402300800}"#)
        #expect((edit["message"] as? String)?.contains(range) == true, "\(edit)")
        let got = try client.call("get", #"{"table":"t","ids":[1]}"#)
        let row = try #require((got["rows"] as? [[String: Any]])?.first)
        #expect((row["values"] as? [String: Any])?["dt"] is NSNull)
    }

    /// The edges of each range are stored, exported as CSV and as NDJSON, loaded back into new
    /// tables and exported again: the same text. A duration past 2^53 − 1 seconds is refused.
    @Test func theEdgesOfEachRangeRoundTripThroughExportAndLoad() throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        let rows = [
            #"{"id":1,"dt":-62167219200,"d":"0000-01-01","n":1.7976931348623157e308,"u":0,"cents":1e300}"#,
            #"{"id":2,"dt":253402300799.999,"d":"9999-12-31","n":-1.7976931348623157e308,"u":9007199254740991}"#,
            #"{"id":3,"dt":"9999-12-31T23:59:59.999Z","n":5e-324,"u":"PT1H30M","cents":-0.01}"#,
            #"{"id":4,"dt":"0000-01-01T00:00:00-01:00","n":12345678901234567890,"u":"1h 30m"}"#,
            #"{"id":5,"dt":1700000000,"n":-0.0,"cents":123456789.5}"#,
        ].joined(separator: ",")
        let created = try client.call(
            "create",
            #"{"table":"t","key":"id","columns":\#(Self.columns),"rows":[\#(rows)]}"#
        )
        #expect(created["rows"] as? Int == 5, "\(created)")
        for format in ["csv", "ndjson"] {
            let exported = try #require(
                try client.call("export", #"{"table":"t","format":"\#(format)"}"#)["text"] as? String
            )
            let text = String(decoding: try JSONEncoder().encode(exported), as: UTF8.self)
            let loaded = try client.call(
                "load",
                #"{"table":"back-\#(format)","format":"\#(format)","key":"id","columns":\#(Self.columns),"text":\#(text)}"#
            )
            #expect(loaded["rows"] as? Int == 5, "\(format): \(loaded)")
            let again =
                try client.call("export", #"{"table":"back-\#(format)","format":"\#(format)"}"#)["text"] as? String
            #expect(again == exported, "\(format)")
        }
        // Each stored instant, typed back from its reply value, is the same instant.
        let got = try client.call("get", #"{"table":"t"}"#)
        for row in try #require(got["rows"] as? [[String: Any]]) {
            let values = try #require(row["values"] as? [String: Any])
            guard let instant = values["dt"] as? String else { continue }
            let edited = try client.call(
                "edit",
                #"{"table":"t","id":\#(values["id"]!),"column":"dt","value":"\#(instant)"}"#
            )
            #expect(edited["version"] != nil, "\(instant): \(edited)")
        }
        let day = try client.call("add", #"{"table":"t","row":{"id":9,"d":"10000-01-01"}}"#)
        #expect(errorData(day)["column"] as? String == "d", "\(day)")
        #expect((day["message"] as? String)?.contains("from 0000-01-01 to 9999-12-31") == true, "\(day)")
        let longest = try client.call("add", #"{"table":"t","row":{"id":9,"u":9007199254740992}}"#)
        #expect(errorData(longest)["column"] as? String == "u", "\(longest)")
        #expect((longest["message"] as? String)?.contains("from 0 to 9007199254740991 seconds") == true, "\(longest)")
    }
}
