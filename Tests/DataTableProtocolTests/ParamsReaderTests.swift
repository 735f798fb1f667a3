import Foundation
import Testing

@testable import DataTableProtocol

/// The params reader reads what `JSONDecoder` reads, or leaves the params to it: every request
/// it reads must encode to the same JSON as the decoder's, and what it cannot read with
/// certainty it must not read at all.
@Suite struct ParamsReaderTests {
    /// The request types the reader knows.
    static let types: [any ReadableParams.Type] = [
        GetRequest.self, EditRequest.self, AddRequest.self, SelectRequest.self, ScrollRequest.self, UploadRequest.self,
    ]

    /// The JSON of `request`, keys sorted, for comparing.
    static func encoded(_ request: any Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(request)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the reader agrees with the decoder on `params` as `type`; `read` says whether
    /// the reader read it.
    static func agrees(_ params: String, as type: any ReadableParams.Type) -> (agrees: Bool, read: Bool) {
        let read = Array(params.utf8).withUnsafeBytes { type.read($0) }
        guard let read else { return (true, false) }
        guard let decoded = try? JSONDecoder().decode(type, from: Data(params.utf8)) else { return (false, true) }
        return (encoded(read) == encoded(decoded), true)
    }

    @Test(arguments: [
        #"{"table":"stock","ids":["A-1",7,-3],"columns":["qty"]}"#,
        #" { "table" : "stock" , "from" : 10 , "count" : 5 } "#,
        #"{"table":"stock","ids":null,"from":null}"#,
        #"{"table":"t\"q\\u","ids":["tab\there"]}"#,
        #"{"table":"stock","id":"A-1","column":"qty","value":12.5}"#,
        #"{"table":"stock","id":1,"column":"qty","value":null}"#,
        #"{"table":"stock","id":1,"column":"note","value":"x/y"}"#,
        #"{"table":"stock","edits":[{"id":1,"column":"qty","value":3},{"id":"b","column":"n"}]}"#,
        #"{"table":"stock","selection":true,"column":"qty","value":-7}"#,
        #"{"table":"stock","row":{"item":"Bolt","qty":40,"tags":[1,"a",true,null,{"k":0.25}]}}"#,
        #"{"table":"stock","rows":[{"item":"a"},{"item":"b","$readOnly":true}],"index":0}"#,
        #"{"table":"stock","action":"toggle","ids":["a","b"]}"#,
        #"{"table":"stock","from":3,"count":2,"action":"add"}"#,
        #"{"table":"stock","viewport":{"x":0,"y":1234.5,"width":200,"height":41},"unit":"cell"}"#,
        #"{"table":"stock","to":{"id":"A-7","align":"top"},"overscan":3,"follow":"bottom"}"#,
        #"{"table":"stock","action":"none","mode":"single"}"#,
        #"{"table":"stock","to":{"index":900000},"viewport":{"height":1e3}}"#,
    ])
    func readsWhatTheDecoderReads(params: String) {
        var readByAny = false
        for type in Self.types {
            let (agrees, read) = Self.agrees(params, as: type)
            #expect(agrees, "\(type) reads \(params) otherwise")
            readByAny = readByAny || read
        }
        #expect(readByAny, "no request type read \(params)")
    }

    /// Each of these the reader leaves to the decoder, for the request type named.
    @Test(arguments: [
        (#"{"table":"stock","colums":["qty"]}"#, "get"),  // an unknown member
        (#"{"table":"stock","table":"other"}"#, "get"),  // a member twice
        (#"{"table":"stock","from":2.0}"#, "get"),  // a whole number with a fraction
        (#"{"table":"stock","from":1e2}"#, "get"),
        (#"{"table":"stock","from":12345678901234567890}"#, "get"),
        (#"{"table":"stock","from":-0}"#, "get"),
        (#"{"table":"stock","ids":["caf\u00e9"]}"#, "get"),  // a \u escape
        (#"{"table":null}"#, "get"),
        (#"{"ids":[1]}"#, "get"),  // no table
        (#"{"table":7}"#, "get"),
        (#"{"table":"stock","count":"5"}"#, "get"),
        (#"{"table":"stock","edits":[{"id":null,"column":"qty","value":1}]}"#, "edit"),
        (#"{"table":"stock","row":{"a":1,"a":2}}"#, "add"),
        (#"{"table":"stock","font":{"family":"DejaVu Sans"}}"#, "scroll"),  // a layout member
        (#"{"table":"stock","viewport":{"y":1e400}}"#, "scroll"),
        (#"{"table":"stock","follow":"end"}"#, "scroll"),  // a name outside the set
        (#"{"table":"stock","unit":"inch"}"#, "scroll"),
        (#"{"table":"stock","to":{"index":1,"align":"middle"}}"#, "scroll"),
        (#"{"table":"stock","action":"flip","ids":[1]}"#, "select"),
        (#"{"table":"stock","mode":"some"}"#, "select"),
        (#"{"table":"stock","unit":7}"#, "scroll"),
        (#"{"table":"stock"} x"#, "get"),
        (#"{"table":"stock""#, "get"),
        (#"{"table":"stock",}"#, "get"),
        (#"{"table":"stock" "from":1}"#, "get"),
        (#"["table"]"#, "get"),
    ])
    func leavesTheRestToTheDecoder(params: String, method: String) throws {
        let type = try #require(Self.types.first { $0.method == method })
        #expect(Array(params.utf8).withUnsafeBytes { type.read($0) } == nil)
    }

    /// Random params built from the members the reader knows, with values of every kind and
    /// random damage: the reader never disagrees with the decoder.
    /// What a request type reads straight from bytes when all that is known of it is that it
    /// is a request (as the server's method table knows it).
    static func readAsRequest<Request: DataTableRequest>(_: Request.Type, _ json: String) -> Request? {
        Array(json.utf8).withUnsafeBytes { Request.readParams($0) }
    }

    @Test func requestTypesReadTheirParamsWithoutACastWhereTheReaderKnowsThem() {
        #expect(Self.readAsRequest(GetRequest.self, #"{"table":"t","ids":["a"]}"#)?.ids == [.string("a")])
        #expect(Self.readAsRequest(ScrollRequest.self, #"{"table":"t","viewport":{"y":3}}"#)?.viewport?.y == 3)
        #expect(Self.readAsRequest(PingRequest.self, "{}") != nil)
        // Methods the reader does not know are left to the decoder.
        #expect(Self.readAsRequest(SortRequest.self, #"{"table":"t","keys":[]}"#) == nil)
    }

    @Test func randomParamsAgree() {
        var generator = SystemRandomNumberGenerator()
        let names = [
            "table", "ids", "from", "count", "columns", "id", "column", "value", "edits", "selection", "row", "rows",
            "index", "action", "mode", "viewport", "to", "overscan", "follow", "unit", "x", "y", "width", "height",
            "text",
        ]
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 2 ? 8 : 11), using: &generator) {
            case 0: "null"
            case 1: Bool.random(using: &generator) ? "true" : "false"
            case 2: String(Int.random(in: -1000...1000, using: &generator))
            case 3:
                ["0.5", "-2.25", "1e2", "2.0", "-0", "1E-3", "123456789012345678901"].randomElement(using: &generator)!
            case 4, 5:
                "\"" + ["stock", "a\\\"b", "x\\ny", "caf\\u00e9", "", "A-1"].randomElement(using: &generator)! + "\""
            case 6: "\"" + names.randomElement(using: &generator)! + "\""
            case 7: "\"qty\""
            case 8:
                "["
                    + (0..<Int.random(in: 0...3, using: &generator)).map { _ in value(depth + 1) }.joined(
                        separator: ","
                    ) + "]"
            default: object(depth + 1)
            }
        }
        func object(_ depth: Int) -> String {
            let count = Int.random(in: 0...4, using: &generator)
            let members = (0..<count).map { _ in "\"\(names.randomElement(using: &generator)!)\":\(value(depth))" }
            return "{" + members.joined(separator: ",") + "}"
        }
        var readCount = 0
        for _ in 0..<20_000 {
            var params = Bool.random(using: &generator) ? #"{"table":"stock","# : "{"
            params += (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                "\"\(names.randomElement(using: &generator)!)\":\(value(0))"
            }.joined(separator: ",")
            params += "}"
            if Int.random(in: 0..<10, using: &generator) == 0, !params.isEmpty {
                // Damage: a byte dropped.
                var bytes = Array(params.utf8)
                bytes.remove(at: Int.random(in: 0..<bytes.count, using: &generator))
                params = String(decoding: bytes, as: UTF8.self)
            }
            params = params.replacingOccurrences(of: "{,", with: "{")
            for type in Self.types {
                let (agrees, read) = Self.agrees(params, as: type)
                #expect(agrees, "\(type) reads \(params) otherwise")
                if read { readCount += 1 }
            }
        }
        // The generator makes params the reader reads, not only ones it leaves alone.
        #expect(readCount > 200)
    }
}
