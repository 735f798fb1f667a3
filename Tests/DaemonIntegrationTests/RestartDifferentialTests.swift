import DataTableProtocol
import Foundation
import TestSupport
import Testing

/// A restart that cannot be fooled: a reference client sends the same random requests (every
/// changing method with its options, through two connections with their own views) to two
/// daemons, one keeping its tables in a state directory and one in memory only. Now and then the
/// first is stopped (SIGTERM or SIGKILL) and started again on its directory; then every table of
/// the two must be the same as a client reads them: columns, rows in order with ids, values,
/// drafts, row versions and read-only cells, the selection, sort, versions, column states, owner
/// and mode, and the undo history (both are asked to undo, and must agree again).
///
/// Failures name the seed and the step; the requests are in the test's own generator, so a seed
/// replays exactly.
@Suite(.tags(.slow)) struct RestartDifferentialTests {
    struct Pair {
        var kept: [UnixClient]
        var memory: [UnixClient]
    }

    static let tables: [(name: String, create: CreateRequest)] = [
        (
            "keyed",
            CreateRequest(
                table: "keyed",
                columns: [
                    ColumnDefinition(key: "bin"), ColumnDefinition(key: "item", maxLength: 10),
                    ColumnDefinition(key: "qty", type: .number, min: 0), ColumnDefinition(key: "when", type: .date),
                    ColumnDefinition(key: "ok", type: .boolean),
                    ColumnDefinition(key: "grade", type: .picker, options: ["Low", "Mid", "High"]),
                ],
                key: "bin"
            )
        ),
        (
            "numbers",
            CreateRequest(
                table: "numbers",
                columns: [ColumnDefinition(key: "n", type: .number), ColumnDefinition(key: "note")],
                key: "n"
            )
        ),
        (
            "feed",
            CreateRequest(
                table: "feed",
                columns: [
                    ColumnDefinition(key: "line"), ColumnDefinition(key: "qty", type: .number),
                    ColumnDefinition(key: "at", type: .datetime),
                ],
                limit: 30
            )
        ),
    ]

    @Test(arguments: [UInt64(3601), 3602, 3603])
    func tablesAfterEveryRestartEqualTablesThatNeverStopped(seed: UInt64) throws {
        let state = try Scratch()
        defer { state.remove() }
        let keptArguments = [
            "--state-dir", state.path, "--fsync", "always", "--compact-after-bytes", "40000", "--undo-depth", "6",
        ]
        var kept = try TestDaemon(arguments: keptArguments)
        let memory = try TestDaemon(arguments: ["--undo-depth", "6"])
        var pair = Pair(
            kept: [try kept.connect(), try kept.connect()],
            memory: [try memory.connect(), try memory.connect()]
        )
        for table in Self.tables {
            #expect(try Self.both(&pair, 0, table.create, "seed \(seed) create") == "ok")
        }
        var random = SeededRandom(seed: seed)
        var restarts = 0
        var kills = 0
        var refusedStarts = 0
        var differences = 0
        for step in 0..<1200 {
            let request = Self.request(&random, step: step)
            let connection = Int(random.next() % 2)
            try Self.both(&pair, connection, request, "seed \(seed) step \(step)")
            guard step % 150 == 149 else { continue }
            // Stop the daemon that keeps its tables, start it again, and compare.
            let signal = restarts % 2 == 0 ? SIGKILL : SIGTERM
            if signal == SIGKILL { kills += 1 }
            _ = kept.process.stop(signal: signal)
            do {
                kept = try TestDaemon(arguments: keptArguments)
            } catch {
                refusedStarts += 1
                Issue.record("seed \(seed) step \(step): the daemon did not start again: \(error)")
                return
            }
            restarts += 1
            #expect(
                !kept.process.output.contains("did not come out"),
                "seed \(seed) step \(step): \(kept.process.output)"
            )
            // Views end with their connections, on both sides.
            pair = Pair(
                kept: [try kept.connect(), try kept.connect()],
                memory: [try memory.connect(), try memory.connect()]
            )
            differences += try Self.compare(
                pair,
                "seed \(seed) step \(step), restart \(restarts) after \(signal == SIGKILL ? "SIGKILL" : "SIGTERM")"
            )
            // The undo history came back too: taking back the last changes agrees, step by step.
            for undo in 0..<Int(random.next() % 4) {
                let table = Self.tables[Int(random.next() % 3)].name
                try Self.both(&pair, 0, UndoRequest(table: table), "seed \(seed) step \(step) undo \(undo)")
            }
            differences += try Self.compare(pair, "seed \(seed) step \(step), after undoing")
        }
        #expect(restarts == 8)
        print(
            "restart differential, seed \(seed): 1200 requests, \(restarts) restarts (\(kills) by SIGKILL), "
                + "\(refusedStarts) refused starts, \(differences) tables that differed"
        )
    }

    /// Sends `request` to both daemons on connection `index`; both must answer alike (a result
    /// on both, or the same kind of error). Returns how the first answered: `ok`, or the error's kind.
    @discardableResult
    static func both<Request: DataTableRequest>(
        _ pair: inout Pair,
        _ index: Int,
        _ request: Request,
        _ place: String
    ) throws -> String {
        let kept = try outcome(of: request, on: pair.kept[index])
        let memory = try outcome(of: request, on: pair.memory[index])
        #expect(kept.kind == memory.kind, "\(place): \(request) answered \(kept.reply) and \(memory.reply)")
        return kept.kind
    }

    /// How `client` answered `request`: `ok` and the result, or the error's kind and the error.
    static func outcome<Request: DataTableRequest>(
        of request: Request,
        on client: UnixClient
    ) throws -> (kind: String, reply: String) {
        do {
            let response = try client.send(request)
            return ("ok", "\(response)")
        } catch let error as ResponseError {
            return (error.kind.rawValue, "\(error)")
        }
    }

    /// Every table of both daemons, as a client reads them, must be the same; returns 1 when
    /// they differ (and records where), else 0.
    static func compare(_ pair: Pair, _ place: String) throws -> Int {
        let kept = try look(pair.kept[0])
        let memory = try look(pair.memory[0])
        #expect(kept.count == memory.count, "\(place): \(kept.count) lines against \(memory.count)")
        for (left, right) in zip(kept, memory) where left != right {
            Issue.record("\(place): after the restart\n  \(left)\nwithout one\n  \(right)")
            return 1
        }
        return kept.count == memory.count ? 0 : 1
    }

    /// Every table as a client reads it, one line per table setting and per row.
    static func look(_ client: UnixClient) throws -> [String] {
        var lines: [String] = []
        for table in tables.map(\.name) {
            lines.append(try canonical(try client.send(DescribeRequest(table: table))))
            lines.append(try canonical(try client.send(SelectionRequest(table: table))))
            lines.append(try canonical(try client.send(ColumnStateRequest(table: table))))
            for var row in try client.send(GetRequest(table: table, count: 10000)).rows {
                // How strongly a row is highlighted as new depends on the clock, not on the table.
                row.highlight = nil
                lines.append(try canonical(row))
            }
        }
        return lines
    }

    /// `value` as JSON text, keys sorted.
    static func canonical(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    // MARK: Requests

    /// One random request: every changing method, with its options, good and bad.
    static func request(_ random: inout SeededRandom, step: Int) -> any DataTableRequest {
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        func number(_ value: UInt64) -> JSONValue { .integer(Int64(value)) }
        let table = pick(tables.map(\.name))
        let bin = JSONValue.string("\(pick(["A", "B", "C"]))\(random.next() % 12)")
        let id = table == "keyed" ? bin : number(random.next() % 40)
        func row() -> JSONValue {
            switch table {
            case "keyed":
                let qty = random.next() % 9 == 0 ? "many" : number(random.next() % 90)
                let date =
                    random.next() % 9 == 0 ? "2024-02-31" : "2024-0\(1 + random.next() % 9)-1\(random.next() % 9)"
                return [
                    "bin": bin, "item": .string("i\(step)"), "qty": qty, "when": .string(date),
                    "ok": .bool(random.next() % 2 == 0), "grade": .string(pick(["Low", "Mid", "High"])),
                ]
            case "numbers": return ["n": number(random.next() % 40), "note": .string("n\(step)")]
            default:
                return [
                    "line": .string("l\(step)"), "qty": number(random.next() % 50),
                    "at": .string("2025-05-0\(1 + random.next() % 9)T10:00:00+02:00"),
                ]
            }
        }
        let column = table == "keyed" ? pick(["qty", "item", "when", "grade"]) : (table == "numbers" ? "note" : "qty")
        func value() -> JSONValue {
            switch column {
            case "qty": random.next() % 6 == 0 ? "lots" : number(random.next() % 70)
            case "when": .string("2024-0\(1 + random.next() % 9)-0\(1 + random.next() % 9)")
            case "grade": .string(pick(["Low", "High", "Huge"]))
            default: .string("v\(step)")
            }
        }
        let view: Bool? = random.next() % 2 == 0 ? true : nil
        switch random.next() % 30 {
        case 0, 1, 2, 3:
            let rows = (0..<(1 + random.next() % 3)).map { _ in row() }
            let upsert: Bool? = table != "feed" && random.next() % 3 == 0 ? true : nil
            return AddRequest(table: table, rows: rows, upsert: upsert)
        case 4, 5, 6: return EditRequest(table: table, id: id, column: column, value: value())
        case 7:
            let edits = (0..<2).map { _ in
                EditRequest.Change(
                    id: table == "keyed"
                        ? .string("\(pick(["A", "B"]))\(random.next() % 12)") : number(random.next() % 40),
                    column: column,
                    value: value()
                )
            }
            return EditRequest(table: table, edits: edits)
        case 8: return EditRequest(table: table, column: column, value: value(), selection: true, view: view)
        case 9: return random.next() % 2 == 0 ? RevertRequest(table: table) : RevertRequest(table: table, id: id)
        case 10, 11: return DeleteRequest(table: table, ids: [id])
        case 12: return DeleteRequest(table: table, selection: true, view: view)
        case 13:
            if random.next() % 5 == 0 { return ClearRequest(table: table) }
            return DeleteRequest(table: table, ids: [id])
        case 14, 15:
            var select = SelectRequest(table: table, action: pick([.set, .add, .remove, .toggle]))
            if random.next() % 2 == 0 {
                select.ids = [id]
            } else {
                select.from = Int(random.next() % 3)
                select.count = Int(random.next() % 4)
                select.view = view
            }
            if random.next() % 6 == 0 { select.mode = pick([.single, .multiple, RowSelectionMode.none]) }
            return select
        case 16: return SelectRequest(table: table, action: pick([.all, SelectionAction.none]), view: view)
        case 17:
            let condition: [FilterTermParam] =
                table == "keyed"
                ? [.condition(column: "qty", op: .greaterOrEqualASCII, value: number(random.next() % 60))]
                : [.condition(column: column, op: .notEmpty)]
            return random.next() % 4 == 0
                ? FilterRequest(table: table, where: [], search: "") : FilterRequest(table: table, where: condition)
        case 18:
            let keys =
                random.next() % 4 == 0 ? [] : [SortKeyParam(column: column, descending: random.next() % 2 == 0)]
            return SortRequest(table: table, keys: keys)
        case 19, 20: return UndoRequest(table: table)
        case 21: return RedoRequest(table: table)
        case 22:
            switch random.next() % 5 {
            case 0:
                return AlterRequest(
                    table: table,
                    add: [ColumnDefinition(key: "x\(step)")],
                    values: ["x\(step)": .string("f\(step)")]
                )
            case 1: return AlterRequest(table: table, readOnly: random.next() % 3 == 0)
            case 2 where table == "keyed":
                return AlterRequest(
                    table: table,
                    change: [ColumnDefinition(key: "qty", type: .number, min: number(random.next() % 50))],
                    keepAsDrafts: true
                )
            case 3 where table == "feed": return AlterRequest(table: table, limit: 10 + Int(random.next() % 30))
            default: return AlterRequest(table: table, drop: ["x\(step - 1)"])
            }
        case 23:
            if random.next() % 3 == 0 {
                return ColumnStateRequest(table: table, name: "s\(random.next() % 3)", delete: true)
            }
            return ColumnStateRequest(
                table: table,
                name: "s\(random.next() % 3)",
                save: ColumnState(columnOrder: [column])
            )
        case 24: return ChmodRequest(table: table, mode: pick(["0660", "0600", "0644"]))
        case 25 where table == "numbers":
            let lines = (0..<(random.next() % 6)).map { _ in "\(random.next() % 40),r\(step)" }
            return LoadRequest(
                table: table,
                text: "n,note\n" + lines.joined(separator: "\n") + "\n",
                replace: random.next() % 2 == 0
            )
        case 26 where table == "feed":
            let lines = (0..<(1 + random.next() % 5)).map { _ in "r\(step),\(random.next() % 9),2025-01-01T00:00:00Z" }
            return LoadRequest(
                table: table,
                text: "line,qty,at\n" + lines.joined(separator: "\n") + "\n",
                replace: random.next() % 2 == 0
            )
        case 27:
            return EditRequest(
                table: table,
                id: id,
                column: column,
                value: value(),
                ifVersion: Int(random.next() % 200)
            )
        default:
            let rows = (0..<(1 + random.next() % 2)).map { _ in row() }
            return AddRequest(table: table, rows: rows)
        }
    }
}
