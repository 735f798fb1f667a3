import DataTableEngine
import DataTableProtocol
import Foundation
import Testing

@testable import DataTableServer

/// Replies that write their own JSON write exactly what `JSONEncoder` would (keys sorted,
/// slashes unescaped).
@Suite struct DirectJSONTests {
    static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func written(_ value: some DirectJSON) -> String {
        var writer = JSONWriter()
        value.write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// A table whose windows hold every part a scroll reply can have: escapes and non-ASCII
    /// text, a two-line cell, a read-only key, selected rows, a just-added row, drafts.
    static func scrolledTable() throws -> Table {
        var table = try Table(
            name: "stock \"main\"/2",
            columns: [
                Column(key: "item", rules: try ColumnRules(type: .text), layout: ColumnLayout(sticky: true)),
                Column(key: "sku", rules: try ColumnRules(type: .text)),
                Column(key: "qty", rules: try ColumnRules(type: .number)),
                Column(key: "notes", rules: try ColumnRules(type: .text), layout: ColumnLayout(lines: 2)),
                Column(key: "received", rules: try ColumnRules(type: .date)),
                Column(key: "lead", rules: try ColumnRules(type: .duration)),
            ],
            key: "sku"
        )
        let texts = ["Tab\there, quote \" and back\\slash", "line one\nline two ✓ 재고 😀 \u{1}", "plain", ""]
        _ = try table.add(
            (0..<30).map { number in
                RowInput(values: [
                    "sku": .text("S-\(number)"), "item": .text(texts[number % texts.count]),
                    "qty": .number(Double(number) * 1.25), "notes": .text(String(repeating: "word ", count: number)),
                    "received": .text("2024-03-\(10 + number % 19)"), "lead": .number(Double(number * 3671)),
                ])
            },
            now: 0
        )
        // Sorted, so columns carry their sort state (the key column its read-only one).
        try table.sort(by: [SortKey(column: "item", descending: true)])
        _ = try table.add([RowInput(values: ["sku": .text("new"), "item": .text("fresh")])], now: 100)
        try table.select(.set, .ids([.text("S-2"), .text("S-4")]))
        // Rejected values stay as drafts.
        _ = try? table.edit([
            CellEdit(id: .text("S-2"), column: "qty", input: .text("lots")),
            CellEdit(id: .text("S-2"), column: "received", input: .text("soon")),
        ])
        return table
    }

    @Test(arguments: [
        (width: 60, compact: false, sideways: false, y: 0, values: false),
        (width: 60, compact: false, sideways: true, y: 7, values: true),
        (width: 30, compact: true, sideways: false, y: 5, values: true),
        (width: 60, compact: false, sideways: false, y: 1_000, values: false),
    ])
    func aScrollReplyWritesWhatTheEncoderWould(width: Int, compact: Bool, sideways: Bool, y: Int, values: Bool) throws {
        var table = try Self.scrolledTable()
        var options = LayoutOptions(unit: .cell, width: width, data: .cells, header: .cells)
        options.sizeClass = compact ? .compact : .regular
        options.horizontalScroll = sideways
        var view = ViewState()
        var input = ScrollInput(height: 12, x: sideways ? 9 : nil, y: y, now: 100.5)
        input.values = values
        let window = try table.scroll(options, input, view: &view)
        let reply = ScrollReply(window, table: table)
        #expect(Self.written(reply) == (try Self.encoded(reply.response)))
        #expect(Self.written(reply) == (try Self.encoded(reply)))
        #expect(Self.written(reply).contains(#""sort":"descending""#))
        if sideways { #expect(Self.written(reply).contains(#""readOnly":true,"#)) }
        // Typed values: a number as a number, text as text, an empty cell as null.
        #expect(Self.written(reply).contains(#""values":["#) == (values && !window.rows.isEmpty))
        if values, let row = reply.response.rows.first {
            #expect(row.values?.count == row.cells.count)
            #expect(
                row.values?.contains {
                    switch $0 {
                    case .integer, .number: true
                    default: false
                    }
                } == true
            )
        }
    }

    /// A window whose cells are all plain is written with its cells copied as they are (a line
    /// break in a one-line cell is shown as a space); one quote, backslash or control character
    /// anywhere makes it escape them all, as the encoder does.
    @Test(arguments: ["Hex bolt", "Hex \"bolt\"", "C:\\bolts", "two\nlines", "bell \u{7}"])
    func aWindowOfPlainCellsOrNotWritesWhatTheEncoderWould(item: String) throws {
        var table = try Table(
            name: "plain",
            columns: [
                Column(key: "item", rules: try ColumnRules(type: .text)),
                Column(key: "qty", rules: try ColumnRules(type: .number)),
            ]
        )
        _ = try table.add(
            (0..<5).map { RowInput(values: ["item": .text($0 == 3 ? item : "Nut \($0)"), "qty": .number(0.5)]) },
            now: 0
        )
        var view = ViewState()
        let options = LayoutOptions(unit: .cell, width: 40, data: .cells, header: .cells)
        let window = try table.scroll(options, ScrollInput(height: 10, now: 0), view: &view)
        #expect(window.text.isPlain == (item == "Hex bolt" || item == "two\nlines"))
        let reply = ScrollReply(window, table: table)
        #expect(Self.written(reply) == (try Self.encoded(reply.response)))
    }

    /// Filtered and sectioned windows (each style, footers, the index, a sticky header, a title
    /// that needs escaping) write what the encoder would.
    @Test(arguments: SectionSpec.Style.allCases)
    func aFilteredSectionedScrollReplyWritesWhatTheEncoderWould(style: SectionSpec.Style) throws {
        var table = try Self.scrolledTable()
        let column = try #require(table.columnIndex(of: "item"))
        table.setFilter(try RowFilter([], search: "e", in: table), id: 3)
        table.setSections(
            SectionSpec(columns: [column], style: style, index: style == .plain, footers: true),
            id: 3,
            within: 3
        )
        var view = ViewState()
        view.filter = 3
        view.sections = 3
        let options = LayoutOptions(unit: .cell, width: 60, data: .cells, header: .cells)
        for y in [0, 2, 5] {
            let window = try table.scroll(options, ScrollInput(height: 9, y: y, now: 100.5), view: &view)
            let reply = ScrollReply(window, table: table)
            #expect(window.sections != nil && window.shownCount != nil)
            #expect(Self.written(reply) == (try Self.encoded(reply.response)), "y \(y)")
        }
    }

    /// A column bound to `syncStatus` is the left accessory: each row carries what it shows.
    @Test func rowsCarryTheirSyncStatus() throws {
        var table = try Table(
            name: "outbox",
            columns: [
                Column(key: "item", rules: try ColumnRules(type: .text)),
                Column(key: "sync", rules: try ColumnRules(type: .text), layout: ColumnLayout(binding: .syncStatus)),
            ],
            selectionMode: .none
        )
        _ = try table.add(
            [
                RowInput(values: ["item": .text("Bolt"), "sync": .text("Pending \"2\"")]),
                RowInput(values: ["item": .text("Nut")]),
            ],
            now: 0
        )
        var view = ViewState()
        let options = LayoutOptions(unit: .cell, width: 40, data: .cells, header: .cells)
        let window = try table.scroll(options, ScrollInput(height: 5, y: 0, now: 0), view: &view)
        let reply = ScrollReply(window, table: table)
        #expect(Self.written(reply) == (try Self.encoded(reply.response)))
        #expect(reply.response.rows.map(\.syncStatus) == [#"Pending "2""#, nil])
        #expect(reply.response.accessories.left?.kind == .syncStatus)
        #expect(reply.response.columns.map(\.key) == ["item"])
    }

    /// Values of every JSON kind `distinct` lists: text with escapes and non-ASCII, numbers,
    /// true, and null for empty cells.
    @Test func aDistinctReplyWritesWhatTheEncoderWould() throws {
        let reply = DistinctRequest.Response(
            table: "stock \"main\"/2",
            version: 7,
            column: "item",
            rows: 12,
            distinct: 5,
            values: [
                .init(value: .null, text: "", count: 3),
                .init(value: .string("Tab\there ✓ 재고 \u{1}"), text: "Tab here ✓ 재고", count: 4),
                .init(value: .number(2.5), text: "2.50", count: 2),
                .init(value: .bool(true), text: "Yes", count: 1),
            ]
        )
        #expect(Self.written(reply) == (try Self.encoded(reply)))
        #expect(
            Self.written(
                DistinctRequest.Response(table: "t", version: 0, column: "c", rows: 0, distinct: 0, values: [])
            )
                == (try Self.encoded(
                    DistinctRequest.Response(table: "t", version: 0, column: "c", rows: 0, distinct: 0, values: [])
                ))
        )
    }

