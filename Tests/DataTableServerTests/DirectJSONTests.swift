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

    static let full = ScrollRequest.Response(
        table: "stock \"main\"/2",
        version: 12,
        mode: "table",
        unit: "pt",
        total: 1_000_000,
        selected: 3,
        errors: 1,
        viewport: .init(x: 20, y: 9_000, width: 375, height: 600),
        contentWidth: 1_477,
        contentHeight: 50_000_032,
        header: .init(height: 32, shadow: true),
        columns: [
            .init(
                key: "item",
                x: 44,
                width: 93,
                align: "leading",
                lines: 1,
                header: ["Item"],
                sticky: true,
                binding: nil
            ),
            .init(
                key: "notes",
                x: 137,
                width: 300,
                align: "leading",
                lines: 2,
                header: ["No", "tes"],
                sticky: nil,
                binding: nil
            ),
        ],
        accessories: .init(
            left: .init(kind: "checkbox", x: 0, width: 44),
            right: .init(kind: "chevron", x: 331, width: 44)
        ),
        rows: [
            .init(
                id: .string("A-1"),
                index: 180,
                y: 20,
                height: 68,
                cells: ["Tab\there, quote \" and back\\slash", "line one\nline two ✓ 재고 😀 \u{1}"],
                tall: true,
                selected: true,
                highlight: 0.979,
                drafts: [
                    "qty": DraftReply(text: "lots", error: "Enter a number."),
                    "item": DraftReply(text: "", error: "A value is required."),
                ],
                readOnly: ["item", "notes"]
            ),
            .init(id: .integer(7), index: 181, y: 88, height: 50, cells: ["plain", ""]),
        ],
        first: 180,
        last: 191,
        newAbove: 10
    )

    @Test func aScrollReplyWritesWhatTheEncoderWould() throws {
        #expect(Self.written(Self.full) == (try Self.encoded(Self.full)))
        var empty = Self.full
        empty.rows = []
        empty.columns = []
        empty.first = nil
        empty.last = nil
        empty.accessories = .init(left: nil, right: .init(kind: "chevron", x: 0, width: 3))
        #expect(Self.written(empty) == (try Self.encoded(empty)))
        empty.accessories = .init(left: nil, right: nil)
        #expect(Self.written(empty) == (try Self.encoded(empty)))
    }

    @Test func aPingReplyWritesWhatTheEncoderWould() throws {
        #expect(Self.written(PingRequest.Response()) == (try Self.encoded(PingRequest.Response())))
    }

    @Test func anExportReplyWritesWhatTheEncoderWould() throws {
        var reply = ExportRequest.Response(
            table: "stock",
            version: 3,
            format: "csv",
            rows: 2,
            text: "item,notes\n\"Bolt, hex\",\"say \"\"hi\"\"\"\n\u{7}é/✓,\\\n"
        )
        #expect(Self.written(reply) == (try Self.encoded(reply)))
        reply.text = nil
        reply.path = "/tmp/out.csv"
        reply.bytes = 1234
        #expect(Self.written(reply) == (try Self.encoded(reply)))
        reply.path = nil
        reply.chunks = 7
        #expect(Self.written(reply) == (try Self.encoded(reply)))
    }

    @Test func aGetReplyWritesWhatTheEncoderWould() throws {
        let reply = GetRequest.Response(
            table: "stock",
            version: 4,
            total: 2,
            errors: 1,
            rows: [
                RowReply(
                    id: .string("SKU-1"),
                    index: 0,
                    values: [
                        "qty": .integer(4), "weight": .number(0.25), "item": .string("Bolt \"M8\""), "gone": .null,
                    ],
                    display: ["qty": "4", "weight": "0.25", "item": "Bolt \"M8\"", "gone": ""],
                    drafts: ["qty": DraftReply(text: "lots", error: "Enter a number.")],
                    selected: true,
                    readOnly: ["item"],
                    highlight: 0.5
                ),
                RowReply(
                    id: .integer(2),
                    index: 1,
                    values: [:],
                    display: [:],
                    drafts: nil,
                    selected: false,
                    readOnly: nil,
                    highlight: nil
                ),
            ]
        )
        #expect(Self.written(reply) == (try Self.encoded(reply)))
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
        let select = SelectRequest.Response(table: "stock", version: 11, count: 0, mode: "multiple")
        #expect(Self.written(select) == (try Self.encoded(select)))
    }

    @Test(arguments: [0, 7, -7, 10, 99, 100, -1_000_000, Int.max, Int.min, Int(Int32.max) + 1])
    func wholeNumbersAreWrittenAsTheirDigits(_ value: Int) {
        var writer = JSONWriter()
        writer.int(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
    }

    @Test func theEnvelopeAroundADirectResultIsTheSame() throws {
        for id in [RequestID.integer(7), .string("a/b"), .null, .number(1.5)] {
            let direct = ReplyEncoding.success(id: id, Self.full)
            let decoded = try JSONDecoder().decode(JSONValue.self, from: direct)
            let expected = try JSONDecoder().decode(
                JSONValue.self,
                from: Data(
                    #"{"id":\#(try Self.encoded(id)),"jsonrpc":"2.0","result":\#(try Self.encoded(Self.full))}"#.utf8
                )
            )
            #expect(decoded == expected)
        }
    }
}
