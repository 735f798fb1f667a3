import TestSupport
import Testing

@testable import DataTableEngine

/// Groups nested by two columns against a naive reference: after any sequence of adds, edits
/// (that move rows between groups), deletes, sorts, filter changes, undos, collapses and
/// expands, a window tall enough for the whole view shows each open group's header, then its
/// nested groups or rows, in the values' order, with the right counts and sums, and nothing of
/// a collapsed group but its header.
@Suite struct NestedGroupTests {
    /// One collapse or expand, as a user gave it.
    struct Toggle {
        var collapsed: Bool
        var target: Target
        enum Target: Equatable {
            case group([CellValue])
            case level(Int)
            case all
        }
    }

    /// Whether the group at `path` is collapsed: as the last toggle that names it (by itself,
    /// by its level, or all) left it.
    static func isCollapsed(_ path: [CellValue], after toggles: [Toggle]) -> Bool {
        for toggle in toggles.reversed() {
            switch toggle.target {
            case .all: return toggle.collapsed
            case .level(let level) where level == path.count - 1: return toggle.collapsed
            case .group(let named) where named == path: return toggle.collapsed
            default: continue
            }
        }
        return false
    }

    /// What the whole view shows, top to bottom: a header (its titles, count, whether it is
    /// collapsed, and its sum of qty as text), or a row's id.
    enum Line: Equatable, CustomStringConvertible {
        case header([String], count: Int, collapsed: Bool, sum: String)
        case row(RowID)

        var description: String {
            switch self {
            case .header(let path, let count, let collapsed, let sum):
                "header \(path) \(count)\(collapsed ? " collapsed" : "") sum \(sum)"
            case .row(let id): "row \(id)"
            }
        }
    }

    static func reference(
        _ table: Table,
        columns: [Int],
        filter: UInt64?,
        toggles: [Toggle]
    ) -> [Line] {
        var slots = table.orderSlots(from: 0, limit: table.rowCount)
        if let filter, let shown = table.filterIndex(filter) {
            slots = slots.filter { table.filters[shown].rows.contains($0) }
        }
        let descending = columns.indices.map { level in
            level < table.sortKeys.count && table.columnIndex[table.sortKeys[level].column] == columns[level]
                && table.sortKeys[level].descending
        }
        let qty = table.columnIndex["qty"]!
        func title(_ value: CellValue, _ level: Int) -> String {
            table.columns[columns[level]].rules.displayText(value)
        }
        func lines(_ slots: [UInt32], level: Int, path: [CellValue]) -> [Line] {
            guard level < columns.count else { return slots.map { .row(table.id(of: $0)) } }
            var values: [CellValue] = []
            var byValue: [CellValue: [UInt32]] = [:]
            for slot in slots {
                let value = table.stores[columns[level]][slot]
                if byValue[value] == nil { values.append(value) }
                byValue[value, default: []].append(slot)
            }
            values.sort { Table.sectionOrder($0, $1, descending: descending[level]) < 0 }
            return values.flatMap { value -> [Line] in
                let inside = byValue[value]!
                let groupPath = path + [value]
                let collapsed = isCollapsed(groupPath, after: toggles)
                let sum = inside.reduce(0.0) { total, slot in
                    if case .number(let number) = table.stores[qty][slot] { return total + number }
                    return total
                }
                let header = Line.header(
                    groupPath.enumerated().map { title($1, $0) },
                    count: inside.count,
                    collapsed: collapsed,
                    sum: table.columns[qty].rules.displayText(.number(sum))
                )
                return [header] + (collapsed ? [] : lines(inside, level: level + 1, path: groupPath))
            }
        }
        return lines(slots, level: 0, path: [])
    }

    /// The lines of a window that shows the whole view, in order of where they are drawn.
    static func shown(_ table: inout Table, view: inout ViewState) throws -> (lines: [Line], window: ScrollWindow) {
        let window = try table.scroll(
            TableScrollTests.cells(60),
            ScrollInput(height: 100_000, y: 0, now: 0),
            view: &view
        )
        var placed: [(y: Int, line: Line)] = []
        for section in window.sections?.shown ?? [] {
            let sum = section.aggregates.first { $0.function == .sum }?.text ?? ""
            placed.append(
                (
                    section.y,
                    .header(
                        section.path,
                        count: section.count,
                        collapsed: section.collapsed,
                        sum: sum == "" ? "0" : sum
                    )
                )
            )
        }
        for row in window.rows { placed.append((row.y, .row(row.id))) }
        placed.sort { $0.y < $1.y }
        return (placed.map(\.line), window)
    }