    @Test func aPingReplyWritesWhatTheEncoderWould() throws {
        #expect(Self.written(PingRequest.Response()) == (try Self.encoded(PingRequest.Response())))
    }

    static let exportLines = ["item,notes\n", "\"Bolt, hex\",\"say \"\"hi\"\"\"\n", "\u{7}é/✓,\\\n", "\t\r\n"]

    @Test func anExportReplyWritesWhatTheEncoderWould() throws {
        var reply = ExportReply(
            table: "stock",
            version: 3,
            format: .csv,
            rows: 3,
            text: [Array(Self.exportLines[0].utf8), Array(Self.exportLines[1...].joined().utf8)]
        )
        #expect(reply.response.text == Self.exportLines.joined())
        #expect(Self.written(reply) == (try Self.encoded(reply.response)))
        reply.text = []
        #expect(Self.written(reply) == (try Self.encoded(reply.response)))
        reply.text = nil
        reply.path = "/tmp/out.csv"
        reply.bytes = 1234
        #expect(Self.written(reply) == (try Self.encoded(reply.response)))
        reply.path = nil
        reply.chunks = 7
        #expect(Self.written(reply) == (try Self.encoded(reply)))
    }

    @Test(arguments: [RequestID.integer(4), .string("e/1"), nil])
    func aChunkNotificationWritesWhatTheEncoderWould(request: RequestID?) {
        let text = Self.exportLines.joined()
        let written = ExportReply.chunkNotification(
            request: request,
            table: "stock \"a\"",
            done: 3,
            total: 9,
            text: Array(text.utf8)
        )
        let encoded = ReplyEncoding.notification(
            method: "chunk",
            params: ExportChunk(request: request, table: "stock \"a\"", done: 3, total: 9, text: text)
        )
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
    }

