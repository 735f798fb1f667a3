import DataTableEngine
import Foundation
import TestSupport
import Testing

@testable import DataTableServer

/// Random sequences of every change a table takes (adds, upserts, edits good and refused,
/// reverts, deletes, clears, selections, modes, sorts, undo and redo by several authors, alters,
/// column states, owners, replaces), on keyed and unkeyed tables, text and number keys, rolling
/// or not, at undo depths down to 0. After every step the table goes through its image (as a
/// snapshot keeps it) and through its change's log record (as the log keeps it):
/// - the image reads back as the same table, byte for byte when written again, and as a person
///   sees it;
/// - the change, written and read back, made on the table as it was before, gives the same
///   table again.
///
/// Each failure names the seed, the step and the change, so it can be run again alone.
@Suite struct ImageRoundTripTests {
    enum Key: String, CaseIterable, Sendable { case none, number, text }

    struct Setup: Sendable, CustomStringConvertible {
        var key: Key
        var limit: Int?
        var undoDepth: Int
        var seed: UInt64
        var description: String {
            "key \(key) limit \(limit.map(String.init) ?? "none") depth \(undoDepth) seed \(seed)"
        }
    }

    static let setups: [Setup] = {
        var setups: [Setup] = []
        var seed: UInt64 = 36
        for key in Key.allCases {
            for limit in [nil, 12] as [Int?] {
                for depth in [0, 1, 5, 100] {
                    seed += 1
                    setups.append(Setup(key: key, limit: limit, undoDepth: depth, seed: seed))
                }
            }
        }
        return setups
    }()

    static let steps = 250

    static func newTable(_ setup: Setup) throws -> Table {
        var columns = [
            Column(key: "item", label: "Item", rules: try ColumnRules(type: .text, maxLength: 12)),
            Column(key: "qty", label: "Qty", rules: try ColumnRules(type: .number, minimum: .number(0))),
            Column(key: "when", rules: try ColumnRules(type: .date)),
            Column(key: "at", rules: try ColumnRules(type: .datetime)),
            Column(key: "ok", rules: try ColumnRules(type: .boolean)),
            Column(key: "grade", rules: try ColumnRules(type: .picker, options: ["Low", "Mid", "High"])),
            Column(
                key: "worth",
                label: "Worth",
                expression: ColumnExpression(source: "qty * 2 + if(ok, 1, 0)", decimals: 1)
            ),
            Column(key: "tag", expression: ColumnExpression(source: "upper(item) & ':' & [Worth] & ' ' & grade")),
        ]
        switch setup.key {
        case .none: break
        case .number: columns.insert(Column(key: "bin", rules: try ColumnRules(type: .number)), at: 0)
        case .text: columns.insert(Column(key: "bin", rules: try ColumnRules(type: .text)), at: 0)
        }
        var table = try Table(
            name: "t\(setup.seed)",
            columns: columns,
            key: setup.key == .none ? nil : "bin",
            limit: setup.limit
        )
        table.undoDepth = setup.undoDepth
        return table
    }

    /// A random key: few enough that upserts and duplicates meet, text keys like shelf bins.
    static func key(_ setup: Setup, _ random: inout SeededRandom) -> CellInput {
        let number = random.next() % 60
        return setup.key == .number
            ? .number(Double(number)) : .text("\(["A", "B", "C", "D", "E"][Int(number % 5)])\(number)")
    }

    static func value(of column: Column, _ random: inout SeededRandom, serial: Int) -> CellInput {
        let bad = random.next() % 9 == 0
        switch column.rules.type {
        case .number: return bad ? .text("lots") : .number(Double(random.next() % 500) / 4)
        case .date: return bad ? .text("2024-13-40") : .text("2024-0\(1 + random.next() % 9)-1\(random.next() % 9)")
        case .datetime:
            return .text("2025-0\(1 + random.next() % 9)-0\(1 + random.next() % 9)T1\(random.next() % 9):30:00Z")
        case .boolean: return .boolean(random.next() % 2 == 0)
        case .picker: return .text(bad ? "Huge" : column.rules.options[Int(random.next() % 3)])
        default: return bad ? .text(String(repeating: "x", count: 20)) : .text("v\(serial)-\(random.next() % 99)")
        }
    }

    static func row(_ table: Table, _ setup: Setup, _ random: inout SeededRandom, serial: Int) -> RowInput {
        var values: [String: CellInput] = [:]
        for column in table.columns where column.key != "bin" && !column.isComputed && random.next() % 4 != 0 {
            values[column.key] = value(of: column, &random, serial: serial)
        }
        if table.keyColumn != nil { values["bin"] = key(setup, &random) }
        var row = RowInput(values: values)
        if random.next() % 8 == 0, let last = table.columns.last { row.readOnlyCells = [last.key: true] }
        if random.next() % 11 == 0 { row.readOnly = true }
        if random.next() % 6 == 0 { row.drillDown = random.next() % 2 == 0 }
        return row
    }

