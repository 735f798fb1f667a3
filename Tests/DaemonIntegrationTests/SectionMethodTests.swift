import DataTableProtocol
import Foundation
import Testing

/// Sections over the real socket, through socat: a view grouped by a column in each of the
/// HIG's three styles, with a filter on top, and rows another client adds landing in their
/// sections.
@Suite struct SectionMethodTests {
    let daemon: TestDaemon

    init() throws { daemon = try TestDaemon(arguments: ["--demo"]) }

    /// The sections a window shows (none when it has no sections).
    static func shown(_ window: ScrollRequest.Response) -> [ScrollRequest.ShownSection] {
        window.sections?.shown ?? []
    }

    /// A scroll of `bins` with `sections` given.
    static func scroll(
        viewport: ScrollRequest.Viewport? = nil,
        to target: ScrollRequest.Target? = nil,
        unit: LengthUnit? = nil,
        sections: ScrollRequest.Sections?
    ) -> ScrollRequest {
        var request = ScrollRequest(table: "bins", viewport: viewport, to: target, unit: unit)
        request.sections = sections
        return request
    }

    @Test func aViewGroupedByAColumnInEachStyle() throws {
        let first = try ScrollMethodTests.SocatSession(to: daemon, name: "first")
        let second = try ScrollMethodTests.SocatSession(to: daemon, name: "second")
        // 30 rows in racks A (n % 3 == 0), B, C; n from 0, newest (largest n) first.
        let racks = ["A", "B", "C"]
        try first.client.send(
            CreateRequest(
                table: "bins",
                columns: [
                    ColumnDefinition(key: "n", type: .number),
                    ColumnDefinition(key: "rack", type: .picker, options: racks),
                ],
                rows: (0..<30).map { ["n": .integer(Int64($0)), "rack": .string(racks[$0 % 3])] },
                sort: [SortKeyParam(column: "n", descending: true)]
            )
        )

        // Plain, with an index: headers between the sections, titles with their counts.
        let plain = try first.client.send(
            Self.scroll(
                viewport: .init(width: 30, height: 14),
                unit: .cell,
                sections: .init(column: "rack", index: true)
            )
        )
        #expect(plain.sections?.style == .plain)
        #expect(plain.sections?.count == 3)
        #expect(Self.shown(plain).map(\.title) == ["A", "B"])
        #expect(Self.shown(plain).map(\.count) == [10, 10])
        #expect(Self.shown(plain).map(\.y) == [1, 12])
        let index = plain.sections?.index ?? []
        #expect(index.map(\.title) == ["A", "B", "C"])
        #expect(index.map(\.y) == [0, 11, 22])
        #expect(plain.rows.first?.cells == ["27", "A"])
        #expect(plain.rows.map(\.y).prefix(3) == [2, 3, 4])

        // Scrolled into A, its header sticks at the top.
        let inA = try first.client.send(ScrollRequest(table: "bins", viewport: .init(y: 4)))
        #expect(Self.shown(inA).first?.sticky == true)
        #expect(Self.shown(inA).first?.y == 1)

        // Grouped: sections a line apart, with footers; inset grouped: rows in from both edges.
        let grouped = try first.client.send(
            Self.scroll(viewport: .init(y: 0), sections: .init(column: "rack", style: .grouped, footers: true))
        )
        #expect(Self.shown(grouped).first?.footerY == 12)
        #expect(Self.shown(grouped).map(\.y) == [1])
        #expect(grouped.contentHeight == 1 + 3 * 2 + 2 + 30)
        // layout of the view says the same; of the table, the rows alone.
        var layout = LayoutRequest(table: "bins", width: 30, unit: .cell)
        layout.view = true
        let laidOut = try first.client.send(layout)
        #expect(laidOut.contentHeight == 1 + 3 * 2 + 2 + 30)
        let whole = try first.client.send(LayoutRequest(table: "bins", width: 30, unit: .cell))
        #expect(whole.contentHeight == 1 + 30)
        let inset = try first.client.send(
            Self.scroll(to: .init(section: "C"), sections: .init(column: "rack", style: .insetGrouped))
        )
        #expect(inset.sections?.inset == 2)
        // C's header as near the top as the content allows (the view cannot scroll past its end).
        #expect(inset.viewport.y == 36 - 14)
        #expect(Self.shown(inset).contains { $0.title == "C" })
        #expect((inset.columns.first?.x ?? 0) >= 2)
        #expect(inset.accessories.left?.x == 2)

        // With a filter: sections hold only the rows it shows; another client's new rows land
        // in their sections, and only those the filter shows count as new above.
        try first.client.send(Self.scroll(to: .init(section: "B"), sections: .init(column: "rack")))
        let filtered = try first.client.send(
            FilterRequest(
                table: "bins",
                where: [.condition(column: "n", op: .greaterOrEqualASCII, value: 15)]
            )
        )
        #expect(filtered.shown == 15)
        let before = try first.client.send(ScrollRequest(table: "bins", to: .init(section: "B")))
        #expect(Self.shown(before).first?.count == 5)
        let anchor = try #require(before.rows.first)
        try second.client.send(
            AddRequest(
                table: "bins",
                rows: [
                    ["n": 100, "rack": "A"], ["n": 101, "rack": "C"], ["n": 3, "rack": "A"], ["n": 102, "rack": "B"],
                ]
            )
        )
        let after = try first.client.send(ScrollRequest(table: "bins"))
        // A's 100 is above; B's 102 comes in at the top of B, just above the anchored row, in
        // view; C's 101 is below and n 3 is filtered out.
        #expect(after.newAbove == 1)
        let kept = after.rows.first { $0.id == anchor.id }
        #expect(kept?.y == anchor.y)
        #expect(Self.shown(after).first { $0.title == "B" }?.count == 6)

        // Bad sections change nothing.
        for bad in [
            Self.scroll(sections: .init(column: "size")),
            Self.scroll(sections: .init(column: "rack", style: .grouped, index: true)),
            ScrollRequest(table: "bins", to: .init(section: "Z")),
        ] {
            #expect(throws: ResponseError.self, "\(bad)") { try first.client.send(bad) }
        }
        // A style outside the set is what no request can hold: sent as text.
        #expect(
            try first.client.failure(
                toLine:
                    #"{"id":1,"method":"scroll","params":{"table":"bins","sections":{"column":"rack","style":"tiled"}}}"#
            ).kind == .invalidValue
        )
        #expect(try first.client.send(ScrollRequest(table: "bins")).sections?.style == .plain)
        let ended = try first.client.send(Self.scroll(sections: .init(column: nil)))
        #expect(ended.sections == nil)
    }
}