    @Test(arguments: [nil, Set([0, 2]), Set([4]), Set<Int>()])
    func aGetReplyWritesWhatTheEncoderWould(shown: Set<Int>?) throws {
        var table = try Self.scrolledTable()
        let only = shown.map { shown in table.columns.indices.map { shown.contains($0) } }
        _ = try table.add(
            [RowInput(values: ["sku": .text("x/y"), "qty": .number(2.5e-7), "lead": .number(59)])],
            now: 100
        )
        let rows = try table.rows(
            ids: [.text("S-2"), .text("new"), .text("S-0"), .text("x/y"), .text("S-29")],
            now: 100.5,
            columns: only
        )
        let reply = GetReply(rows, table: table, only: only)
        #expect(Self.written(reply) == (try Self.encoded(reply.response)))
        #expect(Self.written(reply) == (try Self.encoded(reply)))
        // Rows of a table without a key have whole-number ids.
        var numbered = try Table(name: "n", columns: [Column(key: "v", rules: try ColumnRules(type: .time))])
        _ = try numbered.add([RowInput(values: ["v": .text("09:30")]), RowInput(values: [:])], now: 0)
        let plain = GetReply(numbered.rows(from: 0, count: 5), table: numbered, only: nil)
        #expect(Self.written(plain) == (try Self.encoded(plain.response)))
        #expect(Self.written(plain).contains(#""id":1,"#))
    }

