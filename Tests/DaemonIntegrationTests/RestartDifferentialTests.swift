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
@Suite struct RestartDifferentialTests {
    struct Pair {
        var kept: [UnixClient]
        var memory: [UnixClient]
    }

    static let tables: [(name: String, create: String)] = [
        (
            "keyed",
            #"""
            {"table":"keyed","key":"bin","columns":[{"key":"bin"},{"key":"item","maxLength":10},\#
            {"key":"qty","type":"number","minimum":0},{"key":"when","type":"date"},{"key":"ok","type":"boolean"},\#
            {"key":"grade","type":"picker","options":["Low","Mid","High"]}]}
            """#
        ),
        ("numbers", #"{"table":"numbers","key":"n","columns":[{"key":"n","type":"number"},{"key":"note"}]}"#),
        (
            "feed",
            #"{"table":"feed","limit":30,"columns":[{"key":"line"},{"key":"qty","type":"number"},{"key":"at","type":"datetime"}]}"#
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
        for table in Self.tables { try Self.both(&pair, 0, "create", table.create, "seed \(seed) create") }
        var random = SeededRandom(seed: seed)
        var restarts = 0
        var kills = 0
        var refusedStarts = 0
        var differences = 0
        for step in 0..<1200 {
            let (method, params) = Self.request(&random, step: step)
            let connection = Int(random.next() % 2)
            try Self.both(&pair, connection, method, params, "seed \(seed) step \(step)")
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
                try Self.both(&pair, 0, "undo", #"{"table":"\#(table)"}"#, "seed \(seed) step \(step) undo \(undo)")
            }
            differences += try Self.compare(pair, "seed \(seed) step \(step), after undoing")
        }
        #expect(restarts == 8)
        print(
            "restart differential, seed \(seed): 1200 requests, \(restarts) restarts (\(kills) by SIGKILL), "
                + "\(refusedStarts) refused starts, \(differences) tables that differed"
        )
    }

    /// Sends the request to both daemons on connection `index`; both must answer alike (a result
    /// on both, or the same kind of error).
    static func both(_ pair: inout Pair, _ index: Int, _ method: String, _ params: String, _ place: String) throws {
        let kept = try pair.kept[index].call(method, params)
        let memory = try pair.memory[index].call(method, params)
        let kinds = [kept, memory].map {
            ($0["data"] as? [String: Any])?["kind"] as? String ?? ($0["code"] != nil ? "error" : "ok")
        }
        #expect(kinds[0] == kinds[1], "\(place): \(method) \(params) answered \(kept) and \(memory)")
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
            var described = try client.call("describe", #"{"table":"\#(table)"}"#)
            described["table"] = nil
            lines.append(try canonical(described))
            lines.append(try canonical(try client.call("selection", #"{"table":"\#(table)"}"#)))
            lines.append(try canonical(try client.call("columnState", #"{"table":"\#(table)"}"#)))
            let rows = try client.call("get", #"{"table":"\#(table)","count":10000}"#)["rows"] as? [[String: Any]] ?? []
            for var row in rows {
                // How strongly a row is highlighted as new depends on the clock, not on the table.
                row["highlight"] = nil
                row["addedAt"] = nil
                lines.append(try canonical(row))
            }
        }
        return lines
    }

    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    // MARK: Requests

    /// One random request: every changing method, with its options, good and bad.
    static func request(_ random: inout SeededRandom, step: Int) -> (String, String) {
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        let table = pick(tables.map(\.name))
        let bin = #""\#(pick(["A", "B", "C"]))\#(random.next() % 12)""#
        let id = table == "keyed" ? bin : "\(random.next() % 40)"
        func row() -> String {
            switch table {
            case "keyed":
                let qty = random.next() % 9 == 0 ? #""many""# : "\(random.next() % 90)"
                let date =
                    random.next() % 9 == 0 ? "2024-02-31" : "2024-0\(1 + random.next() % 9)-1\(random.next() % 9)"
                return
                    #"{"bin":\#(bin),"item":"i\#(step)","qty":\#(qty),"when":"\#(date)","ok":\#(random.next() % 2 == 0),"grade":"\#(pick(["Low", "Mid", "High"]))"}"#
            case "numbers": return #"{"n":\#(random.next() % 40),"note":"n\#(step)"}"#
            default:
                return
                    #"{"line":"l\#(step)","qty":\#(random.next() % 50),"at":"2025-05-0\#(1 + random.next() % 9)T10:00:00+02:00"}"#
            }
        }
        let column = table == "keyed" ? pick(["qty", "item", "when", "grade"]) : (table == "numbers" ? "note" : "qty")
        func value() -> String {
            switch column {
            case "qty": random.next() % 6 == 0 ? #""lots""# : "\(random.next() % 70)"
            case "when": #""2024-0\#(1 + random.next() % 9)-0\#(1 + random.next() % 9)""#
            case "grade": pick([#""Low""#, #""High""#, #""Huge""#])
            default: #""v\#(step)""#
            }
        }
        let view = random.next() % 2 == 0 ? #","view":true"# : ""
        let t = #""table":"\#(table)""#
        switch random.next() % 30 {
        case 0, 1, 2, 3:
            let rows = (0..<(1 + random.next() % 3)).map { _ in row() }.joined(separator: ",")
            let upsert = table != "feed" && random.next() % 3 == 0 ? #","upsert":true"# : ""
            return ("add", #"{\#(t),"rows":[\#(rows)]\#(upsert)}"#)
        case 4, 5, 6: return ("edit", #"{\#(t),"id":\#(id),"column":"\#(column)","value":\#(value())}"#)
        case 7:
            let edits = (0..<2).map { _ in
                #"{"id":\#(table == "keyed" ? #""\#(pick(["A", "B"]))\#(random.next() % 12)""# : "\(random.next() % 40)"),"column":"\#(column)","value":\#(value())}"#
            }
            return ("edit", #"{\#(t),"edits":[\#(edits.joined(separator: ","))]}"#)
        case 8: return ("edit", #"{\#(t),"selection":true,"column":"\#(column)","value":\#(value())\#(view)}"#)
        case 9: return ("revert", random.next() % 2 == 0 ? #"{\#(t)}"# : #"{\#(t),"id":\#(id)}"#)
        case 10, 11: return ("delete", #"{\#(t),"ids":[\#(id)]}"#)
        case 12: return ("delete", #"{\#(t),"selection":true\#(view)}"#)
        case 13: return random.next() % 5 == 0 ? ("clear", #"{\#(t)}"#) : ("delete", #"{\#(t),"ids":[\#(id)]}"#)
        case 14, 15:
            let action = pick(["set", "add", "remove", "toggle"])
            let target =
                random.next() % 2 == 0
                ? #""ids":[\#(id)]"# : #""from":\#(random.next() % 3),"count":\#(random.next() % 4)\#(view)"#
            let mode = random.next() % 6 == 0 ? #","mode":"\#(pick(["single", "multiple", "none"]))""# : ""
            return ("select", #"{\#(t),"action":"\#(action)",\#(target)\#(mode)}"#)
        case 16: return ("select", #"{\#(t),"action":"\#(pick(["all", "none"]))"\#(view)}"#)
        case 17:
            let condition =
                table == "keyed"
                ? #"[{"column":"qty","op":">=","value":\#(random.next() % 60)}]"#
                : #"[{"column":"\#(column)","op":"notEmpty"}]"#
            return (
                "filter",
                random.next() % 4 == 0 ? #"{\#(t),"where":[],"search":""}"# : #"{\#(t),"where":\#(condition)}"#
            )
        case 18:
            let keys =
                random.next() % 4 == 0 ? "[]" : #"[{"column":"\#(column)","descending":\#(random.next() % 2 == 0)}]"#
            return ("sort", #"{\#(t),"keys":\#(keys)}"#)
        case 19, 20: return ("undo", #"{\#(t)}"#)
        case 21: return ("redo", #"{\#(t)}"#)
        case 22:
            switch random.next() % 5 {
            case 0: return ("alter", #"{\#(t),"add":[{"key":"x\#(step)"}],"values":{"x\#(step)":"f\#(step)"}}"#)
            case 1: return ("alter", #"{\#(t),"readOnly":\#(random.next() % 3 == 0)}"#)
            case 2 where table == "keyed":
                return (
                    "alter",
                    #"{\#(t),"change":[{"key":"qty","type":"number","minimum":\#(random.next() % 50)}],"keepAsDrafts":true}"#
                )
            case 3 where table == "feed": return ("alter", #"{\#(t),"limit":\#(10 + random.next() % 30)}"#)
            default: return ("alter", #"{\#(t),"drop":["x\#(step - 1)"]}"#)
            }
        case 23:
            return random.next() % 3 == 0
                ? ("columnState", #"{\#(t),"name":"s\#(random.next() % 3)","delete":true}"#)
                : ("columnState", #"{\#(t),"name":"s\#(random.next() % 3)","save":{"columnOrder":["\#(column)"]}}"#)
        case 24: return ("chmod", #"{\#(t),"mode":"\#(pick(["0660", "0600", "0644"]))"}"#)
        case 25 where table == "numbers":
            let lines = (0..<(random.next() % 6)).map { _ in "\(random.next() % 40),r\(step)" }
            return (
                "load",
                #"{\#(t),"replace":\#(random.next() % 2 == 0),"text":"n,note\n\#(lines.joined(separator: "\\n"))\n"}"#
            )
        case 26 where table == "feed":
            let lines = (0..<(1 + random.next() % 5)).map { _ in "r\(step),\(random.next() % 9),2025-01-01T00:00:00Z" }
            return (
                "load",
                #"{\#(t),"replace":\#(random.next() % 2 == 0),"text":"line,qty,at\n\#(lines.joined(separator: "\\n"))\n"}"#
            )
        case 27:
            return (
                "edit",
                #"{\#(t),"id":\#(id),"column":"\#(column)","value":\#(value()),"ifVersion":\#(random.next() % 200)}"#
            )
        default:
            let rows = (0..<(1 + random.next() % 2)).map { _ in row() }.joined(separator: ",")
            return ("add", #"{\#(t),"rows":[\#(rows)]}"#)
        }
    }
}
