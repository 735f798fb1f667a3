import Foundation
import Glibc
import Testing

/// Sequences that once lost rows or stopped a restart, each run against a daemon with a state
/// directory, restarted, and the tables read back: images that could not be read back, a
/// change made through a view that replayed without it, and an undo that took back what someone
/// else did while the table was private.
@Suite struct ReplayRegressionTests {
    /// The rows of `table` in order, each as its `line` (or `item`) value.
    static func lines(_ table: String, _ client: UnixClient, column: String = "line") throws -> [String] {
        let reply = try client.call("get", #"{"table":"\#(table)","count":10000}"#)
        return (reply["rows"] as? [[String: Any]] ?? []).map { row in
            ((row["values"] as? [String: Any])?[column] as? String) ?? "?"
        }
    }

    /// Starts a daemon on `state`, runs `requests` on one connection (each must succeed), stops
    /// it with `signal`, starts it again and returns it; the restart must not be refused.
    static func restarted(
        _ state: Scratch,
        _ extra: [String] = [],
        signal: Int32 = SIGTERM,
        _ requests: [(String, String)]
    ) throws -> TestDaemon {
        let arguments = ["--state-dir", state.path, "--fsync", "always"] + extra
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            for (method, params) in requests {
                let reply = try client.call(method, params)
                #expect(reply["code"] == nil, "\(method) \(params): \(reply)")
            }
            _ = daemon.process.stop(signal: signal)
        }
        let again = try TestDaemon(arguments: arguments)
        #expect(!again.process.output.contains("did not come out"), "\(again.process.output)")
        return again
    }