    /// One random change, or `nil` for a replace (a load with `replace`), which has no change
    /// record: its log record is the table's image.
    static func change(_ table: Table, _ setup: Setup, _ random: inout SeededRandom, serial: Int) -> TableChange? {
        let ids = table.rows(from: 0, count: table.rowCount).map(\.id)
        func someID() -> RowID { ids.isEmpty ? .number(1) : ids[Int(random.next() % UInt64(ids.count))] }
        let author: UInt32 = [0, 1000, 1001][Int(random.next() % 3)]
        let editable = table.columns.filter { $0.key != "bin" && !$0.isComputed }
        let kind: TableChange.Kind
        switch random.next() % 24 {
        case 0, 1, 2:
            let rows = (0..<(1 + Int(random.next() % 4))).map { _ in row(table, setup, &random, serial: serial) }
            let index =
                table.sortKeys.isEmpty && random.next() % 3 == 0 ? Int(random.next() % UInt64(ids.count + 1)) : nil
            kind = .add(rows, index: index)
        case 3:
            kind = .upsert((0..<(1 + Int(random.next() % 3))).map { _ in row(table, setup, &random, serial: serial) })
        case 4, 5, 6:
            kind = .edit(
                (0..<(1 + Int(random.next() % 3))).map { _ in
                    let column = editable[Int(random.next() % UInt64(editable.count))]
                    return CellEdit(id: someID(), column: column.key, input: value(of: column, &random, serial: serial))
                }
            )
        case 7:
            kind = .revert(
                id: random.next() % 3 == 0 ? nil : someID(),
                column: random.next() % 2 == 0 ? nil : editable[Int(random.next() % UInt64(editable.count))].key
            )
        case 8, 9: kind = .delete((0..<(1 + Int(random.next() % 3))).map { _ in someID() })
        case 10: kind = random.next() % 4 == 0 ? .clear : .delete([someID()])
        case 11:
            let action = SelectAction.allCases[Int(random.next() % 4)]
            let target: RowTarget =
                switch random.next() % 4 {
                case 0: .ids(ids.filter { _ in random.next() % 3 == 0 })
                case 1: .range(from: 0, count: min(ids.count, Int(random.next() % 5)))
                case 2: .all
                default: .none
                }
            kind = .select(action, target, mode: random.next() % 5 == 0 ? .multiple : nil)
        case 12: kind = .selectionMode(SelectionMode.allCases[Int(random.next() % 3)])
        case 13:
            kind = .sort(
                random.next() % 4 == 0
                    ? []
                    : [
                        SortKey(
                            column: editable[Int(random.next() % UInt64(editable.count))].key,
                            descending: random.next() % 2 == 0
                        )
                    ]
            )
        case 14, 15, 16: kind = .undo
        case 17: kind = .redo
        case 18, 19:
            var alteration = TableAlteration()
            switch random.next() % 6 {
            case 0:
                let computed = random.next() % 3 == 0
                alteration.add = [
                    NewColumn(
                        column: computed
                            ? Column(
                                key: "extra\(serial)",
                                expression: ColumnExpression(source: "coalesce(qty, 0) + 1")
                            )
                            : Column(key: "extra\(serial)", rules: try! ColumnRules(type: .text)),
                        index: random.next() % 2 == 0 ? nil : Int(random.next() % UInt64(table.columns.count + 1)),
                        value: random.next() % 2 == 0 || computed ? .null : .text("x\(serial)")
                    )
                ]
            case 1:
                if let extra = table.columns.first(where: { $0.key.hasPrefix("extra") }) {
                    alteration.drop = [extra.key]
                } else {
                    alteration.readOnly = random.next() % 2 == 0
                }
            case 2:
                if let extra = table.columns.first(where: { $0.key.hasPrefix("extra") }) {
                    alteration.rename = [(extra.key, "extra\(serial)")]
                } else {
                    alteration.limit = random.next() % 2 == 0 ? 0 : 8 + Int(random.next() % 10)
                }
            case 3:
                let qty = Column(
                    key: "qty",
                    label: "Qty \(serial)",
                    rules: try! ColumnRules(type: .number, minimum: .number(Double(random.next() % 60)))
                )
                alteration.change = [qty]
                alteration.keepBrokenAsDrafts = random.next() % 2 == 0
            case 4:
                if random.next() % 2 == 0 {
                    alteration.readOnly = random.next() % 3 == 0
                } else {
                    let factor = 1 + random.next() % 4
                    alteration.change = [
                        Column(
                            key: "worth",
                            label: "Worth",
                            expression: ColumnExpression(source: "qty * \(factor) + if(ok, 1, 0)", decimals: 1)
                        )
                    ]
                }
            default: alteration.limit = random.next() % 2 == 0 ? 0 : 5 + Int(random.next() % 20)
            }
            kind = .alter(alteration)
        case 20:
            kind =
                random.next() % 3 == 0
                ? .deleteColumnState(name: "s\(random.next() % 3)")
                : .saveColumnState(name: "s\(random.next() % 3)", state: "{\"columnOrder\":[\"qty\"]}")
        case 21:
            kind = .access(
                TableAccess(
                    owner: [0, 1000][Int(random.next() % 2)],
                    group: 0,
                    mode: [0o660, 0o600, 0o644][Int(random.next() % 3)]
                )
            )
        case 22: return nil
        default: kind = .edit([CellEdit(id: someID(), column: "qty", input: .number(Double(serial)))])
        }
        return TableChange(kind, by: author)
    }

