import Foundation
import Testing

@testable import DataTableProtocol

/// Members that take one of a fixed set of names: each name reads and writes as itself, and a
/// name outside the set fails the decoding with an ``UnknownChoice`` that makes the member's
/// error.
@Suite struct WireChoiceTests {
    /// Every choice type and its names, in the order errors list them.
    static let names: [(any WireChoice.Type, [String])] = [
        (LengthUnit.self, ["pt", "cell"]),
        (SizeClass.self, ["compact", "regular"]),
        (RowAccessory.self, ["none", "checkbox", "syncStatus", "chevron"]),
        (ColumnAlignment.self, ["leading", "center", "trailing"]),
        (
            ColumnBinding.self,
            [
                "headline", "subheadline", "footnote", "status", "substatus", "statusImage", "substatusImage",
                "detailImage", "icon", "syncStatus", "drillDown",
            ]
        ),
        (
            ColumnValueType.self,
            ["text", "number", "date", "time", "duration", "picker", "image", "boolean", "datetime"]
        ),
        (FollowEdge.self, ["none", "top", "bottom"]),
        (TargetAlignment.self, ["top", "center", "bottom", "nearest"]),
        (SectionStyle.self, ["plain", "grouped", "insetGrouped"]),
        (RowSelectionMode.self, ["none", "single", "multiple"]),
        (SelectionAction.self, ["set", "add", "remove", "toggle", "all", "none"]),
        (DataFileFormat.self, ["csv", "ndjson", "json"]),
        (
            FilterOp.self,
            [
                "=", "≠", "<", "≤", ">", "≥", "between", "in", "contains", "startsWith", "matches", "empty", "notEmpty",
                "==",
                "!=", "<>", "<=", ">=",
            ]
        ),
    ]

    @Test func eachTypeHasItsNamesInOrder() {
        for (type, names) in Self.names {
            #expect(type.names == names, "\(type)")
        }
    }

    /// Each name decodes to a value that encodes as the same name.
    @Test func everyNameReadsAndWritesAsItself() throws {
        func roundTrip<Choice: WireChoice>(_: Choice.Type) throws {
            for name in Choice.names {
                let json = Data(try JSONEncoder().encode(name))
                let value = try JSONDecoder().decode(Choice.self, from: json)
                #expect(try JSONEncoder().encode(value) == json, "\(Choice.self) \(name)")
            }
        }
        for (type, _) in Self.names { try roundTrip(type) }
    }

    /// The error of `params` decoded as `Request` (params alone, as the server decodes them
    /// from the bytes the envelope scanner found).
    static func error<Request: Decodable>(_: Request.Type, _ params: String) -> ResponseError? {
        do {
            _ = try JSONDecoder().decode(Request.self, from: Data(params.utf8))
            return nil
        } catch let error as UnknownChoice {
            return error.responseError(within: "params")
        } catch {
            Issue.record("\(error)")
            return nil
        }
    }

    @Test func anUnknownNameIsRefusedAsTheMemberIs() throws {
        let unit = try #require(Self.error(LayoutRequest.self, #"{"table":"t","width":9,"unit":"inch"}"#))
        #expect(unit == .invalidParams("params.unit must be one of pt, cell.", field: "params.unit"))

        // A column definition's align is invalid_value; a layout's column hints' invalid_params.
        let create = try #require(
            Self.error(CreateRequest.self, #"{"table":"t","columns":[{"key":"a"},{"key":"b","align":"up"}]}"#)
        )
        #expect(
            create
                == .invalidValue(
                    "params.columns[1].align must be one of leading, center, trailing.",
                    field: "params.columns[1].align"
                )
        )
        let layout = try #require(
            Self.error(LayoutRequest.self, #"{"table":"t","width":9,"columns":{"2":{"align":"up"}}}"#)
        )
        #expect(
            layout
                == .invalidParams(
                    "params.columns.2.align must be one of leading, center, trailing.",
                    field: "params.columns.2.align"
                )
        )
        let state = try #require(
            Self.error(ColumnStateRequest.self, #"{"table":"t","name":"n","save":{"columns":{"a":{"align":"up"}}}}"#)
        )
        #expect(state.kind == .invalidValue)
        #expect(state.details["field"] == "params.save.columns.a.align")

        let op = try #require(Self.error(FilterRequest.self, #"{"table":"t","where":[{"column":"a","op":"~"}]}"#))
        #expect(
            op
                == .invalidValue(
                    #""~" is not a filter operator (=, ≠, <, ≤, >, ≥, between, in, contains, startsWith, matches, "#
                        + "empty, notEmpty).",
                    field: "params.where[0].op"
                )
        )
        let events = try #require(Self.error(SubscribeRequest.self, #"{"table":"t","events":["sort","x"]}"#))
        #expect(events.kind == .invalidParams)
        #expect(events.message.hasPrefix("events[1] must be one of added, edited,"))
        #expect(events.details["field"] == "params.events[1]")
    }

    /// Decoded with the whole request (the params under `params`), the field is the same.
    @Test func theFieldIsTheSameDecodedWithTheWholeRequest() throws {
        let line = #"{"method":"scroll","params":{"table":"t","to":{"index":1,"align":"up"}}}"#
        do {
            _ = try JSONDecoder().decode(RequestParams<ScrollRequest>.self, from: Data(line.utf8))
            Issue.record("decoded")
        } catch let error as UnknownChoice {
            #expect(
                error.responseError()
                    == .invalidParams(
                        "params.to.align must be one of top, center, bottom, nearest.",
                        field: "params.to.align"
                    )
            )
        }
    }

    /// A name that is not a string is refused as before: a type mismatch.
    @Test func aNameThatIsNotAStringIsATypeMismatch() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(LayoutRequest.self, from: Data(#"{"table":"t","width":9,"unit":7}"#.utf8))
        }
    }

    /// Names read as before: a format in any case, an operator in any of its spellings (kept).
    @Test func namesReadAsTheyAlwaysWere() throws {
        #expect(DataFileFormat(wireName: "NDJSON") == .ndjson)
        #expect(FilterOp(wireName: ">=")?.canonical == .greaterOrEqual)
        #expect(FilterOp(wireName: "<>")?.canonical == .notEqual)
        let condition = try JSONDecoder().decode(
            FilterConditionParam.self,
            from: Data(#"{"column":"a","op":"!=","value":1}"#.utf8)
        )
        #expect(String(decoding: try JSONEncoder().encode(condition.op), as: UTF8.self) == #""!=""#)
        #expect(FilterOp.operators.count == 13)
    }

    /// `help` describes a choice as a string and lists its names.
    @Test func helpListsTheNames() throws {
        let layout = ParamsSchema(of: LayoutRequest.self).params
        let unit = try #require(layout.first { $0.name == "unit" })
        #expect(unit.type == "string")
        #expect(unit.values == ["pt", "cell"])
        #expect(unit.required == false)
        // Members read after the choices are still there.
        #expect(layout.map(\.name).contains("zone"))
        #expect(layout.first { $0.name == "table" }?.values == nil)
        let select = ParamsSchema(of: SelectRequest.self).params
        #expect(select.first { $0.name == "mode" }?.values == ["none", "single", "multiple"])
        let scroll = ParamsSchema(of: ScrollRequest.self).params
        #expect(scroll.first { $0.name == "to" }?.type == "object (id, index, align, section)")
        #expect(scroll.first { $0.name == "follow" }?.values == ["none", "top", "bottom"])
    }
}