    @Test(arguments: [false, true])
    func nestedGroupsFollowEveryChangeAndKeepWhatIsCollapsed(filtered: Bool) throws {
        var random = SeededRandom(seed: filtered ? 41 : 42)
        var table = try TableFilterTests.table()
        _ = try table.add((0..<120).map { _ in Self.randomRow(&random) }, now: 0)
        let columns = [table.columnIndex["rack"]!, table.columnIndex["received"]!]
        let qty = table.columnIndex["qty"]!
        if filtered {
            table.setFilter(
                try RowFilter([.init(column: "qty", operator: .less, values: [.number(200)])], in: table),
                id: 5
            )
        }
        table.setSections(
            SectionSpec(columns: columns, aggregates: [SectionAggregate(column: qty, function: .sum)]),
            id: 5,
            within: filtered ? 5 : nil
        )
        var view = ViewState()
        view.sections = 5
        view.filter = filtered ? 5 : nil
        var toggles: [Toggle] = []
        var collapsedSome = false
        for step in 0..<300 {
            switch random.next() % 9 {
            case 0:
                _ = try table.add([Self.randomRow(&random)], now: 0)
            case 1, 2:
                let slots = table.orderSlots(from: 0, limit: table.rowCount)
                guard !slots.isEmpty else { continue }
                let id = table.id(of: slots[Int(random.next() % UInt64(slots.count))])
                let edit: CellEdit
                switch random.next() % 3 {
                case 0: edit = CellEdit(id: id, column: "rack", input: .text(Self.racks[Int(random.next() % 3)]))
                case 1: edit = CellEdit(id: id, column: "received", input: .text(Self.dates[Int(random.next() % 3)]))
                default: edit = CellEdit(id: id, column: "qty", input: .number(Double(random.next() % 300)))
                }
                _ = try table.edit([edit])
            case 3:
                try TableFilterTests.deleteSome(&table, &random)
            case 4:
                let keys: [[SortKey]] = [
                    [], [SortKey(column: "qty")], [SortKey(column: "rack", descending: true)],
                    [SortKey(column: "rack"), SortKey(column: "received", descending: true)],
                ]
                try table.sort(by: keys[Int(random.next() % 4)])
            case 5 where filtered:
                let bound = Double(50 + random.next() % 250)
                table.setFilter(
                    try RowFilter([.init(column: "qty", operator: .less, values: [.number(bound)])], in: table),
                    id: 5
                )
            case 5, 6, 7:
                let collapsed = random.next() % 3 != 0
                let target: Toggle.Target
                let inputs: GroupTarget
                switch random.next() % 6 {
                case 0:
                    (target, inputs) = (.all, .all)
                case 1:
                    let level = Int(random.next() % 2)
                    (target, inputs) = (.level(level), .level(level))
                default:
                    // A group by its values: one that exists now (or did once: then refused).
                    let rack = Self.racks[Int(random.next() % 3)]
                    let date = Self.dates[Int(random.next() % 3)]
                    let rackValue = try table.columns[columns[0]].rules.parseComparand(.text(rack))
                    let path: [CellValue] =
                        random.next() % 2 == 0 ? [rackValue] : [rackValue, try Self.date(date)]
                    let given: [CellInput] = path.count == 1 ? [.text(rack)] : [.text(rack), .text(date)]
                    (target, inputs) = (.group(path), .group(given))
                }
                let exists: Bool
                if case .group(let path) = target {
                    exists = Self.reference(table, columns: columns, filter: filtered ? 5 : nil, toggles: [])
                        .contains {
                            if case .header(let titles, _, _, _) = $0 {
                                return titles
                                    == path.enumerated().map { table.columns[columns[$0]].rules.displayText($1) }
                            }
                            return false
                        }
                } else {
                    exists = true
                }
                do {
                    try table.setCollapsed(collapsed, inputs, view: 5)
                    #expect(exists, "a group that is not there was collapsed at step \(step)")
                    toggles.append(Toggle(collapsed: collapsed, target: target))
                    collapsedSome = collapsedSome || collapsed
                } catch {
                    #expect(!exists, "\(error) at step \(step)")
                }
            default:
                if table.canUndo { _ = try table.undo() }
            }
            let expected = Self.reference(table, columns: columns, filter: filtered ? 5 : nil, toggles: toggles)
            let (lines, window) = try Self.shown(&table, view: &view)
            #expect(lines == expected, "after step \(step)")
            let shownRows = expected.filter { if case .row = $0 { true } else { false } }.count
            let headers = expected.count - shownRows
            #expect(window.contentHeight == 1 + headers + shownRows, "content height after step \(step)")
            if lines != expected { break }
        }
        #expect(collapsedSome)
    }

