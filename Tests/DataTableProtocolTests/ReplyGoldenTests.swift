import DataTableProtocol
import Foundation
import Testing

/// Every method's reply, pinned: a golden `result` per method of ``MethodRegistry/all``, taken
/// from a live daemon, that must decode as the method's `Response` type and encode back to
/// exactly the same bytes (keys sorted). A renamed, dropped or retyped member fails here.
@Suite struct ReplyGoldenTests {
    /// Method name → the JSON of a `result` it answers with.
    static let goldens: [(method: String, json: String)] = [
        (
            "ping",
            #"{"pong":true}"#
        ),
        (
            "hello",
            #"{"features":["batch","pipelining","shell-mode","notifications","views","events","strict-params","computed-columns"],"files":{"anyPath":true},"limits":{"maxBatchSize":10000,"maxConnections":1024,"maxConnectionsPerUid":256,"maxEventBytes":134217728,"maxLineBytes":1048576,"maxMemoryBytes":0,"maxMemoryPerUid":0,"maxOutputBytes":33554432,"maxReplyBytes":67108864,"maxRows":50000000,"maxTables":1000,"softOutputBytes":8388608,"softOutputSeconds":60},"protocol":1,"protocols":[1],"server":"datatabled","version":"0.1.0"}"#
        ),
        (
            "help",
            #"{"methods":[{"name":"ping","params":[],"summary":"Check that the daemon answers."}]}"#
        ),
        (
            "stats",
            #"{"connections":{"current":1,"refused":0,"total":1},"memory":{"residentBytes":33554432},"pid":4242,"requests":26,"rows":11,"tables":2,"uptimeSeconds":12.5,"version":"0.1.0"}"#
        ),
        (
            "create",
            #"{"rows":0,"table":"bins","version":1}"#
        ),
        (
            "drop",
            #"{"dropped":true,"rows":1,"table":"racks"}"#
        ),
        (
            "chmod",
            #"{"group":0,"mode":"0640","owner":0,"table":"bins","version":2}"#
        ),
        (
            "tables",
            #"{"tables":[{"columns":8,"errors":0,"group":0,"mode":"0666","name":"stock","owner":0,"rows":10,"selected":0,"version":3},{"columns":2,"errors":0,"group":0,"mode":"0640","name":"bins","owner":0,"rows":0,"selected":0,"version":2}]}"#
        ),
        (
            "describe",
            #"{"canRedo":false,"canUndo":false,"columns":[{"key":"bin","label":"bin","type":"text"},{"key":"qty","label":"qty","type":"number"}],"errors":0,"group":0,"key":"bin","mode":"0640","owner":0,"readOnly":false,"rows":0,"selected":0,"selection":"multiple","sort":[],"table":"bins","version":2}"#
        ),
        (
            "add",
            #"{"added":[{"addedAt":"2026-03-15T09:30:00.000Z","id":"A1","index":0},{"addedAt":"2026-03-15T09:30:00.000Z","id":"B2","index":1}],"rows":2,"table":"bins","version":3}"#
        ),
        (
            "edit",
            #"{"cells":[{"column":"qty","display":"9","id":"B2","index":0,"value":9}],"edited":1,"errors":0,"table":"bins","version":8}"#
        ),
        (
            "revert",
            #"{"cleared":1,"errors":0,"table":"bins","version":5}"#
        ),
        (
            "delete",
            #"{"deleted":1,"rows":1,"table":"bins","version":11}"#
        ),
        (
            "clear",
            #"{"deleted":1,"rows":0,"table":"bins","version":12}"#
        ),
        (
            "alter",
            #"{"altered":{"added":["rack"],"renamed":[["qty","count"]]},"columns":["bin","count","rack"],"table":"bins","version":13}"#
        ),
        (
            "get",
            #"{"errors":0,"rows":[{"display":{"bin":"A1","qty":"4"},"highlight":0.5,"id":"A1","index":0,"readOnly":["bin"],"selected":false,"values":{"bin":"A1","qty":4},"version":5}],"table":"bins","total":2,"version":5}"#
        ),
        (
            "select",
            #"{"count":1,"mode":"multiple","table":"bins","version":6}"#
        ),
        (
            "selection",
            #"{"count":1,"ids":["B2"],"mode":"multiple","table":"bins","version":6}"#
        ),
        (
            "copy",
            #"{"columns":["bin","qty"],"html":"<table><thead><tr><th>bin</th><th style=\"text-align:right\">qty</th></tr></thead><tbody><tr><td>B2</td><td style=\"text-align:right\">9</td></tr></tbody></table>","rows":1,"table":"bins","text":"bin  qty\nB2     9\n","tsv":"bin\tqty\nB2\t9\n","version":6}"#
        ),
        (
            "sort",
            #"{"keys":[{"column":"qty","descending":true}],"table":"bins","version":7}"#
        ),
        (
            "layout",
            #"{"accessibility":{"cell":"cell","header":"columnheader","readOnlyHint":"This cell is read-only","row":"row"},"accessories":{"left":{"kind":"checkbox","width":3,"x":0}},"columns":[{"align":"leading","header":["bin"],"key":"bin","lines":1,"omitted":false,"truncated":false,"width":23,"x":3},{"align":"trailing","header":["qty"],"key":"qty","lines":1,"omitted":false,"truncated":false,"width":3,"x":27}],"contentHeight":3,"contentWidth":30,"header":{"height":1,"lineHeight":1,"lines":1},"horizontalScroll":false,"mode":"table","rows":{"count":2,"height":1,"lineHeight":1,"twoLineCount":0,"twoLineHeight":2},"sizeClass":"regular","table":"bins","unit":"cell","version":7,"width":30}"#
        ),
        (
            "scroll",
            #"{"accessories":{"left":{"kind":"checkbox","width":3,"x":0}},"columns":[{"align":"leading","header":["bin"],"key":"bin","lines":1,"width":23,"x":3},{"align":"trailing","header":["qty"],"key":"qty","lines":1,"width":3,"x":27}],"contentHeight":3,"contentWidth":30,"errors":0,"first":0,"header":{"height":1,"shadow":false},"last":1,"mode":"table","newAbove":0,"rows":[{"cells":["B2","7"],"height":1,"highlight":0.5,"id":"B2","index":0,"readOnly":["bin"],"selected":true,"version":3,"y":1},{"cells":["A1","4"],"height":1,"highlight":0.5,"id":"A1","index":1,"readOnly":["bin"],"version":5,"y":2}],"selected":1,"table":"bins","total":2,"unit":"cell","version":7,"viewport":{"height":5,"width":30,"x":0,"y":0}}"#
        ),
        (
            "watch",
            #"{"delta":{"added":[{"cells":["C3","1"],"height":1,"id":"C3","index":2,"version":8,"y":3}],"changed":[{"cells":{"qty":"9"},"id":"B2","version":8}],"removed":["A1"],"seq":1,"set":{"total":3,"version":8},"version":8,"watch":1},"watch":1}"#
        ),
        (
            "unwatch",
            #"{"ended":true,"watch":1}"#
        ),
        (
            "filter",
            #"{"filter":"qty ≥ 5 · “b”","search":"b","shown":1,"table":"bins","total":2,"version":7,"where":[{"column":"qty","op":"≥","value":5}]}"#
        ),
        (
            "distinct",
            #"{"column":"qty","distinct":2,"rows":2,"table":"bins","values":[{"count":1,"text":"4","value":4},{"count":1,"text":"7","value":7}],"version":7}"#
        ),
        (
            "collapse",
            #"{"collapsed":1,"shown":12,"table":"bins"}"#
        ),
        (
            "expand",
            #"{"collapsed":0,"shown":20,"table":"bins"}"#
        ),
        (
            "columnState",
            #"{"names":["narrow"],"state":{"columnOrder":["qty"],"columns":{"bin":{"hidden":true}}},"table":"bins","version":8}"#
        ),
        (
            "subscribe",
            #"{"events":["added","edited","deleted","selection","sort","drafts","schema","replaced","source"],"subscribed":true,"table":"bins","version":7}"#
        ),
        (
            "unsubscribe",
            #"{"subscribed":true,"table":"bins"}"#
        ),
        (
            "upload",
            #"{"bytes":16,"table":"racks"}"#
        ),
        (
            "load",
            #"{"added":1,"columns":[{"key":"rack","label":"rack","type":"text"},{"key":"slots","label":"slots","type":"number"}],"created":true,"rows":1,"table":"racks","version":2}"#
        ),
        (
            "attach",
            #"{"columns":[{"key":"id","sourceType":"integer","type":"number"},{"key":"item","sourceType":"text","type":"text"},{"key":"qty","sourceType":"integer","type":"number"}],"key":"id","readOnly":false,"rows":3,"source":"pg","table":"stockparts","version":2}"#
        ),
        (
            "export",
            #"{"format":"csv","rows":1,"table":"racks","text":"rack,slots\nR1,4\n","version":2}"#
        ),
        (
            "undo",
            #"{"canRedo":true,"canUndo":false,"cells":[{"column":"qty","display":"7","id":"B2","index":0,"value":7}],"rows":2,"table":"bins","version":9}"#
        ),
        (
            "redo",
            #"{"canRedo":false,"canUndo":true,"cells":[],"removed":["C3"],"rows":2,"table":"bins","version":10}"#
        ),
    ]

    @Test func everyMethodHasAGoldenReply() {
        let pinned = Self.goldens.map(\.method)
        #expect(Set(pinned).count == pinned.count, "a method is pinned twice")
        #expect(pinned == MethodRegistry.all.map { $0.method })
    }

    @Test(arguments: goldens.map(\.method))
    func theReplyKeepsItsWireForm(method: String) throws {
        let json = try #require(Self.goldens.first { $0.method == method }?.json)
        let type = try #require(MethodRegistry.type(named: method))
        #expect(try Self.reencoded(json, as: type) == json)
    }

    /// `json` decoded as `Request.Response` and encoded again, keys sorted.
    private static func reencoded<Request: DataTableRequest>(_ json: String, as _: Request.Type) throws -> String {
        let decoded = try JSONDecoder().decode(Request.Response.self, from: Data(json.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(decoded), as: UTF8.self)
    }
}