    static func numbered(_ count: Int, column: String = "line", prefix: String = "r") -> String {
        (0..<count).map { #"{"\#(column)":"\#(prefix)\#($0)"}"# }.joined(separator: ",")
    }

    /// Case 1: a load with `replace` into an unkeyed table whose ids ran past its rows.
    @Test(arguments: [SIGTERM, SIGKILL])
    func anUnkeyedTableGivenAReplaceReadsBack(signal: Int32) throws {
        let state = try Scratch()
        defer { state.remove() }
        let daemon = try Self.restarted(
            state,
            signal: signal,
            [
                ("create", #"{"table":"feed","columns":[{"key":"line"}],"rows":[\#(Self.numbered(50))]}"#),
                ("load", #"{"table":"feed","replace":true,"text":"line\nx\n"}"#),
            ]
        )
        #expect(try Self.lines("feed", daemon.connect()) == ["x"])
    }

    /// Case 1, the other ways it was seen: an unkeyed table mostly deleted, a rolling table
    /// given a replace, an unkeyed rolling table, and no undo history at all after deletes;
    /// each snapshotted (a tiny compaction threshold) and restarted.
    @Test(arguments: ["0", "100"])
    func unkeyedRollingAndReplacedTablesReadBackFromASnapshot(undoDepth: String) throws {
        let state = try Scratch()
        defer { state.remove() }
        let ids = (3...48).map(String.init).joined(separator: ",")
        let daemon = try Self.restarted(
            state,
            ["--compact-after-bytes", "4096", "--undo-depth", undoDepth],
            [
                ("create", #"{"table":"sparse","columns":[{"key":"line"}],"rows":[\#(Self.numbered(50))]}"#),
                ("delete", #"{"table":"sparse","ids":[\#(ids)]}"#),
                ("create", #"{"table":"roll","columns":[{"key":"line"}],"limit":5,"rows":[\#(Self.numbered(9))]}"#),
                ("add", #"{"table":"roll","rows":[\#(Self.numbered(4, prefix: "n"))]}"#),
                ("load", #"{"table":"roll","replace":true,"text":"line\ny\nz\n"}"#),
                ("add", #"{"table":"roll","rows":[\#(Self.numbered(6, prefix: "m"))]}"#),
                ("add", #"{"table":"sparse","rows":[\#(Self.numbered(60, prefix: "pad-pad-pad-pad-pad-"))]}"#),
            ]
        )
        let client = try daemon.connect()
        let sparse = try Self.lines("sparse", client)
        #expect(sparse.prefix(5) == ["r0", "r1", "r48", "r49", "pad-pad-pad-pad-pad-0"])
        #expect(sparse.count == 64)
        #expect(try Self.lines("roll", client) == ["m1", "m2", "m3", "m4", "m5"])
        #expect(FileManager.default.fileExists(atPath: state.path + "/snapshot"))
    }

    /// Case 1 with text keys: shelves keyed by bin, about 10 KB of changes with a 4 KB compaction
    /// threshold, so snapshots (whose undo history names rows by short text keys) replace logs.
    @Test func textKeysInTheUndoHistoryReadBackFromASnapshot() throws {
        let state = try Scratch()
        defer { state.remove() }
        let bins = ["A", "B", "C", "D", "E"].flatMap { letter in (1...5).map { "\(letter)\($0)" } }
        var requests: [(String, String)] = [
            ("create", #"{"table":"shelves","key":"bin","columns":[{"key":"bin"},{"key":"qty","type":"number"}]}"#)
        ]
        requests += bins.map { ("add", #"{"table":"shelves","row":{"bin":"\#($0)","qty":1}}"#) }
        for round in 0..<40 {
            let bin = bins[round % bins.count]
            requests.append(("edit", #"{"table":"shelves","id":"\#(bin)","column":"qty","value":\#(round)}"#))
            if round % 4 == 0 {
                requests.append(("delete", #"{"table":"shelves","ids":["\#(bin)"]}"#))
                requests.append(("undo", #"{"table":"shelves"}"#))
            }
        }
        requests += bins.prefix(10).map { ("delete", #"{"table":"shelves","ids":["\#($0)"]}"#) }
        let daemon = try Self.restarted(state, ["--compact-after-bytes", "4096"], requests)
        let client = try daemon.connect()
        let got = try Self.lines("shelves", client, column: "bin")
        #expect(got.count == 15, "\(got)")
        // The history came through too: the last delete can still be taken back.
        let undone = try client.call("undo", #"{"table":"shelves"}"#)
        #expect((undone["restored"] as? [String])?.count == 1, "\(undone)")
    }

    /// Case 2: a delete of the selection seen through a view's filter removes those rows only,
    /// and a restart (which has no view) brings back the same table.
    @Test(arguments: [SIGTERM, SIGKILL])
    func aDeleteThroughAViewReplaysAsTheRowsItDeleted(signal: Int32) throws {
        let state = try Scratch()
        defer { state.remove() }
        let rows = #"[{"item":"a","qty":1},{"item":"b","qty":2},{"item":"c","qty":3},{"item":"d","qty":4}]"#
        let daemon = try Self.restarted(
            state,
            signal: signal,
            [
                ("create", #"{"table":"v","columns":[{"key":"item"},{"key":"qty","type":"number"}],"rows":\#(rows)}"#),
                ("select", #"{"table":"v","action":"all"}"#),
                ("filter", #"{"table":"v","where":[{"column":"qty","op":">=","value":3}]}"#),
                ("delete", #"{"table":"v","selection":true,"view":true}"#),
                ("edit", #"{"table":"v","selection":true,"view":false,"column":"qty","value":9}"#),
            ]
        )
        let client = try daemon.connect()
        #expect(try Self.lines("v", client, column: "item") == ["a", "b"])
        let rowsBack = try client.call("get", #"{"table":"v"}"#)["rows"] as? [[String: Any]] ?? []
        #expect(rowsBack.map { ($0["values"] as? [String: Any])?["qty"] as? Double } == [9, 9])
        #expect((try client.call("selection", #"{"table":"v"}"#))["count"] as? Int == 2)
    }
}

/// Case 3: undo belongs to who made the change, and a change of owner or mode is a barrier no
/// undo crosses; two throwaway users against one daemon run as root.
@Suite(
    .enabled(
        if: getuid() == 0 && which("runuser") != nil && which("socat") != nil && which("useradd") != nil,
        "needs root, runuser, socat and useradd"
    ),
    .serialized
)
struct UndoOwnershipTests {
    static func line(_ method: String, _ params: String) -> String {
        #"{"id":1,"method":"\#(method)","params":\#(params)}"#
    }

    @Test func undoNeverTakesBackAnotherUsersChangeNorReachesPastAChmod() throws {
        let carol = try ThrowawayUser("c")
        let dave = try ThrowawayUser("d")
        let state = try Scratch()
        defer { state.remove() }
        let daemon = try FileAccessTests.rootDaemon(["--state-dir", state.path])
        let root = try daemon.connect()
        let d = try UserClient(as: dave.name, socket: daemon.socketPath)

        // Root's private table: a row deleted and a column dropped while only root could see.
        try root.call(
            "create",
            #"{"table":"w","mode":"0600","columns":[{"key":"item"},{"key":"secret"}],"rows":[{"item":"public","secret":"s1"},{"item":"SECRET","secret":"s2"}]}"#
        )
        try root.call("delete", #"{"table":"w","ids":[2]}"#)
        try root.call("alter", #"{"table":"w","drop":["secret"]}"#)
        let opened = try root.call("chmod", #"{"table":"w","mode":"0666"}"#)
        #expect(opened["mode"] as? String == "0666", "\(opened)")
        let undone = d.request(Self.line("undo", #"{"table":"w"}"#))
        #expect(try errorKind(undone) == "nothing_to_undo", "\(undone ?? "")")
        // Not even root's own undo reaches back past the change of mode.
        #expect(try errorKind(daemon.request(Self.line("undo", #"{"table":"w"}"#))) == "nothing_to_undo")
        let described = try object(d.request(Self.line("describe", #"{"table":"w"}"#)))["result"] as? [String: Any]
        #expect((described?["columns"] as? [[String: Any]])?.map { $0["key"] as? String } == ["item"])
        let rows = try object(d.request(Self.line("get", #"{"table":"w"}"#)))["result"] as? [String: Any]
        #expect((rows?["rows"] as? [Any])?.count == 1)

        // On a shared table each user takes back only their own change, and only while it is
        // the newest.
        let c = try UserClient(as: carol.name, socket: daemon.socketPath)
        try root.call("create", #"{"table":"shared","mode":"0666","columns":[{"key":"item"}],"rows":[{"item":"x"}]}"#)
        #expect(
            try errorKind(c.request(Self.line("edit", #"{"table":"shared","id":1,"column":"item","value":"carol"}"#)))
                == nil
        )
        #expect(try errorKind(d.request(Self.line("add", #"{"table":"shared","row":{"item":"dave"}}"#))) == nil)
        let behind = try object(c.request(Self.line("undo", #"{"table":"shared"}"#)))
        let error = behind["error"] as? [String: Any]
        #expect((error?["data"] as? [String: Any])?["kind"] as? String == "conflict", "\(behind)")
        #expect((error?["data"] as? [String: Any])?["author"] as? Int == Int(dave.uid), "\(behind)")
        #expect(try errorKind(d.request(Self.line("undo", #"{"table":"shared"}"#))) == nil)
        #expect(try errorKind(c.request(Self.line("undo", #"{"table":"shared"}"#))) == nil)
        let back = try object(c.request(Self.line("get", #"{"table":"shared"}"#)))["result"] as? [String: Any]
        let items = (back?["rows"] as? [[String: Any]])?.map { ($0["values"] as? [String: Any])?["item"] as? String }
        #expect(items == ["x"])

        // After a restart the history still knows whose each change was.
        #expect(try errorKind(c.request(Self.line("redo", #"{"table":"shared"}"#))) == nil)
        _ = daemon.process.stop(signal: SIGKILL)
        let again = try FileAccessTests.rootDaemon(["--state-dir", state.path])
        let d2 = try UserClient(as: dave.name, socket: again.socketPath)
        let c2 = try UserClient(as: carol.name, socket: again.socketPath)
        #expect(try errorKind(d2.request(Self.line("undo", #"{"table":"shared"}"#))) == "nothing_to_undo")
        #expect(try errorKind(c2.request(Self.line("undo", #"{"table":"shared"}"#))) == nil)
        #expect(try errorKind(d2.request(Self.line("redo", #"{"table":"shared"}"#))) == "conflict")
    }
}

extension ReplayRegressionTests {
    /// A daemon started with another `--undo-depth` than the one that wrote the log: the log
    /// replays with the history it was written with, and the new depth holds from then on, so
    /// the next restart finds the same history.
    @Test func aNewUndoDepthTakesEffectWhereTheDaemonStartedWithIt() throws {
        let state = try Scratch()
        defer { state.remove() }
        var edits: [(String, String)] = [
            ("create", #"{"table":"h","columns":[{"key":"n","type":"number"}],"rows":[{"n":0}]}"#)
        ]
        edits += (1...6).map { ("edit", #"{"table":"h","id":1,"column":"n","value":\#($0)}"#) }
        // Written with a depth of 2: the last two edits can be taken back.
        _ = try Self.restarted(state, ["--undo-depth", "2"], signal: SIGKILL, edits)
        // Started with a depth of 5, then one more edit: the two kept and the new one can be
        // taken back, not the edits the first daemon had forgotten; and the same after another
        // start.
        let deeper = try Self.restarted(
            state,
            ["--undo-depth", "5"],
            signal: SIGKILL,
            [("edit", #"{"table":"h","id":1,"column":"n","value":7}"#)]
        )
        _ = deeper.process.stop(signal: SIGKILL)
        let again = try TestDaemon(arguments: ["--state-dir", state.path, "--undo-depth", "5"])
        let client = try again.connect()
        var undone: [Double] = []
        while (try client.call("undo", #"{"table":"h"}"#))["code"] == nil {
            let row = try client.call("get", #"{"table":"h"}"#)["rows"] as? [[String: Any]]
            undone.append((row?.first?["values"] as? [String: Any])?["n"] as? Double ?? -1)
        }
        #expect(undone == [6, 5, 4])
    }
}