    /// Nine rows: three in A1 received on the 1st, three in A1 on the 2nd, three in B1 on the 1st.
    static func twoLevels() throws -> (table: Table, view: ViewState) {
        var table = try TableFilterTests.table()
        let rows = [("A1", "2024-03-01"), ("A1", "2024-03-02"), ("B1", "2024-03-01")].flatMap { group in
            (0..<3).map { number in
                RowInput(values: [
                    "item": .text("\(group.0) \(group.1) \(number)"), "qty": .number(1), "rack": .text(group.0),
                    "received": .text(group.1),
                ])
            }
        }
        _ = try table.add(rows, now: 0)
        table.setSections(
            SectionSpec(columns: [table.columnIndex["rack"]!, table.columnIndex["received"]!]),
            id: 1,
            within: nil
        )
        var view = ViewState()
        view.sections = 1
        return (table, view)
    }

    /// The headers a window 6 lines tall shows at `y`: titles, where, and whether stuck.
    static func headers(_ table: inout Table, _ view: inout ViewState, y: Int) throws -> [String] {
        let window = try table.scroll(TableScrollTests.cells(60), ScrollInput(height: 6, y: y, now: 0), view: &view)
        return (window.sections?.shown ?? []).map {
            "\($0.path.joined(separator: "/")) \($0.y)\($0.sticky ? " sticky" : "")"
        }
    }

    /// Headers stack below the table's header, the outermost first; the end of a nested group
    /// pushes its header up under its parent's, and the end of the outer group pushes both.
    @Test func headersOfNestedGroupsStackAndArePushedUpByTheirEnds() throws {
        var (table, view) = try Self.twoLevels()
        // Content: A1 at 0, A1/03-01 at 1, its rows 2–4, A1/03-02 at 5, rows 6–8, B1 at 9,
        // B1/03-01 at 10, rows 11–13; on screen one line lower (the table's header is at 0).
        #expect(try Self.headers(&table, &view, y: 0) == ["A1 1", "A1/2024-03-01 2"])
        #expect(
            try Self.headers(&table, &view, y: 3)
                == ["A1 1 sticky", "A1/2024-03-01 2 sticky", "A1/2024-03-02 3"]
        )
        #expect(
            try Self.headers(&table, &view, y: 4)
                == ["A1 1 sticky", "A1/2024-03-01 1 sticky", "A1/2024-03-02 2"]
        )
        #expect(
            try Self.headers(&table, &view, y: 7) == [
                "A1 1 sticky", "A1/2024-03-02 2 sticky", "B1 3", "B1/2024-03-01 4",
            ]
        )
        #expect(
            try Self.headers(&table, &view, y: 8) == [
                "A1 0 sticky", "A1/2024-03-02 1 sticky", "B1 2", "B1/2024-03-01 3",
            ]
        )
    }

    /// A collapsed group shows its header alone; collapsing a level collapses every group of
    /// it; the view's height follows.
    @Test func collapsedGroupsShowOnlyTheirHeaders() throws {
        var (table, view) = try Self.twoLevels()
        #expect(try table.setCollapsed(true, .group([.text("A1")]), view: 1) == 1)
        let one = try table.scroll(TableScrollTests.cells(60), ScrollInput(height: 20, y: 0, now: 0), view: &view)
        #expect(one.contentHeight == 1 + 3 + 3)
        #expect(one.sections?.shown.map(\.collapsed) == [true, false, false])
        #expect(one.rows.count == 3)
        #expect(try table.setCollapsed(true, .level(1), view: 1) == 4)
        let level = try table.scroll(TableScrollTests.cells(60), ScrollInput(height: 20, y: 0, now: 0), view: &view)
        #expect(level.contentHeight == 1 + 3)
        #expect(level.rows.isEmpty)
        #expect(try table.setCollapsed(false, .all, view: 1) == 0)
        let open = try table.scroll(TableScrollTests.cells(60), ScrollInput(height: 20, y: 0, now: 0), view: &view)
        #expect(open.contentHeight == 1 + 5 + 9)
        // A group that is not there, and a path too long, are refused.
        #expect(throws: TableError.self) { try table.setCollapsed(true, .group([.text("C1")]), view: 1) }
        #expect(throws: TableError.self) {
            try table.setCollapsed(true, .group([.text("A1"), .text("2024-03-01"), .text("x")]), view: 1)
        }
    }

    static let racks = ["A1", "A2", "B1"]
    static let dates = ["2024-03-01", "2024-03-02", "2024-03-03"]

    static func date(_ text: String) throws -> CellValue {
        try ColumnRules(type: .date).parse(.text(text))
    }

    static func randomRow(_ random: inout SeededRandom) -> RowInput {
        var values: [String: CellInput] = [
            "item": .text("item \(random.next() % 50)"),
            "rack": .text(racks[Int(random.next() % 3)]),
            "received": .text(dates[Int(random.next() % 3)]),
        ]
        if random.next() % 5 != 0 { values["qty"] = .number(Double(random.next() % 300)) }
        return RowInput(values: values)
    }
}