    @Test func editAddAndSelectRepliesWriteWhatTheEncoderWould() throws {
        let edit = EditRequest.Response(
            table: "stock",
            version: 9,
            edited: 2,
            cells: [
                CellReply(id: .string("A/1"), column: "qty", value: .integer(-40), display: "-40", index: 3),
                CellReply(id: .integer(7), column: "note", value: .null, display: "", index: 0),
                CellReply(id: .integer(8), column: "w", value: .number(0.125), display: "0.13 \"kg\"", index: 12),
            ],
            errors: 0
        )
        #expect(Self.written(edit) == (try Self.encoded(edit)))
        let add = AddRequest.Response(
            table: "stock",
            version: 10,
            rows: 1_000_001,
            added: [
                .init(id: .string("B-2"), index: 999_999, addedAt: "2026-11-23T19:40:00.123Z", scrollTo: 4_000),
                .init(id: .integer(Int64.max), index: 0, addedAt: "2026-11-23T19:40:00.123Z"),
            ]
        )
        #expect(Self.written(add) == (try Self.encoded(add)))
        var upserted = add
        upserted.replaced = [.init(id: .string("B-1"), index: 3), .init(id: .integer(7), index: 0)]
        #expect(Self.written(upserted) == (try Self.encoded(upserted)))
        let select = SelectRequest.Response(table: "stock", version: 11, count: 0, mode: .multiple)
        #expect(Self.written(select) == (try Self.encoded(select)))
    }

    /// Strings are checked eight bytes at a time: escapes at every position of a word, and
    /// around multi-byte characters, come out as the encoder writes them.
    @Test func stringsEscapeWhatTheEncoderEscapesWhereverItFalls() throws {
        var random = SystemRandomNumberGenerator()
        let pieces = ["a", "\"", "\\", "\n", "\u{1}", "\u{1F}", " ", "~", "\u{7F}", "é", "✓", "😀", "/", "!", "#"]
        for length in 0..<40 {
            for _ in 0..<30 {
                let text = (0..<length).map { _ in pieces.randomElement(using: &random)! }.joined()
                var writer = JSONWriter()
                writer.string(text)
                #expect(
                    String(decoding: writer.bytes, as: UTF8.self) == (try Self.encoded(text)),
                    "\(text.debugDescription)"
                )
            }
        }
    }

    @Test(arguments: [0, 7, -7, 10, 99, 100, -1_000_000, Int.max, Int.min, Int(Int32.max) + 1])
    func wholeNumbersAreWrittenAsTheirDigits(_ value: Int) {
        var writer = JSONWriter()
        writer.int(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
    }

    @Test func theEnvelopeAroundADirectResultIsTheSame() throws {
        var table = try Self.scrolledTable()
        var view = ViewState()
        let options = LayoutOptions(unit: .cell, width: 60, data: .cells, header: .cells)
        let full = ScrollReply(
            try table.scroll(options, ScrollInput(height: 12, y: 0, now: 100.5), view: &view),
            table: table
        )
        for id in [RequestID.integer(7), .string("a/b"), .null, .number(1.5)] {
            let direct = ReplyEncoding.success(id: id, full)
            let decoded = try JSONDecoder().decode(JSONValue.self, from: direct)
            let expected = try JSONDecoder().decode(
                JSONValue.self,
                from: Data(
                    #"{"id":\#(try Self.encoded(id)),"jsonrpc":"2.0","result":\#(try Self.encoded(full))}"#.utf8
                )
            )
            #expect(decoded == expected)
        }
    }

    /// A `window` notification written directly reads as the encoder writes it, whatever
    /// members the delta has.
    @Test func aWindowNotificationWritesWhatTheEncoderWould() throws {
        var delta = WindowDelta(watch: 3, seq: 12, version: 40)
        var deltas = [delta]
        delta.set = ["total": .integer(11), "viewport": .object(["y": .integer(2), "x": .integer(0)]), "lost": .null]
        deltas.append(delta)
        delta.removed = [.integer(5), .string("b/\"7\"")]
        delta.added = [
            .object(["id": .integer(9), "cells": .array([.string("ä ✓"), .string("")]), "index": .integer(4)])
        ]
        delta.changed = [
            .object([
                "id": .integer(2), "cells": .object(["qty": .string("1.5")]), "values": .object(["qty": .number(1.5)]),
            ])
        ]
        delta.pending = 3
        deltas.append(delta)
        for delta in deltas {
            var encoded = ReplyEncoding.notification(method: "window", params: delta)
            encoded.append(UInt8(ascii: "\n"))
            #expect(
                String(decoding: WindowNotification.line(delta), as: UTF8.self)
                    == String(decoding: encoded, as: UTF8.self)
            )
        }
    }
}
