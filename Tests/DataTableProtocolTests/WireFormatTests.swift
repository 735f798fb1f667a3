import DataTableProtocol
import Foundation
import Testing

@Suite struct WireFormatTests {
    @Test(arguments: [
        (RequestID.integer(7), "7"),
        (RequestID.string("a-1"), "\"a-1\""),
        (RequestID.null, "null"),
        (RequestID.number(1.5), "1.5"),
    ])
    func requestIDsRoundTrip(id: RequestID, json: String) throws {
        try checkCoding(id, json: json)
    }

    @Test func aBooleanIsNotAnID() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(RequestID.self, from: Data("true".utf8))
        }
        #expect(RequestID(JSONValue.object([:])) == nil)
    }

    @Test func jsonValuesKeepWholeNumbersWhole() throws {
        try checkCoding(JSONValue.array([1, 2.5, "x", true, nil, ["k": 3]]), json: #"[1,2.5,"x",true,null,{"k":3}]"#)
    }

    @Test func errorsCarryTheirKindAndDetailsInData() throws {
        try checkCoding(
            ResponseError.limitExceeded("Too long.", limit: "maxLineBytes", value: 10),
            json:
                #"{"code":-32000,"data":{"kind":"limit_exceeded","limit":"maxLineBytes","max":10},"message":"Too long."}"#
        )
        try checkCoding(
            ResponseError.invalidParams("params.version must be a whole number.", field: "params.version"),
            json:
                #"{"code":-32602,"data":{"field":"params.version","kind":"invalid_params"},"message":"params.version must be a whole number."}"#
        )
    }

    @Test func anUploadAndTheLoadOfItHaveTheirWireForm() throws {
        try checkCoding(
            UploadRequest(table: "bins", text: "bin,qty\nA1,4\n"),
            json: #"{"table":"bins","text":"bin,qty\nA1,4\n"}"#
        )
        try checkCoding(UploadRequest.Response(table: "bins", bytes: 13), json: #"{"bytes":13,"table":"bins"}"#)
        let load = try JSONDecoder().decode(LoadRequest.self, from: Data(#"{"table":"bins","upload":true}"#.utf8))
        #expect(load.upload == true && load.path == nil && load.text == nil)
    }

    @Test func anUnknownErrorKindDecodesAsItself() throws {
        let json = #"{"code":-32042,"data":{"kind":"from_the_future","hint":1},"message":"New."}"#
        let error = try JSONDecoder().decode(ResponseError.self, from: Data(json.utf8))
        #expect(error.code == ErrorCode(rawValue: -32042))
        #expect(error.kind == ErrorKind(rawValue: "from_the_future"))
        #expect(error.details == ["hint": 1])
    }

    @Test func serverCodesStayInTheReservedRange() {
        let own: [ErrorCode] = [
            .limitExceeded, .noSuchTable, .noSuchRow, .readOnly, .conflict, .unavailable, .notPermitted,
            .permissionDenied,
        ]
        for code in own {
            #expect((-32099)...(-32000) ~= code.rawValue)
        }
        #expect(Set(own).count == own.count)
    }

    @Test func helloRepliesHaveAPinnedShape() throws {
        let reply = HelloRequest.Response(
            protocol: 1,
            protocols: [1],
            server: "datatabled",
            version: "0.1.0",
            limits: ServerLimits(
                maxLineBytes: 100,
                maxConnections: 2,
                maxBatchSize: 3,
                maxOutputBytes: 4,
                maxTables: 5,
                maxRows: 6,
                softOutputBytes: 7,
                softOutputSeconds: 8,
                maxMemoryBytes: 9,
                maxConnectionsPerUid: 10,
                maxMemoryPerUid: 11,
                maxReplyBytes: 12,
                maxEventBytes: 13
            ),
            features: ["batch"],
            files: .init(anyPath: false, importDir: "/srv/in")
        )
        try checkCoding(
            reply,
            json:
                #"{"features":["batch"],"files":{"anyPath":false,"importDir":"/srv/in"},"limits":{"maxBatchSize":3,"maxConnections":2,"maxConnectionsPerUid":10,"maxEventBytes":13,"maxLineBytes":100,"maxMemoryBytes":9,"maxMemoryPerUid":11,"maxOutputBytes":4,"maxReplyBytes":12,"maxRows":6,"maxTables":5,"softOutputBytes":7,"softOutputSeconds":8},"protocol":1,"protocols":[1],"server":"datatabled","version":"0.1.0"}"#
        )
    }

    @Test func requestsEncodeAsJSONRPC() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let line = String(
            decoding: try encoder.encode(RequestMessage(id: 3, params: HelloRequest(version: 1))),
            as: UTF8.self
        )
        #expect(line == #"{"id":3,"jsonrpc":"2.0","method":"hello","params":{"version":1}}"#)
    }

    @Test func absentParamsReadAsAnEmptyObject() throws {
        let line = Data(#"{"method":"help"}"#.utf8)
        let params = try JSONDecoder().decode(RequestParams<HelpRequest>.self, from: line).params
        #expect(params.method == nil)
        let nullParams = Data(#"{"method":"help","params":null}"#.utf8)
        #expect(try JSONDecoder().decode(RequestParams<HelpRequest>.self, from: nullParams).params.method == nil)
    }

    @Test func anEditTellsAnAbsentValueFromANullOne() throws {
        func decode(_ params: String) throws -> EditRequest {
            try JSONDecoder().decode(
                RequestParams<EditRequest>.self,
                from: Data(#"{"method":"edit","params":\#(params)}"#.utf8)
            ).params
        }
        // JSONValue is ExpressibleByNilLiteral, so compare with Optional's own none.
        #expect(try decode(#"{"table":"t","id":1,"column":"qty"}"#).value == JSONValue?.none)
        #expect(try decode(#"{"table":"t","id":1,"column":"qty","value":null}"#).value == .null)
        #expect(try decode(#"{"table":"t","edits":[{"id":1,"column":"qty"}]}"#).edits?.first?.value == .null)
    }

    @Test func theHeaderTellsAnAbsentIDFromANullOne() throws {
        let absent = try JSONDecoder().decode(RequestHeader.self, from: Data(#"{"method":"ping"}"#.utf8))
        #expect(!absent.hasID)
        let null = try JSONDecoder().decode(RequestHeader.self, from: Data(#"{"id":null,"method":"ping"}"#.utf8))
        #expect(null.hasID)
        #expect(null.id == .null)
    }

    /// Members that do not go together are refused by the request itself, naming the field.
    @Test func requestsRefuseMembersThatDoNotGoTogether() {
        func field(_ request: some DataTableRequest) -> String? {
            do {
                try request.validate()
                return nil
            } catch {
                return error.details["field"]?.stringValue
            }
        }
        #expect(field(AddRequest(table: "t")) == "params.row")
        #expect(field(AddRequest(table: "t", row: .object([:]), rows: [])) == "params.rows")
        #expect(field(AddRequest(table: "t", rows: [.object([:])])) == nil)
        #expect(field(DeleteRequest(table: "t")) == "params.ids")
        #expect(field(DeleteRequest(table: "t", ids: [1], selection: true)) == "params.ids")
        #expect(field(DeleteRequest(table: "t", selection: true)) == nil)
        #expect(field(LoadRequest(table: "t")) == "params.path")
        #expect(field(LoadRequest(table: "t", path: "/x", text: "a")) == "params.path")
        #expect(field(LoadRequest(table: "t", upload: true)) == nil)
        #expect(field(ExportRequest(table: "t", path: "/x", stream: true)) == "params.stream")
        #expect(field(ExportRequest(table: "t", stream: true)) == nil)
        #expect(field(ChmodRequest(table: "t")) == "params.mode")
        #expect(field(ChmodRequest(table: "t", group: 5)) == nil)
        let one = EditRequest.Change(id: 1, column: "qty", value: 2)
        #expect(field(EditRequest(table: "t", id: 1, edits: [one])) == "params.edits")
        #expect(field(EditRequest(table: "t", edits: [one], selection: true)) == "params.edits")
        #expect(field(EditRequest(table: "t", edits: [one])) == nil)
        #expect(field(EditRequest(table: "t", column: "qty", edits: [one])) == "params.edits")
        #expect(field(GetRequest(table: "t", ids: [1], count: 5)) == "params.from")
        #expect(field(GetRequest(table: "t", ids: [1], from: 0)) == "params.from")
        #expect(field(GetRequest(table: "t", ids: [1])) == nil)
        #expect(field(GetRequest(table: "t", from: 3, count: 5)) == nil)
        #expect(field(EditRequest(table: "t", id: 1, value: 2)) == "params.column")
        #expect(field(EditRequest(table: "t", id: 1, column: "qty")) == "params.value")
        #expect(field(EditRequest(table: "t", id: 1, column: "qty", value: nil)) == "params.value")
        #expect(field(EditRequest(table: "t", id: 1, column: "qty", value: .null)) == nil)
        #expect(field(EditRequest(table: "t", column: "qty", value: 2)) == "params.id")
        #expect(field(EditRequest(table: "t", id: 1, column: "qty", value: 2, selection: true)) == "params.id")
        #expect(field(EditRequest(table: "t", column: "qty", value: 2, selection: true)) == nil)
        #expect(field(SelectRequest(table: "t", action: .add)) == "params.ids")
        #expect(field(SelectRequest(table: "t", ids: [1], from: 0)) == "params.from")
        #expect(field(SelectRequest(table: "t", from: 3, count: 2)) == nil)
        #expect(field(SelectRequest(table: "t", action: .all)) == nil)
        #expect(field(SelectRequest(table: "t", mode: .single)) == nil)
    }

    @Test func everyMethodIsRegisteredOnceWithASummary() {
        let names = MethodRegistry.all.map { $0.method }
        #expect(Set(names).count == names.count)
        #expect(
            names == [
                "ping", "hello", "help", "stats", "create", "drop", "chmod", "tables", "describe", "add", "edit",
                "revert",
                "delete", "clear", "alter", "get", "select", "selection", "copy", "sort", "layout", "scroll", "watch",
                "unwatch", "filter", "distinct", "collapse", "expand",
                "columnState", "subscribe",
                "unsubscribe",
                "upload",
                "load", "attach", "export", "undo", "redo",
            ]
        )
        for method in MethodRegistry.all {
            #expect(!method.summary.isEmpty)
            #expect(MethodRegistry.type(named: method.method) != nil)
        }
    }

    @Test(arguments: [
        (["DATATABLED_SOCKET": "/x/y.sock", "XDG_RUNTIME_DIR": "/run/user/5"], UInt32(5), "/x/y.sock"),
        (["XDG_RUNTIME_DIR": "/run/user/5"], UInt32(5), "/run/user/5/datatabled.sock"),
        ([:], UInt32(0), "/run/datatabled/datatabled.sock"),
        ([:], UInt32(1000), "/tmp/datatabled-1000/datatabled.sock"),
        (["XDG_RUNTIME_DIR": "relative"], UInt32(1000), "/tmp/datatabled-1000/datatabled.sock"),
    ])
    func theDefaultSocketPathFollowsTheEnvironment(environment: [String: String], uid: UInt32, expected: String) {
        #expect(SocketLocation.defaultPath(environment: environment, uid: uid) == expected)
    }
}

/// Each JSON kind decodes as its own JSONValue case, whatever order the cases are tried in.
@Test(
    arguments: [
        ("null", JSONValue.null), ("true", .bool(true)), ("false", .bool(false)), ("7", .integer(7)),
        ("-12", .integer(-12)), ("7.5", .number(7.5)), (#""7""#, .string("7")), (#""true""#, .string("true")),
        ("[1,\"a\",null]", .array([.integer(1), .string("a"), .null])), (#"{"a":false}"#, .object(["a": .bool(false)])),
    ] as [(String, JSONValue)]
)
func jsonValuesKeepTheirKind(json: String, expected: JSONValue) throws {
    #expect(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) == expected)
}

/// `help METHOD` says what each param means, from the doc comment on its member.
@Suite struct ParamMeaningTests {
    @Test func everyParamOfEveryMethodHasAMeaning() {
        func missing<Request: DataTableRequest>(_ type: Request.Type) -> [String] {
            ParamsSchema(ofMethod: type).params.filter { ($0.meaning ?? "").isEmpty }.map {
                "\(type.method).\($0.name)"
            }
        }
        let without = MethodRegistry.all.flatMap { missing($0) }
        #expect(without.isEmpty, "params without a meaning: \(without)")
        let scroll = ParamsSchema(ofMethod: ScrollRequest.self).params.first { $0.name == "overscan" }
        #expect(scroll?.meaning == "Rows to add above and below the visible ones (default 0).")
    }
}
