import DataTableClient
import DataTableProtocol
import Foundation
import Glibc
import Testing

/// Sequences that once lost rows or stopped a restart, each run against a daemon with a state
/// directory, restarted, and the tables read back: images that could not be read back, a
/// change made through a view that replayed without it, and an undo that took back what someone
/// else did while the table was private.
@Suite(.tags(.slow)) struct ReplayRegressionTests {
    /// The rows of `table` in order, each as its `line` (or `item`) value.
    static func lines(_ table: String, _ client: UnixClient, column: String = "line") throws -> [String] {
        try client.send(GetRequest(table: table, count: 10000)).rows.map { $0.values[column]?.stringValue ?? "?" }
    }

    /// Starts a daemon on `state`, runs `requests` on one connection (each must succeed), stops
    /// it with `signal`, starts it again and returns it; the restart must not be refused.
    static func restarted(
        _ state: Scratch,
        _ extra: [String] = [],
        signal: Int32 = SIGTERM,
        _ requests: [any DataTableRequest]
    ) throws -> TestDaemon {
        let arguments = ["--state-dir", state.path, "--fsync", "always"] + extra
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            for request in requests {
                do {
                    try client.send(request)
                } catch let error as ResponseError {
                    Issue.record("\(request): \(error)")
                }
            }
            _ = daemon.process.stop(signal: signal)
        }
        let again = try TestDaemon(arguments: arguments)
        #expect(!again.process.output.contains("did not come out"), "\(again.process.output)")
        return again
    }

    /// `count` rows, each with `column` set to `prefix` and its number.
    static func numbered(_ count: Int, column: String = "line", prefix: String = "r") -> [JSONValue] {
        (0..<count).map { [column: .string("\(prefix)\($0)")] }
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
                CreateRequest(table: "feed", columns: [ColumnDefinition(key: "line")], rows: Self.numbered(50)),
                LoadRequest(table: "feed", text: "line\nx\n", replace: true),
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
        let line = [ColumnDefinition(key: "line")]
        let daemon = try Self.restarted(
            state,
            ["--compact-after-bytes", "4096", "--undo-depth", undoDepth],
            [
                CreateRequest(table: "sparse", columns: line, rows: Self.numbered(50)),
                DeleteRequest(table: "sparse", ids: (3...48).map { .integer(Int64($0)) }),
                CreateRequest(table: "roll", columns: line, rows: Self.numbered(9), limit: 5),
                AddRequest(table: "roll", rows: Self.numbered(4, prefix: "n")),
                LoadRequest(table: "roll", text: "line\ny\nz\n", replace: true),
                AddRequest(table: "roll", rows: Self.numbered(6, prefix: "m")),
                AddRequest(table: "sparse", rows: Self.numbered(60, prefix: "pad-pad-pad-pad-pad-")),
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
        var requests: [any DataTableRequest] = [
            CreateRequest(
                table: "shelves",
                columns: [ColumnDefinition(key: "bin"), ColumnDefinition(key: "qty", type: .number)],
                key: "bin"
            )
        ]
        for bin in bins { requests.append(AddRequest(table: "shelves", row: ["bin": .string(bin), "qty": 1])) }
        for round in 0..<40 {
            let bin = bins[round % bins.count]
            requests.append(
                EditRequest(table: "shelves", id: .string(bin), column: "qty", value: .integer(Int64(round)))
            )
            if round % 4 == 0 {
                requests.append(DeleteRequest(table: "shelves", ids: [.string(bin)]))
                requests.append(UndoRequest(table: "shelves"))
            }
        }
        for bin in bins.prefix(10) { requests.append(DeleteRequest(table: "shelves", ids: [.string(bin)])) }
        let daemon = try Self.restarted(state, ["--compact-after-bytes", "4096"], requests)
        let client = try daemon.connect()
        let got = try Self.lines("shelves", client, column: "bin")
        #expect(got.count == 15, "\(got)")
        // The history came through too: the last delete can still be taken back.
        let undone = try client.send(UndoRequest(table: "shelves"))
        #expect(undone.restored == [.string(bins[9])], "\(undone)")
    }

    /// Case 2: a delete of the selection seen through a view's filter removes those rows only,
    /// and a restart (which has no view) brings back the same table.
    @Test(arguments: [SIGTERM, SIGKILL])
    func aDeleteThroughAViewReplaysAsTheRowsItDeleted(signal: Int32) throws {
        let state = try Scratch()
        defer { state.remove() }
        let rows: [JSONValue] = [
            ["item": "a", "qty": 1], ["item": "b", "qty": 2], ["item": "c", "qty": 3], ["item": "d", "qty": 4],
        ]
        let daemon = try Self.restarted(
            state,
            signal: signal,
            [
                CreateRequest(
                    table: "v",
                    columns: [ColumnDefinition(key: "item"), ColumnDefinition(key: "qty", type: .number)],
                    rows: rows
                ),
                SelectRequest(table: "v", action: .all),
                FilterRequest(
                    table: "v",
                    where: [.condition(column: "qty", op: .greaterOrEqualASCII, value: 3)]
                ),
                DeleteRequest(table: "v", selection: true, view: true),
                EditRequest(table: "v", column: "qty", value: 9, selection: true, view: false),
            ]
        )
        let client = try daemon.connect()
        #expect(try Self.lines("v", client, column: "item") == ["a", "b"])
        let rowsBack = try client.send(GetRequest(table: "v")).rows
        #expect(rowsBack.map { $0.values["qty"]?.doubleValue } == [9, 9])
        #expect(try client.send(SelectionRequest(table: "v")).count == 2)
    }
}

/// Case 3: undo belongs to who made the change, and a change of owner or mode is a barrier no
/// undo crosses; two throwaway users against one daemon run as root.
@Suite(
    .tags(.slow),
    .enabled(
        if: getuid() == 0 && which("runuser") != nil && which("socat") != nil && which("useradd") != nil,
        "needs root, runuser, socat and useradd"
    ),
    .serialized
)
struct UndoOwnershipTests {
    @Test func undoNeverTakesBackAnotherUsersChangeNorReachesPastAChmod() throws {
        let carol = try ThrowawayUser("c")
        let dave = try ThrowawayUser("d")
        let state = try Scratch()
        defer { state.remove() }
        let daemon = try FileAccessTests.rootDaemon(["--state-dir", state.path])
        let root = try daemon.connect()
        let d = try UserClient(as: dave.name, socket: daemon.socketPath)

        // Root's private table: a row deleted and a column dropped while only root could see.
        try root.send(
            CreateRequest(
                table: "w",
                columns: [ColumnDefinition(key: "item"), ColumnDefinition(key: "secret")],
                rows: [["item": "public", "secret": "s1"], ["item": "SECRET", "secret": "s2"]],
                mode: "0600"
            )
        )
        try root.send(DeleteRequest(table: "w", ids: [2]))
        try root.send(AlterRequest(table: "w", drop: ["secret"]))
        let opened = try root.send(ChmodRequest(table: "w", mode: "0666"))
        #expect(opened.mode == "0666", "\(opened)")
        let undone = try d.failure(UndoRequest(table: "w"))
        #expect(undone.kind == .nothingToUndo, "\(undone)")
        // Not even root's own undo reaches back past the change of mode.
        #expect(try daemon.connect().failure(UndoRequest(table: "w")).kind == .nothingToUndo)
        let described = try d.send(DescribeRequest(table: "w"))
        #expect(described.columns.map(\.key) == ["item"])
        #expect(try d.send(GetRequest(table: "w")).rows.count == 1)

        // On a shared table each user takes back only their own change, and only while it is
        // the newest.
        let c = try UserClient(as: carol.name, socket: daemon.socketPath)
        try root.send(
            CreateRequest(
                table: "shared",
                columns: [ColumnDefinition(key: "item")],
                rows: [["item": "x"]],
                mode: "0666"
            )
        )
        try c.send(EditRequest(table: "shared", id: 1, column: "item", value: "carol"))
        try d.send(AddRequest(table: "shared", row: ["item": "dave"]))
        let behind = try c.failure(UndoRequest(table: "shared"))
        #expect(behind.kind == .conflict, "\(behind)")
        #expect(behind.details["author"] == .integer(Int64(dave.uid)), "\(behind)")
        try d.send(UndoRequest(table: "shared"))
        try c.send(UndoRequest(table: "shared"))
        let back = try c.send(GetRequest(table: "shared"))
        #expect(back.rows.map { $0.values["item"] } == ["x"])

        // After a restart the history still knows whose each change was.
        try c.send(RedoRequest(table: "shared"))
        _ = daemon.process.stop(signal: SIGKILL)
        let again = try FileAccessTests.rootDaemon(["--state-dir", state.path])
        let d2 = try UserClient(as: dave.name, socket: again.socketPath)
        let c2 = try UserClient(as: carol.name, socket: again.socketPath)
        #expect(try d2.failure(UndoRequest(table: "shared")).kind == .nothingToUndo)
        try c2.send(UndoRequest(table: "shared"))
        #expect(try d2.failure(RedoRequest(table: "shared")).kind == .conflict)
    }
}

extension ReplayRegressionTests {
    /// A daemon started with another `--undo-depth` than the one that wrote the log: the log
    /// replays with the history it was written with, and the new depth holds from then on, so
    /// the next restart finds the same history.
    @Test func aNewUndoDepthTakesEffectWhereTheDaemonStartedWithIt() throws {
        let state = try Scratch()
        defer { state.remove() }
        var edits: [any DataTableRequest] = [
            CreateRequest(table: "h", columns: [ColumnDefinition(key: "n", type: .number)], rows: [["n": 0]])
        ]
        for value in 1...6 { edits.append(EditRequest(table: "h", id: 1, column: "n", value: .integer(Int64(value)))) }
        // Written with a depth of 2: the last two edits can be taken back.
        _ = try Self.restarted(state, ["--undo-depth", "2"], signal: SIGKILL, edits)
        // Started with a depth of 5, then one more edit: the two kept and the new one can be
        // taken back, not the edits the first daemon had forgotten; and the same after another
        // start.
        let deeper = try Self.restarted(
            state,
            ["--undo-depth", "5"],
            signal: SIGKILL,
            [EditRequest(table: "h", id: 1, column: "n", value: 7)]
        )
        _ = deeper.process.stop(signal: SIGKILL)
        let again = try TestDaemon(arguments: ["--state-dir", state.path, "--undo-depth", "5"])
        let client = try again.connect()
        var undone: [Double] = []
        while true {
            do {
                try client.send(UndoRequest(table: "h"))
            } catch let error as ResponseError {
                #expect(error.kind == .nothingToUndo, "\(error)")
                break
            }
            let row = try client.send(GetRequest(table: "h")).rows.first
            undone.append(row?.values["n"]?.doubleValue ?? -1)
        }
        #expect(undone == [6, 5, 4])
    }
}

/// Requests by their types on another user's connection.
extension UserClient {
    /// Sends `request` and returns its typed result; an error reply throws its ``ResponseError``.
    @discardableResult
    fileprivate func send<Request: DataTableRequest>(_ request: Request) throws -> Request.Response {
        let reply = try reply(to: request)
        if let error = reply.error { throw error }
        return try decoded(Request.Response.self, from: reply.result ?? .null)
    }

    /// Sends `request`, which must fail, and returns its error. A success fails the test.
    fileprivate func failure<Request: DataTableRequest>(
        _ request: Request,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ResponseError {
        let reply = try reply(to: request)
        return try #require(
            reply.error,
            "\(Request.method) succeeded: \(reply.result ?? .null)",
            sourceLocation: sourceLocation
        )
    }

    private func reply<Request: DataTableRequest>(to request: Request) throws -> ReplyMessage {
        let line = try #require(self.request(LineConnection.line(for: request, id: 1)), "no reply to \(Request.method)")
        return try JSONDecoder().decode(ReplyMessage.self, from: Data(line.utf8))
    }
}
