import TestSupport
import Testing

@testable import DataTableEngine

/// Every change of every kind goes through one flow: what it did is taken in by every derived
/// structure when it ends, and told as a keyed change set. After each random change, each
/// derived structure equals one worked out from scratch, and ``Table/lastChange`` equals the
/// difference between the table before and after.
@Suite struct ChangeFlowTests {
    static let racks = TableFilterTests.racks

    static func table() throws -> Table {
        try Table(
            name: "stock",
            columns: [
                Column(key: "sku", rules: try ColumnRules(type: .text)),
                Column(key: "item", rules: try ColumnRules(type: .text), layout: ColumnLayout(lines: 2)),
                Column(key: "qty", rules: try ColumnRules(type: .number)),
                Column(key: "rack", rules: try ColumnRules(type: .picker, options: racks)),
            ],
            key: "sku"
        )
    }

    /// A row with a fresh key (or `sku`), its item sometimes long enough to wrap.
    static func row(_ random: inout SeededRandom, sku: String? = nil, next: inout Int) -> RowInput {
        let words = ["Valve", "valve seat with a long gasket ring", "Pump", "Gauge", "Bolt", "pipe"]
        next += 1
        var values: [String: CellInput] = [
            "sku": .text(sku ?? "S\(next)"),
            "item": .text(words[Int(random.next() % UInt64(words.count))]),
            "rack": .text(racks[Int(random.next() % UInt64(racks.count))]),
        ]
        if random.next() % 5 != 0 { values["qty"] = .number(Double(random.next() % 300)) }
        return RowInput(values: values)
    }

    /// Every row's id and cells, by id.
    static func contents(_ table: Table) -> [RowID: [String: CellValue]] {
        var rows: [RowID: [String: CellValue]] = [:]
        for slot in table.orderSlots(from: 0, limit: table.rowCount) {
            var cells: [String: CellValue] = [:]
            for (index, column) in table.columns.enumerated() { cells[column.key] = table.stores[index][slot] }
            rows[table.id(of: slot)] = cells
        }
        return rows
    }

    /// Heights of `slots` under `rule`, worked out now.
    static func heights(_ table: Table, _ slots: [UInt32], _ rule: RowHeightRule) -> [Int] {
        slots.map { table.height(of: $0, under: rule) }
    }

    static func kept(_ index: OffsetIndex) -> [Int] { (0..<index.count).map { index.height(at: $0) } }

    /// Checks every derived structure of `table` against one worked out from scratch.
    static func checkDerived(_ table: Table, step: Int, seed: UInt64) {
        let note = Comment(rawValue: "seed \(seed), after step \(step)")
        let order = table.orderSlots(from: 0, limit: table.rowCount)
        for kept in table.keptOffsets {
            #expect(Self.kept(kept.index) == heights(table, order, kept.rule), note)
        }
        for filtered in table.filters {
            let expected = order.filter { filtered.filter.admits($0, in: table) }
            #expect(filtered.rows.allSlots == expected, note)
            for kept in filtered.keptOffsets {
                #expect(Self.kept(kept.index) == heights(table, expected, kept.rule), note)
            }
        }
        for sectioned in table.sections {
            let descending =
                table.sortKeys.first.map {
                    $0.descending && table.columnIndex(of: $0.column) == sectioned.spec.column
                } ?? false
            let expected = TableSectionTests.reference(
                table,
                column: sectioned.spec.column,
                filter: sectioned.filter,
                descending: descending
            )
            #expect(TableSectionTests.same(TableSectionTests.kept(table, id: sectioned.id), expected), note)
            for kept in sectioned.keptOffsets {
                #expect(Self.kept(kept.index) == heights(table, sectioned.rows.allSlots, kept.rule), note)
            }
        }
        if !table.contentWidths.isEmpty {
            var fresh = table
            fresh.contentWidths = []
            for kept in table.contentWidths {
                let measured = ContentWidths(measure: kept.measure, wrapping: Array(kept.rowWidths.keys), table: fresh)
                #expect(measured.columns.map(\.widest) == kept.columns.map(\.widest), note)
                for (column, widths) in kept.rowWidths {
                    let live = order.map { Int(widths.count > Int($0) ? widths[Int($0)] : 0) }
                    #expect(live == order.map { measured.width(slot: $0, column: column) }, note)
                }
            }
        }
    }

