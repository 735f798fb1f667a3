import DataTableEngine
import DataTableProtocol
import Foundation
import Testing

@testable import DataTableServer

/// A param whose value must be one of a fixed set of names, given a name outside it, is refused
/// with the same error it has always had: the same kind, the same sentence, the same field.
/// Every request is sent twice: with its params where the envelope scanner finds them (read
/// straight from their bytes where the request type can be), and with a `\u` escape in the
/// envelope, which sends the whole line to `JSONDecoder`.
@Suite struct UnknownChoiceTests {
    /// One unknown name: the request, and the error it must get.
    struct Case: Sendable, CustomTestStringConvertible {
        var method: String
        var params: String
        var kind: String
        var message: String
        var field: String

        var testDescription: String { "\(method) \(field)" }
    }

    static let bindings =
        "headline, subheadline, footnote, status, substatus, statusImage, substatusImage, detailImage, icon, "
        + "syncStatus, drillDown"
    static let types = "text, number, date, time, duration, picker, image, boolean, datetime"
    static let viewport = #""viewport":{"width":80,"height":10},"unit":"cell""#

    static let cases: [Case] = [
        Case(
            method: "layout",
            params: #"{"table":"t","width":300,"unit":"inch"}"#,
            kind: "invalid_params",
            message: "params.unit must be one of pt, cell.",
            field: "params.unit"
        ),
        Case(
            method: "layout",
            params: #"{"table":"t","width":300,"sizeClass":"huge"}"#,
            kind: "invalid_params",
            message: "params.sizeClass must be one of compact, regular.",
            field: "params.sizeClass"
        ),
        Case(
            method: "layout",
            params: #"{"table":"t","width":300,"leftAccessory":"star"}"#,
            kind: "invalid_params",
            message: "params.leftAccessory must be one of none, checkbox, syncStatus, chevron.",
            field: "params.leftAccessory"
        ),
        Case(
            method: "layout",
            params: #"{"table":"t","width":300,"rightAccessory":"arrow"}"#,
            kind: "invalid_params",
            message: "params.rightAccessory must be one of none, checkbox, syncStatus, chevron.",
            field: "params.rightAccessory"
        ),
        Case(
            method: "layout",
            params: #"{"table":"t","width":300,"columns":{"n":{"align":"middle"}}}"#,
            kind: "invalid_params",
            message: "params.columns.n.align must be one of leading, center, trailing.",
            field: "params.columns.n.align"
        ),
        Case(
            method: "layout",
            params: #"{"table":"t","width":300,"columns":{"n":{"binding":"title"}}}"#,
            kind: "invalid_params",
            message: "params.columns.n.binding must be one of \(bindings).",
            field: "params.columns.n.binding"
        ),
        Case(
            method: "scroll",
            params: #"{"table":"t","viewport":{"width":80,"height":10},"unit":"inch"}"#,
            kind: "invalid_params",
            message: "params.unit must be one of pt, cell.",
            field: "params.unit"
        ),
        Case(
            method: "scroll",
            params: #"{"table":"t",\#(viewport),"sizeClass":"huge"}"#,
            kind: "invalid_params",
            message: "params.sizeClass must be one of compact, regular.",
            field: "params.sizeClass"
        ),
        Case(
            method: "scroll",
            params: #"{"table":"t",\#(viewport),"columns":{"s":{"align":"middle"}}}"#,
            kind: "invalid_params",
            message: "params.columns.s.align must be one of leading, center, trailing.",
            field: "params.columns.s.align"
        ),
        Case(
            method: "scroll",
            params: #"{"table":"t",\#(viewport),"follow":"end"}"#,
            kind: "invalid_params",
            message: "params.follow must be one of none, top, bottom.",
            field: "params.follow"
        ),
        Case(
            method: "scroll",
            params: #"{"table":"t",\#(viewport),"to":{"index":0,"align":"middle"}}"#,
            kind: "invalid_params",
            message: "params.to.align must be one of top, center, bottom, nearest.",
            field: "params.to.align"
        ),
        Case(
            method: "scroll",
            params: #"{"table":"t",\#(viewport),"sections":{"column":"s","style":"fancy"}}"#,
            kind: "invalid_value",
            message: "params.sections.style must be one of plain, grouped, insetGrouped.",
            field: "params.sections.style"
        ),
        Case(
            method: "watch",
            params: #"{"table":"t",\#(viewport),"follow":"end"}"#,
            kind: "invalid_params",
            message: "params.follow must be one of none, top, bottom.",
            field: "params.follow"
        ),
        Case(
            method: "watch",
            params: #"{"table":"t","viewport":{"width":80,"height":10},"unit":"inch"}"#,
            kind: "invalid_params",
            message: "params.unit must be one of pt, cell.",
            field: "params.unit"
        ),
        Case(
            method: "watch",
            params: #"{"table":"t",\#(viewport),"sections":{"column":"s","style":"fancy"}}"#,
            kind: "invalid_value",
            message: "params.sections.style must be one of plain, grouped, insetGrouped.",
            field: "params.sections.style"
        ),
        Case(
            method: "create",
            params: #"{"table":"u","columns":[{"key":"a"},{"key":"b","type":"money"}]}"#,
            kind: "invalid_value",
            message: "params.columns[1].type must be one of \(types).",
            field: "params.columns[1].type"
        ),
        Case(
            method: "create",
            params: #"{"table":"u","columns":[{"key":"a","align":"middle"}]}"#,
            kind: "invalid_value",
            message: "params.columns[0].align must be one of leading, center, trailing.",
            field: "params.columns[0].align"
        ),
        Case(
            method: "create",
            params: #"{"table":"u","columns":[{"key":"a","binding":"title"}]}"#,
            kind: "invalid_value",
            message: "params.columns[0].binding must be one of \(bindings).",
            field: "params.columns[0].binding"
        ),
        Case(
            method: "create",
            params: #"{"table":"u","columns":[{"key":"a"}],"selection":"some"}"#,
            kind: "invalid_value",
            message: "params.selection must be none, single or multiple.",
            field: "params.selection"
        ),
        Case(
            method: "alter",
            params: #"{"table":"t","add":[{"key":"x","type":"money"}]}"#,
            kind: "invalid_value",
            message: "params.add[0].type must be one of \(types).",
            field: "params.add[0].type"
        ),
        Case(
            method: "alter",
            params: #"{"table":"t","change":[{"key":"n","align":"middle"}]}"#,
            kind: "invalid_value",
            message: "params.change[0].align must be one of leading, center, trailing.",
            field: "params.change[0].align"
        ),
        Case(
            method: "load",
            params: #"{"table":"u","text":"a\n1\n","columns":[{"key":"a","type":"money"}]}"#,
            kind: "invalid_value",
            message: "params.columns[0].type must be one of \(types).",
            field: "params.columns[0].type"
        ),
        Case(
            method: "load",
            params: #"{"table":"t","text":"n\n1\n","format":"xml"}"#,
            kind: "invalid_value",
            message: "format must be csv or ndjson.",
            field: "params.format"
        ),
        Case(
            method: "export",
            params: #"{"table":"t","format":"xml"}"#,
            kind: "invalid_value",
            message: "format must be csv or ndjson.",
            field: "params.format"
        ),
        Case(
            method: "select",
            params: #"{"table":"t","mode":"some"}"#,
            kind: "invalid_value",
            message: "params.mode must be none, single or multiple.",
            field: "params.mode"
        ),
        Case(
            method: "select",
            params: #"{"table":"t","action":"flip","ids":[1]}"#,
            kind: "invalid_value",
            message: "action must be set, add, remove, toggle, all or none.",
            field: "params.action"
        ),
        Case(
            method: "filter",
            params: #"{"table":"t","where":[{"column":"n","op":">","value":1},{"column":"n","op":"~","value":1}]}"#,
            kind: "invalid_value",
            message:
                #""~" is not a filter operator (=, ≠, <, ≤, >, ≥, between, in, contains, startsWith, matches, empty, notEmpty)."#,
            field: "params.where[1].op"
        ),
        Case(
            method: "columnState",
            params: #"{"table":"t","name":"mine","save":{"columns":{"n":{"align":"middle"}}}}"#,
            kind: "invalid_value",
            message: "params.save.columns.n.align must be one of leading, center, trailing.",
            field: "params.save.columns.n.align"
        ),
        Case(
            method: "subscribe",
            params: #"{"table":"t","events":["added","bogus"]}"#,
            kind: "invalid_params",
            message:
                "events[1] must be one of added, edited, deleted, selection, sort, drafts, schema, replaced, source.",
            field: "params.events[1]"
        ),
    ]

