import DataTableProtocol
import Foundation
import Testing

/// Nested groups over the real socket: groups collapsed by one client stay collapsed, and open
/// ones open, through a sort, a filter change and another client's edits that move rows between
/// groups; a group that empties and comes back is still collapsed; expanding shows its rows.
@Suite struct NestedGroupMethodTests {
    let daemon: TestDaemon

    init() throws { daemon = try TestDaemon() }

    /// 24 bins: rack A, B or C by n % 3, shelf 1 or 2 by n / 3 % 2, qty n.
    static let racks = ["A", "B", "C"]
    static let shelves = ["1", "2"]

    /// What a window tall enough for the whole view shows: each header's path (with " ▸" when
    /// collapsed) and count, and the rows as "rack/shelf n", in the order they are drawn.
    static func lines(_ window: ScrollRequest.Response) -> [String] {
        var placed: [(Int, String)] = (window.sections?.shown ?? []).map {
            let mark = $0.collapsed == true ? " ▸" : ""
            return ($0.y, ($0.path ?? [$0.title]).joined(separator: "/") + mark + " \($0.count)")
        }
        placed += window.rows.map { ($0.y, "\($0.cells[1])/\($0.cells[2]) \($0.cells[0])") }
        return placed.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The same, worked out from every row of the table (`rows`: n, rack, shelf), in the view's
    /// order: racks and shelves by value (racks reversed when `racksDescending`), rows by n as
    /// the table is sorted, nothing of a collapsed group but its header.
    static func expected(
        _ rows: [(n: Int, rack: String, shelf: String)],
        collapsed: Set<[String]>,
        racksDescending: Bool = false,
        nDescending: Bool = false
    ) -> [String] {
        var lines: [String] = []
        let racks = Set(rows.map(\.rack)).sorted(by: racksDescending ? (>) : (<))
        for rack in racks {
            let inRack = rows.filter { $0.rack == rack }
            lines.append(rack + (collapsed.contains([rack]) ? " ▸" : "") + " \(inRack.count)")
            guard !collapsed.contains([rack]) else { continue }
            for shelf in Set(inRack.map(\.shelf)).sorted() {
                let onShelf = inRack.filter { $0.shelf == shelf }.map(\.n).sorted(by: nDescending ? (>) : (<))
                lines.append(
                    "\(rack)/\(shelf)" + (collapsed.contains([rack, shelf]) ? " ▸" : "") + " \(onShelf.count)"
                )
                guard !collapsed.contains([rack, shelf]) else { continue }
                lines += onShelf.map { "\(rack)/\(shelf) \($0)" }
            }
        }
        return lines
    }

    @Test func collapsedGroupsSurviveASortAFilterAndEditsThatMoveRows() throws {
        let viewer = try daemon.connect()
        let editor = try daemon.connect()
        var rows = (0..<24).map { (n: $0, rack: Self.racks[$0 % 3], shelf: Self.shelves[$0 / 3 % 2]) }
        try viewer.send(
            CreateRequest(
                table: "bins",
                columns: [
                    ColumnDefinition(key: "n", type: .number),
                    ColumnDefinition(key: "rack", type: .picker, options: Self.racks),
                    ColumnDefinition(key: "shelf", type: .picker, options: Self.shelves),
                ],
                rows: rows.map { ["n": .integer(Int64($0.n)), "rack": .string($0.rack), "shelf": .string($0.shelf)] }
            )
        )
        var scroll = ScrollRequest(table: "bins", viewport: .init(y: 0, width: 40, height: 200), unit: .cell)
        scroll.sections = .init(columns: ["rack", "shelf"])
        let open = try viewer.send(scroll)
        #expect(open.sections?.columns == ["rack", "shelf"])
        #expect(Self.lines(open) == Self.expected(rows, collapsed: []))
        let again = ScrollRequest(table: "bins", viewport: .init(y: 0))

        // B and A's shelf 2 collapsed: their headers show, their rows do not.
        #expect(try viewer.send(CollapseRequest(table: "bins", group: [.string("B")])).collapsed == 1)
        let collapsed = try viewer.send(CollapseRequest(table: "bins", group: [.string("A"), .string("2")]))
        #expect(collapsed.collapsed == 2)
        #expect(collapsed.shown == 24 - 8 - 4)
        var kept: Set<[String]> = [["B"], ["A", "2"]]
        #expect(Self.lines(try viewer.send(again)) == Self.expected(rows, collapsed: kept))

        // A sort: racks run backwards, rows newest first; the same groups are collapsed.
        _ = try editor.send(
            SortRequest(
                table: "bins",
                keys: [SortKeyParam(column: "rack", descending: true), SortKeyParam(column: "n", descending: true)]
            )
        )
        #expect(
            Self.lines(try viewer.send(again))
                == Self.expected(rows, collapsed: kept, racksDescending: true, nDescending: true)
        )
        _ = try editor.send(SortRequest(table: "bins", keys: [SortKeyParam(column: "n")]))
        #expect(Self.lines(try viewer.send(again)) == Self.expected(rows, collapsed: kept))

        // Another client moves a row into collapsed B, and one from A's shelf 1 to its shelf 2.
        _ = try editor.send(EditRequest(table: "bins", id: .integer(3), column: "rack", value: .string("B")))
        rows[2].rack = "B"
        _ = try editor.send(EditRequest(table: "bins", id: .integer(1), column: "shelf", value: .string("2")))
        rows[0].shelf = "2"
        #expect(Self.lines(try viewer.send(again)) == Self.expected(rows, collapsed: kept))

        // A filter leaves out A's shelf 2 altogether; when it goes, the group is back, collapsed.
        _ = try viewer.send(
            FilterRequest(table: "bins", where: [.condition(column: "shelf", op: .equal, value: .string("1"))])
        )
        #expect(
            Self.lines(try viewer.send(again)) == Self.expected(rows.filter { $0.shelf == "1" }, collapsed: kept)
        )
        _ = try viewer.send(FilterRequest(table: "bins", where: []))
        #expect(Self.lines(try viewer.send(again)) == Self.expected(rows, collapsed: kept))

        // Expanded, B shows its rows (the one moved in too).
        let expanded = try viewer.send(ExpandRequest(table: "bins", group: [.string("B")]))
        #expect(expanded.collapsed == 1)
        kept = [["A", "2"]]
        #expect(Self.lines(try viewer.send(again)) == Self.expected(rows, collapsed: kept))

        // A level, then all; a bad request changes nothing.
        #expect(try viewer.send(CollapseRequest(table: "bins", level: 1)).collapsed == 6)
        #expect(
            Self.lines(try viewer.send(again))
                == Self.expected(rows, collapsed: Set(rows.map { [$0.rack, $0.shelf] }))
        )
        #expect(throws: ResponseError.self) {
            try viewer.send(CollapseRequest(table: "bins", group: [.string("A")], level: 0))
        }
        #expect(throws: ResponseError.self) {
            try viewer.send(CollapseRequest(table: "bins", group: [.string("D")]))
        }
        #expect(try viewer.send(ExpandRequest(table: "bins", all: true)).collapsed == 0)
        #expect(Self.lines(try viewer.send(again)) == Self.expected(rows, collapsed: []))

        // Another connection's view has no sections to collapse.
        #expect(throws: ResponseError.self) { try editor.send(CollapseRequest(table: "bins", all: true)) }
    }
}