    /// A replace: a new set of rows by CSV, some keys old and some new.
    static func replace(_ table: inout Table, _ setup: Setup, _ random: inout SeededRandom) {
        var lines = [table.columns.map(\.key).joined(separator: ",")]
        for _ in 0..<Int(random.next() % 8) {
            lines.append(
                table.columns.map { column -> String in
                    switch column.key {
                    case "bin":
                        if case .number(let number) = key(setup, &random) { return NumberText.plain(number) }
                        if case .text(let text) = key(setup, &random) { return text }
                        return ""
                    case "qty": return "\(random.next() % 40)"
                    case "item": return "r\(random.next() % 9)"
                    default: return ""
                    }
                }.joined(separator: ",")
            )
        }
        guard
            let loaded = try? TableLoader.parse(
                lines.joined(separator: "\n") + "\n",
                format: .csv,
                columns: table.columns
            )
        else { return }
        _ = try? table.replaceRows(with: loaded)
    }

    @Test(arguments: setups)
    func everyStepReadsBackFromItsImageAndItsLogRecord(_ setup: Setup) throws {
        var random = SeededRandom(seed: setup.seed)
        var table = try Self.newTable(setup)
        for step in 0..<Self.steps {
            let before = table
            let place = Comment(rawValue: "\(setup), step \(step)")
            guard let change = Self.change(table, setup, &random, serial: step) else {
                Self.replace(&table, setup, &random)
                try check(table, place)
                continue
            }
            _ = try? table.apply(change)
            try check(table, Comment(rawValue: "\(place.rawValue), after \(change.kind)"))
            // The log's record of the change, read back and made again on the table before.
            let record = change.encoded(coder: TableImageCoding.columnCoder)
            let read = try TableChange(decoding: record[...], coder: TableImageCoding.columnCoder)
            #expect(read.encoded(coder: TableImageCoding.columnCoder) == record, place)
            var replayed = before
            _ = try? replayed.apply(read)
            #expect(
                TableImageCoding.encode(replayed) == TableImageCoding.encode(table),
                "\(place.rawValue): replaying \(change.kind) gave another table"
            )
        }
    }

    /// A table restored from its image now and then (as a restart restores it) and the table
    /// that never was, given the same changes, stay the same table: nothing that decides what a
    /// later change does is left out of the image.
    @Test(arguments: setups)
    func aRestoredTableGoesOnAsTheTableThatNeverStopped(_ setup: Setup) throws {
        var random = SeededRandom(seed: setup.seed &+ 1000)
        var table = try Self.newTable(setup)
        var restored = table
        for step in 0..<Self.steps {
            if random.next() % 10 == 0 {
                restored = try TableImageCoding.decode(TableImageCoding.encode(restored)[...])
                restored.undoDepth = setup.undoDepth
            }
            let place = "\(setup), step \(step)"
            guard let change = Self.change(table, setup, &random, serial: step) else {
                var fork = random
                Self.replace(&table, setup, &random)
                Self.replace(&restored, setup, &fork)
                continue
            }
            _ = try? table.apply(change)
            _ = try? restored.apply(change)
            guard TableImageCoding.encode(restored) == TableImageCoding.encode(table) else {
                Issue.record(
                    "\(place): after \(change.kind) the restored table differs\n\(Self.look(restored))\n\(Self.look(table))"
                )
                return
            }
        }
    }

    /// The image of `table` reads back: byte for byte when written again, and as a person sees it.
    func check(_ table: Table, _ comment: Comment) throws {
        let image = TableImageCoding.encode(table)
        do {
            try TableImageCoding.verify(image[...])
        } catch {
            Issue.record("\(comment.rawValue): \(error)")
            throw error
        }
        let back = try TableImageCoding.decode(image[...])
        #expect(Self.look(back) == Self.look(table), comment)
    }

    /// What a person sees of a table: its settings, and every row in order with id, version,
    /// values, drafts, read-only cells and selection.
    static func look(_ table: Table) -> [String] {
        var lines = [
            table.columns.map { "\($0.key):\($0.label):\($0.rules.type.rawValue)" }.joined(separator: " "),
            "v\(table.version) readOnly \(table.readOnly) limit \(table.rowLimit.map(String.init) ?? "-") "
                + "mode \(table.selectionMode) selected \(table.selectedIDs()) errors \(table.errorCount) "
                + "undo \(table.canUndo) redo \(table.canRedo) sort \(table.sortKeys) access \(table.access) "
                + "states \(table.columnStates.sorted { $0.key < $1.key })",
        ]
        for row in table.rows(from: 0, count: table.rowCount) {
            let drafts = row.drafts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.text)" }
            lines.append("\(row.id) v\(row.version) \(row.values) \(drafts) \(row.readOnly) \(row.selected)")
        }
        return lines
    }
}