    /// A client with the table `t` (a number column `n`, a text column `s`, two rows).
    static func client() async throws -> InProcessClient {
        var client = InProcessClient()
        let created = try await client.reply(
            #"{"method":"create","params":{"table":"t","columns":[{"key":"n","type":"number"},{"key":"s"}],"#
                + #""rows":[{"n":1,"s":"a"},{"n":2,"s":"b"}]}}"#
        )
        #expect(created["result"] != nil, "\(created)")
        return client
    }

    @Test(arguments: cases)
    func anUnknownNameGetsTheErrorItAlwaysGot(_ test: Case) async throws {
        var client = try await Self.client()
        for line in [
            #"{"id":1,"method":"\#(test.method)","params":\#(test.params)}"#,
            #"{"id":1,"method":"\#(test.method)","note":"\u00e9","params":\#(test.params)}"#,
        ] {
            let reply = try await client.reply(line)
            let error = try #require(reply["error"], "\(line) got \(reply)")
            #expect(error["code"] == .integer(-32602))
            #expect(error["data"]?["kind"]?.stringValue == test.kind, "\(line)")
            #expect(error["message"]?.stringValue == test.message, "\(line)")
            #expect(error["data"]?["field"]?.stringValue == test.field, "\(line)")
        }
    }

    /// The sets the wire has of its own are the engine's where they name the same things: the
    /// filter operators (with their ASCII spellings besides) and the selection actions that
    /// name rows. (Every other set is one type the engine and the wire share.)
    @Test func theWiresOwnSetsAreTheEngines() {
        // The operators in their own spellings are the engine's; the ASCII ones are spellings of them.
        #expect(FilterOp.operators.map(\.rawValue) == FilterOperator.allCases.map(\.rawValue))
        for op in FilterOp.allCases {
            #expect(FilterOperator(op) == FilterOperator(spelt: op.rawValue), "\(op)")
        }
        // `select`'s actions that name rows are the engine's; `all` and `none` name none.
        #expect(
            SelectionAction.allCases.compactMap(SelectAction.init).map(\.rawValue)
                == SelectAction.allCases.map(\.rawValue)
        )
    }

    /// Names are matched as before: a data format in any case.
    @Test func aFormatIsReadInAnyCase() async throws {
        var client = try await Self.client()
        let reply = try await client.reply(#"{"id":1,"method":"export","params":{"table":"t","format":"NDJSON"}}"#)
        #expect(reply["result"]?["format"]?.stringValue == "ndjson", "\(reply)")
    }

    /// A filter's operator comes back as it was spelt.
    @Test func aFilterOperatorIsEchoedAsSpelt() async throws {
        var client = try await Self.client()
        let reply = try await client.reply(
            #"{"id":1,"method":"filter","params":{"table":"t","where":[{"column":"n","op":">=","value":2}]}}"#
        )
        #expect(reply["result"]?["where"]?.arrayValue?.first?["op"]?.stringValue == ">=", "\(reply)")
        #expect(reply["result"]?["shown"] == .integer(1), "\(reply)")
    }
}