    /// Checks ``Table/lastChange`` against the table before and after the change.
    static func checkChange(
        _ change: ChangeSet,
        before: [RowID: [String: CellValue]],
        after: [RowID: [String: CellValue]],
        versions: (UInt64, UInt64),
        step: Int,
        seed: UInt64
    ) {
        let note = Comment(rawValue: "seed \(seed), after step \(step)")
        #expect(change.from == versions.0 && change.version == versions.1, note)
        let came = Set(after.keys).subtracting(before.keys)
        let went = Set(before.keys).subtracting(after.keys)
        #expect(Set(change.removed).isSuperset(of: went), note)
        #expect(
            Set(change.removed).subtracting(went).allSatisfy { after[$0] != nil && change.added.contains($0) },
            note
        )
        guard !change.wholesale && !change.schema else { return }
        #expect(Set(change.added).isSuperset(of: came), note)
        var changed: [String: Set<RowID>] = [:]
        for (id, cells) in after {
            guard let old = before[id], !change.added.contains(id) else { continue }
            for (key, value) in cells where old[key] != value { changed[key, default: []].insert(id) }
        }
        #expect(change.cells.mapValues(Set.init) == changed, note)
    }

    @Test(.tags(.slow), arguments: [UInt64(1), 2, 3, 4])
    func derivedStructuresAndTheChangeSetFollowEveryKindOfChange(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var next = 0
        var table = try Self.table()
        _ = try table.add((0..<120).map { _ in Self.row(&random, next: &next) }, now: 0)
        // Derived structures of every kind: widths and offsets of the whole table, two views
        // with filters, sections of a filtered view and of the whole table, and their offsets.
        let options = TableScrollTests.cells(40)
        var plain = ViewState()
        let qty = try RowFilter([.init(column: "qty", operator: .less, values: [.number(150)])], in: table)
        let search = try RowFilter([], search: "valve", in: table)
        table.setFilter(qty, id: 7)
        table.setFilter(search, id: 8)
        table.setSections(SectionSpec(columns: [3], style: .plain), id: 7, within: 7)
        table.setSections(SectionSpec(columns: [3], style: .grouped), id: 9, within: nil)
        var views = [plain, ViewState(), ViewState(), ViewState()]
        views[1].filter = 7
        views[1].sections = 7
        views[2].filter = 8
        views[3].sections = 9
        func look() throws {
            _ = try table.scroll(options, ScrollInput(height: 12, now: 0), view: &plain)
            for index in views.indices {
                _ = try table.scroll(options, ScrollInput(height: 12, now: 0), view: &views[index])
            }
        }
        try look()
        // Views that do not look (as a live window is worked out again): their counts of new
        // rows, kept from one scroll to the next, must equal a count from the start.
        var watching = views + [ViewState()]
        for index in watching.indices {
            _ = try table.scroll(options, ScrollInput(height: 12, now: 0), view: &watching[index])
        }
        for step in 0..<300 {
            let before = Self.contents(table)
            let version = table.version
            let ids = table.orderSlots(from: 0, limit: table.rowCount).map(table.id(of:))
            func someIDs(_ count: Int) -> [RowID] { Array(ids.shuffled(using: &random).prefix(count)) }
            let kind = random.next() % 16
            do {
                switch kind {
                case 0, 1:
                    let index =
                        table.sortKeys.isEmpty && random.next() % 2 == 0
                        ? Int(random.next() % UInt64(ids.count + 1)) : nil
                    _ = try table.add(
                        (0..<Int(1 + random.next() % 4)).map { _ in Self.row(&random, next: &next) },
                        at: index,
                        now: 0
                    )
                case 2, 3:
                    let edits = someIDs(Int(1 + random.next() % 6)).map { id in
                        switch random.next() % 3 {
                        case 0: CellEdit(id: id, column: "qty", input: .number(Double(random.next() % 300)))
                        case 1: CellEdit(id: id, column: "rack", input: .text(Self.racks[Int(random.next() % 5)]))
                        default: CellEdit(id: id, column: "item", input: Self.row(&random, next: &next).values["item"]!)
                        }
                    }
                    _ = try table.edit(edits)
                case 4:
                    // A draft: text in a number column is refused and kept on the cell.
                    _ = try? table.edit(someIDs(1).map { CellEdit(id: $0, column: "qty", input: .text("lots")) })
                case 5:
                    _ = try table.revert(id: nil, column: nil)
                case 6:
                    let count = random.next() % 12 == 0 ? ids.count / 2 : Int(1 + random.next() % 3)
                    _ = try table.delete(someIDs(count))
                case 7:
                    let keys: [[SortKey]] = [
                        [], [SortKey(column: "qty")], [SortKey(column: "rack", descending: true)],
                        [SortKey(column: "item", descending: true), SortKey(column: "qty")],
                    ]
                    try table.sort(by: keys[Int(random.next() % 4)])
                case 8:
                    let existing = someIDs(2).map { id -> RowInput in
                        var row = Self.row(&random, next: &next)
                        if case .text(let sku) = id { row.values["sku"] = .text(sku) }
                        return row
                    }
                    _ = try table.upsert(existing + [Self.row(&random, next: &next)], now: 0)
                case 9:
                    try table.select(.toggle, .ids(someIDs(3)))
                case 10, 11:
                    if random.next() % 2 == 0, table.canRedo {
                        _ = try table.redo()
                    } else if table.canUndo {
                        _ = try table.undo()
                    }
                case 12:
                    var csv = "sku,item,qty,rack\n"
                    for _ in 0..<Int(1 + random.next() % 20) {
                        next += 1
                        csv += "L\(next),loaded valve,\(random.next() % 300),\(Self.racks[Int(random.next() % 5)])\n"
                    }
                    _ = try table.append(try TableLoader.parse(csv, format: .csv, columns: table.columns))
                case 13 where random.next() % 3 == 0:
                    var csv = "sku,item,qty,rack\n"
                    for id in ids.prefix(Int(random.next() % UInt64(ids.count + 1))) {
                        csv +=
                            "\(id),kept \(random.next() % 4),\(random.next() % 300),\(Self.racks[Int(random.next() % 5)])\n"
                    }
                    _ = try table.replaceRows(with: try TableLoader.parse(csv, format: .csv, columns: table.columns))
                case 14:
                    var alteration = TableAlteration()
                    alteration.limit = random.next() % 2 == 0 ? 90 + Int(random.next() % 60) : nil
                    _ = try table.alter(alteration)
                default:
                    // Widths and offsets asked for again, as a renderer does.
                    try look()
                }
            } catch let error as TableError {
                // A refused change changes nothing (but its drafts).
                _ = error
            }
            Self.checkDerived(table, step: step, seed: seed)
            for index in watching.indices {
                var input = ScrollInput(height: 12, now: 0)
                input.looks = false
                var fresh = watching[index]
                fresh.newRows = nil
                var copy = table
                let counted = try table.scroll(options, input, view: &watching[index])
                let recounted = try copy.scroll(options, input, view: &fresh)
                #expect(
                    counted.newAbove == recounted.newAbove && counted.hiddenNew == recounted.hiddenNew,
                    "seed \(seed), after step \(step) (change \(kind)): view \(index) kept \(counted.newAbove), \(counted.hiddenNew.map(String.init) ?? "-"); counted again \(recounted.newAbove), \(recounted.hiddenNew.map(String.init) ?? "-")"
                )
                if random.next() % 25 == 0 {
                    // Now and then a viewer scrolls: rows added before are no longer new.
                    _ = try table.scroll(options, ScrollInput(height: 12, now: 0), view: &watching[index])
                }
            }
            // A view's kept plan, while it is taken as current, is the plan a layout makes now
            // (but the row count and content height, which a window takes from the rows).
            for view in [plain] + views {
                let inset = table.insetOptions(options, view: view)
                guard var kept = table.currentPlan(inset, view: view) else { continue }
                var fresh = table
                var made = try fresh.layout(inset)
                (kept.rowCount, kept.contentHeight, kept.twoLineRows) = (0, 0, 0)
                (made.rowCount, made.contentHeight, made.twoLineRows) = (0, 0, 0)
                #expect(kept == made, "seed \(seed), after step \(step)")
            }
            if table.version != version {
                Self.checkChange(
                    table.lastChange,
                    before: before,
                    after: Self.contents(table),
                    versions: (version, table.version),
                    step: step,
                    seed: seed
                )
            }
        }
    }
}
