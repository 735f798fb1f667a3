import DataTableClient
import DataTableProtocol
import Foundation
import Synchronization
import Testing

/// `--state-dir`: what was acknowledged comes back after `kill -9`, a restart restores every
/// table as it was, a torn last record is dropped with a warning and a damaged snapshot stops
/// the start with a clear message.
@Suite(.tags(.slow)) struct DurabilityTests {
    /// Rounds of: writers add rows as fast as the daemon acknowledges them, the daemon is killed
    /// with SIGKILL at a random moment, restarted on the same directory, and every row is read
    /// back. A small compaction threshold makes snapshots happen during the load, so some kills
    /// land in the middle of one.
    @Test(arguments: ["always", "everysec", "no"])
    func acknowledgedRowsSurviveKill9(fsync: String) throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path, "--fsync", fsync, "--compact-after-bytes", "200000"]
        var sentInAll: Set<String> = []
        var recoveredBefore: Set<String> = []
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let created = try daemon.connect().send(
                CreateRequest(
                    table: "feed",
                    columns: [
                        ColumnDefinition(key: "k"), ColumnDefinition(key: "n", type: .number),
                        ColumnDefinition(key: "note"),
                    ],
                    key: "k"
                )
            )
            try #require(created.version == 1)
            _ = daemon.process.stop(signal: SIGKILL)
        }
        for round in 1...3 {
            let daemon = try TestDaemon(arguments: arguments)
            let (acknowledged, sent) = try Self.writeUntilKilled(daemon, round: round)
            sentInAll.formUnion(sent)
            let restarted = try TestDaemon(arguments: arguments)
            let recovered = try Self.keys(in: "feed", of: restarted)
            #expect(!restarted.process.output.contains("did not come out"), "\(restarted.process.output)")
            let lost = acknowledged.subtracting(recovered)
            print(
                """
                kill -9 (--fsync \(fsync)) round \(round): \(acknowledged.count) rows acknowledged, \
                \(acknowledged.count - lost.count) recovered, \(lost.count) lost; \(recovered.count) rows in all
                """
            )
            let invented = recovered.subtracting(sentInAll)
            #expect(invented.isEmpty, "rows nobody sent: \(Array(invented.prefix(5)))")
            let vanished = recoveredBefore.subtracting(recovered)
            #expect(vanished.isEmpty, "rows an earlier restart brought back are gone: \(Array(vanished.prefix(5)))")
            recoveredBefore = recovered
            // A reply waits until its change is written, under every policy: a crash of the daemon
            // loses nothing acknowledged (the policy decides what a crash of the machine may).
            #expect(lost.isEmpty, "acknowledged rows lost: \(Array(lost.prefix(5)))")
            _ = restarted.process.stop(signal: SIGKILL)
        }
    }

    /// Four connections add rows until the daemon dies, at a random moment up to 0.9 s after the
    /// first rows were acknowledged.
    /// Returns the keys acknowledged, and every key sent.
    private static func writeUntilKilled(_ daemon: TestDaemon, round: Int) throws -> (
        acknowledged: Set<String>, sent: Set<String>
    ) {
        let acknowledged = Mutex<Set<String>>([])
        let sent = Mutex<Set<String>>([])
        let clients = try (0..<4).map { _ in try daemon.connect() }
        let writers = DispatchGroup()
        for (writer, client) in clients.enumerated() {
            let client = UncheckedClient(client)
            DispatchQueue.global().async(group: writers) {
                var batch = 0
                while true {
                    batch += 1
                    let keys = (0..<3).map { "r\(round)-w\(writer)-b\(batch)-\($0)" }
                    let rows: [JSONValue] = keys.map {
                        ["k": .string($0), "n": .integer(Int64(batch)), "note": .string("written in round \(round)")]
                    }
                    sent.withLock { $0.formUnion(keys) }
                    // Sent and read by hand: the daemon is killed while the writers run, and an
                    // ended connection ends the writer instead of failing the test.
                    guard let line = try? LineConnection.line(for: AddRequest(table: "feed", rows: rows), id: batch),
                        (try? client.value.send(line + "\n")) != nil,
                        let reply = try? client.value.readLine(),
                        let message = try? JSONDecoder().decode(ReplyMessage.self, from: Data(reply.utf8)),
                        message.error == nil,
                        (try? decoded(AddRequest.Response.self, from: message.result ?? .null))?.added.count == 3
                    else { return }
                    acknowledged.withLock { $0.formUnion(keys) }
                }
            }
        }
        // Once the load is under way, at a random moment.
        try waitUntil("60 rows are acknowledged", timeout: .seconds(20)) { acknowledged.withLock { $0.count } >= 60 }
        // Kept: the random moment of the kill is what this test varies.
        usleep(UInt32.random(in: 0...900_000))
        #expect(daemon.process.stop(signal: SIGKILL) == 128 + SIGKILL)
        writers.wait()
        return (acknowledged.withLock { $0 }, sent.withLock { $0 })
    }

    /// Every key of `table`, read in pages.
    private static func keys(in table: String, of daemon: TestDaemon) throws -> Set<String> {
        let client = try daemon.connect()
        var keys: Set<String> = []
        while true {
            let rows = try client.send(GetRequest(table: table, from: keys.count, count: 10000)).rows
            for row in rows { keys.insert(try #require(row.id.stringValue, "\(row.id)")) }
            if rows.count < 10000 { return keys }
        }
    }

    /// Rows, order, selection, drafts, undo, versions and loaded tables: the same after a
    /// restart as before, whether they came back from the logs or from a snapshot.
    @Test(arguments: ["67108864", "1"])
    func restartRestoresEveryTableAsItWas(compactAfterBytes: String) throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path, "--compact-after-bytes", compactAfterBytes, "--demo"]
        let questions: [Question] = [
            Question(TablesRequest()),
            Question(DescribeRequest(table: "pets")),
            Question(GetRequest(table: "pets"), \.withoutHighlights),
            Question(SelectionRequest(table: "pets")),
            Question(DescribeRequest(table: "csv")),
            Question(GetRequest(table: "csv"), \.withoutHighlights),
            Question(GetRequest(table: "stock", count: 10), \.withoutHighlights),
            Question(DescribeRequest(table: "stock")),
            Question(GetRequest(table: "feed"), \.withoutHighlights),
            Question(GetRequest(table: "bins"), \.withoutHighlights),
            Question(DescribeRequest(table: "shelf")),
            Question(GetRequest(table: "shelf"), \.withoutHighlights),
            Question(DescribeRequest(table: "roll")),
            Question(GetRequest(table: "roll"), \.withoutHighlights),
            Question(GetRequest(table: "crate"), \.withoutHighlights),
            Question(SelectionRequest(table: "crate")),
            Question(ColumnStateRequest(table: "crate", name: "narrow")),
        ]
        var before: [String] = []
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            try client.send(
                CreateRequest(
                    table: "pets",
                    columns: [
                        ColumnDefinition(key: "name"), ColumnDefinition(key: "age", type: .number, min: 0),
                        ColumnDefinition(key: "born", type: .date),
                    ],
                    rows: [["name": "Rex", "age": 3], ["name": "Tom", "age": 7]]
                )
            )
            try client.send(AddRequest(table: "pets", rows: [["name": "Ada", "age": 1], ["name": "Bo", "age": 12]]))
            try client.send(DeleteRequest(table: "pets", ids: [2]))
            try client.send(AddRequest(table: "pets", row: ["name": "Cy", "age": 5], index: 0))
            try client.send(SortRequest(table: "pets", keys: [SortKeyParam(column: "age", descending: true)]))
            try client.send(SelectRequest(table: "pets", ids: [1, 4]))
            try client.send(EditRequest(table: "pets", id: 3, column: "age", value: "2"))
            // Refused, each kept as a draft.
            #expect(
                try client.failure(EditRequest(table: "pets", id: 4, column: "age", value: "-4")).kind == .invalidValue
            )
            #expect(
                try client.failure(EditRequest(table: "pets", id: 1, column: "born", value: "2020-02-30")).kind
                    == .invalidValue
            )
            try client.send(LoadRequest(table: "csv", format: .csv, text: "city,people\nOslo,709000\nBergen,291000\n"))
            try client.send(numberedTable("gone", count: 2))
            try client.send(DropRequest(table: "gone"))
            try client.send(EditRequest(table: "stock", id: 1, column: "qty", value: "99"))
            #expect(
                try client.failure(EditRequest(table: "stock", id: 2, column: "qty", value: "lots")).kind
                    == .invalidValue
            )
            #expect(
                try client.failure(EditRequest(table: "stock", id: 3, column: "qty", value: "oops")).kind
                    == .invalidValue
            )
            try client.send(RevertRequest(table: "stock", id: 2))
            try client.send(EditRequest(table: "stock", id: 4, column: "rack", value: "Q1"))
            try client.send(UndoRequest(table: "stock"))
            try client.send(UndoRequest(table: "stock"))
            try client.send(RedoRequest(table: "stock"))
            try client.send(SelectRequest(table: "stock", mode: .single))
            // Cleared, then filled again: ids go on after the last one given.
            try client.send(numberedTable("feed", count: 3))
            try client.send(ClearRequest(table: "feed"))
            try client.send(AddRequest(table: "feed", row: ["n": 7, "name": "after"]))
            // Upserted: one row replaced by its key, one added.
            try client.send(
                CreateRequest(
                    table: "bins",
                    columns: [ColumnDefinition(key: "bin"), ColumnDefinition(key: "qty", type: .number)],
                    key: "bin",
                    rows: [["bin": "A1", "qty": 1]]
                )
            )
            try client.send(
                AddRequest(table: "bins", rows: [["bin": "A1", "qty": 5], ["bin": "B2", "qty": 7]], upsert: true)
            )
            // Altered and deleted from, a delete taken back: the history of both comes back.
            try client.send(
                CreateRequest(
                    table: "shelf",
                    columns: [
                        ColumnDefinition(key: "item"), ColumnDefinition(key: "qty", type: .number),
                        ColumnDefinition(key: "note"),
                    ],
                    rows: [["item": "Bolt", "qty": 3, "note": "old"], ["item": "Nut", "qty": 5]]
                )
            )
            try client.send(AlterRequest(table: "shelf", add: [ColumnDefinition(key: "rack")], values: ["rack": "A1"]))
            try client.send(AlterRequest(table: "shelf", rename: ["qty": "count"], drop: ["note"]))
            try client.send(SelectRequest(table: "shelf", ids: [2]))
            try client.send(DeleteRequest(table: "shelf", selection: true))
            try client.send(UndoRequest(table: "shelf"))
            // A rolling table past its limit, and a table refreshed with a replace.
            try client.send(CreateRequest(table: "roll", columns: [ColumnDefinition(key: "line")], limit: 2))
            try client.send(AddRequest(table: "roll", rows: [["line": "a"], ["line": "b"], ["line": "c"]]))
            try client.send(
                CreateRequest(
                    table: "crate",
                    columns: [ColumnDefinition(key: "bin"), ColumnDefinition(key: "qty", type: .number)],
                    key: "bin",
                    rows: [["bin": "A1", "qty": 1], ["bin": "B2", "qty": 2]]
                )
            )
            try client.send(SelectRequest(table: "crate", ids: ["B2"]))
            let replaced = try client.send(LoadRequest(table: "crate", text: "bin,qty\nB2,5\nC3,3\n", replace: true))
            #expect(replaced.kept == 1 && replaced.removed == 1)
            try client.send(
                ColumnStateRequest(
                    table: "crate",
                    name: "narrow",
                    save: ColumnState(columns: ["qty": ColumnHints(hidden: true)], columnOrder: ["qty"])
                )
            )
            #expect(try client.send(GetRequest(table: "feed")).rows.map(\.id) == [4])
            before = try questions.map { try $0.answer(client) }
            #expect(try client.send(DescribeRequest(table: "pets")).canUndo)
            #expect(daemon.process.stop(signal: SIGKILL) == 128 + SIGKILL)
        }
        let restarted = try TestDaemon(arguments: arguments)
        let client = try restarted.connect()
        let after = try questions.map { try $0.answer(client) }
        for (index, (question, answer)) in zip(questions, after).enumerated() {
            #expect(answer == before[index], "\(question.asked)")
        }
        #expect(restarted.process.output.contains("restored 8 tables"))
        #expect(!restarted.process.output.contains("did not come out"), "\(restarted.process.output)")
        let durability = try #require(try client.send(StatsRequest()).durability)
        #expect(durability.stateDir == state.path && durability.fsync == "everysec")
        #expect(durability.failure == nil)
        // The undo history came back too: the last edit of age is taken back.
        let undone = try client.send(UndoRequest(table: "pets"))
        #expect(undone.cells.first?.value == 1)
        // Redo deletes the row again; undo twice takes back the rename and the drop: the dropped
        // column comes back with its value.
        #expect(try client.send(RedoRequest(table: "shelf")).removed == [2])
        #expect(try client.send(UndoRequest(table: "shelf")).restored == [2])
        let altered = try client.send(UndoRequest(table: "shelf")).altered
        #expect(altered?.dropped == nil && altered?.added == ["note"])
        #expect(altered?.renamed == [["count", "qty"]])
        let rows = try client.send(GetRequest(table: "shelf")).rows
        #expect(rows.first?.values["note"] == "old")
        #expect(rows.first?.values["qty"] == 3)
        if compactAfterBytes == "1" {
            #expect(FileManager.default.fileExists(atPath: state.file("snapshot")))
        }
    }

    /// Pipelined changes under `--fsync always`: the replies come back in request order, reads
    /// in between see every change before them, and each change is on disk when acknowledged.
    @Test func pipelinedChangesAreAnsweredInOrder() throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path, "--fsync", "always"]
        let daemon = try TestDaemon(arguments: arguments)
        let client = try daemon.connect()
        try client.send(CreateRequest(table: "p", columns: [ColumnDefinition(key: "n", type: .number)]))
        var lines = ""
        for index in 1...300 {
            lines += try LineConnection.line(for: AddRequest(table: "p", row: ["n": .integer(Int64(index))]), id: index)
            lines += "\n"
            if index % 50 == 0 {
                lines += try Self.line(for: DescribeRequest(table: "p"), id: .string("count \(index)")) + "\n"
            }
        }
        try client.send(lines)
        var expected = 1
        for _ in 0..<306 {
            let line = try #require(try client.readLine(), "the daemon closed the connection")
            let reply = try JSONDecoder().decode(ReplyMessage.self, from: Data(line.utf8))
            let result = try #require(reply.result, "\(line)")
            if case .integer(let number) = reply.id {
                let id = Int(number)
                let added = try decoded(AddRequest.Response.self, from: result)
                #expect(id == expected && added.rows == id)
                expected += 1
            } else {
                #expect(reply.id == .string("count \(expected - 1)"))
                #expect(try decoded(DescribeRequest.Response.self, from: result).rows == expected - 1)
            }
        }
        #expect(daemon.process.stop(signal: SIGKILL) == 128 + SIGKILL)
        let restarted = try TestDaemon(arguments: arguments)
        #expect(try restarted.connect().send(DescribeRequest(table: "p")).rows == 300)
    }

    /// The request line for `request` with `id`, which may be a string (`LineConnection` numbers
    /// its requests).
    private static func line<Request: DataTableRequest>(for request: Request, id: RequestID) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(
            decoding: try encoder.encode(LineEnvelope(id: id, method: Request.method, params: request)),
            as: UTF8.self
        )
    }

    /// A crash in the middle of a write leaves half a record at the end of the log: the next
    /// start drops it, says so, and keeps everything before it.
    @Test func aTornLastRecordIsDroppedWithAWarning() throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path, "--fsync", "always"]
        do {
            let daemon = try TestDaemon(arguments: arguments)
            try daemon.connect().send(numberedTable("kept", count: 3))
            _ = daemon.process.stop(signal: SIGKILL)
        }
        // The first record's frame and 5 bytes of its payload, again at the end: a whole frame
        // that promises more than follows, as a write cut off by a crash leaves.
        let written = try Data(contentsOf: URL(fileURLWithPath: state.file("log.1")))
        let log = try #require(FileHandle(forWritingAtPath: state.file("log.1")))
        log.seekToEndOfFile()
        log.write(written[8..<(8 + 16 + 5)])
        try log.close()
        let restarted = try TestDaemon(arguments: arguments)
        #expect(restarted.process.waitForOutput(containing: "dropping the end of the last log"))
        #expect(try restarted.connect().send(DescribeRequest(table: "kept")).rows == 3)
        try restarted.connect().send(AddRequest(table: "kept", row: ["n": 9]))
        _ = restarted.process.stop(signal: SIGKILL)
        // The log was cut back to its good records, so the record written after is read too.
        let again = try TestDaemon(arguments: arguments)
        #expect(try again.connect().send(DescribeRequest(table: "kept")).rows == 4)
        #expect(!again.process.output.contains("dropping"))
    }

    /// One flipped bit in the length of a record in the middle of the log: the daemon refuses to
    /// start, says which file and byte, and leaves the log as it was; `--recover` starts with the
    /// changes before the damage and keeps the damaged log beside it.
    @Test func aDamagedLengthInTheMiddleRefusesTheStartAndRecoverKeepsWhatCameBefore() throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path, "--fsync", "always"]
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            try client.send(CreateRequest(table: "ledger", columns: [ColumnDefinition(key: "n", type: .number)]))
            for n in 0..<1000 { try client.send(AddRequest(table: "ledger", row: ["n": .integer(Int64(n))])) }
            _ = daemon.process.stop(signal: SIGKILL)
        }
        let path = state.file("log.1")
        var log = try Data(contentsOf: URL(fileURLWithPath: path))
        // Walk the frames (8-byte magic; each frame: 8-byte length, two 4-byte checksums) to
        // record 501, the 499th add (after the daemon's settings and the create).
        var offset = 8
        for _ in 0..<501 {
            let length = log[offset..<offset + 8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            offset += 16 + length
        }
        log[offset + 1] ^= 0x04
        try log.write(to: URL(fileURLWithPath: path))

        let refused = try RunningProcess(
            BuiltProducts.daemon,
            ["--socket", state.file("d.sock"), "--log-target", "stderr"] + arguments,
            outputPath: state.file("refused.log")
        )
        #expect(refused.waitForExit() == 1)
        #expect(refused.output.contains("log.1 is damaged at byte \(offset)"), "\(refused.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == log)

        let recovered = try TestDaemon(arguments: arguments + ["--recover"])
        #expect(try recovered.connect().send(DescribeRequest(table: "ledger")).rows == 499)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".damaged")) == log)
        #expect(recovered.process.output.contains("set aside"), "\(recovered.process.output)")
        try recovered.connect().send(AddRequest(table: "ledger", row: ["n": -1]))
        _ = recovered.process.stop(signal: SIGKILL)
        let again = try TestDaemon(arguments: arguments)
        #expect(try again.connect().send(DescribeRequest(table: "ledger")).rows == 500)
    }

    /// A state directory others may write to, or a symbolic link planted in one, is refused at
    /// start, and nothing a link points to is touched.
    @Test func aStateDirectoryOthersCouldPlantInIsRefused() throws {
        let state = try Scratch()
        defer { state.remove() }
        func start() throws -> RunningProcess {
            try RunningProcess(
                BuiltProducts.daemon,
                ["--socket", state.file("d.sock"), "--log-target", "stderr", "--state-dir", state.file("state")],
                outputPath: state.file("output.log")
            )
        }
        _ = mkdir(state.file("state"), 0o700)
        chmod(state.file("state"), 0o777)
        let open = try start()
        #expect(open.waitForExit() == 1)
        #expect(open.output.contains("chmod 700"), "\(open.output)")

        chmod(state.file("state"), 0o700)
        try "precious\n".write(toFile: state.file("target"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: state.file("state/log.1"),
            withDestinationPath: state.file("target")
        )
        let linked = try start()
        #expect(linked.waitForExit() == 1)
        #expect(try String(contentsOfFile: state.file("target"), encoding: .utf8) == "precious\n")
    }

    /// A snapshot that fails its checksum stops the start with a message saying which file and
    /// what to do, rather than starting empty.
    @Test func aDamagedSnapshotIsRefused() throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path, "--compact-after-bytes", "1"]
        do {
            let daemon = try TestDaemon(arguments: arguments)
            try daemon.connect().send(numberedTable("precious", count: 50))
            try daemon.process.waitForFile(state.file("snapshot"))
            #expect(daemon.process.waitForOutput(containing: "snapshot written"))
            #expect(daemon.process.stop() == 0)
        }
        var bytes = try #require(FileManager.default.contents(atPath: state.file("snapshot")))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: state.file("snapshot")))
        let scratch = try Scratch()
        defer { scratch.remove() }
        let refused = try RunningProcess(
            BuiltProducts.daemon,
            ["--socket", scratch.file("d.sock"), "--log-target", "stderr"] + arguments,
            outputPath: scratch.file("output.log")
        )
        #expect(refused.waitForExit() == 1)
        #expect(refused.output.contains("the snapshot \(state.file("snapshot")) is damaged"))
        #expect(refused.output.contains("fails its checksum"))
        #expect(!FileManager.default.fileExists(atPath: scratch.file("d.sock")))
    }

    /// Two daemons never share a state directory; without one, the daemon says nothing survives.
    @Test func aStateDirectoryHasOneDaemon() throws {
        let state = try Scratch()
        defer { state.remove() }
        let first = try TestDaemon(arguments: ["--state-dir", state.path])
        #expect(first.process.waitForOutput(containing: "tables are kept in \(state.path) (fsync everysec)"))
        let scratch = try Scratch()
        defer { scratch.remove() }
        let second = try RunningProcess(
            BuiltProducts.daemon,
            ["--socket", scratch.file("d.sock"), "--log-target", "stderr", "--state-dir", state.path],
            outputPath: scratch.file("output.log")
        )
        #expect(second.waitForExit() == 1)
        #expect(second.output.contains("another datatabled uses the state directory"))
        let memoryOnly = try TestDaemon()
        #expect(memoryOnly.process.waitForOutput(containing: "nothing survives a restart"))
    }
}

/// A client handed to one writer thread, which alone uses it.
private struct UncheckedClient: @unchecked Sendable {
    let value: UnixClient
    init(_ value: UnixClient) { self.value = value }
}

/// A request whose reply must be the same after a restart as before: `answer` sends it and
/// returns the reply as JSON text (keys sorted), without what fades with time.
private struct Question {
    /// The request, for messages.
    let asked: String
    let answer: (UnixClient) throws -> String

    /// `request`, its reply passed through `stable` (which leaves out what changes with the clock).
    init<Request: DataTableRequest>(
        _ request: Request,
        _ stable: @escaping (Request.Response) -> Request.Response = { $0 }
    ) {
        asked = (try? LineConnection.line(for: request, id: 1)) ?? Request.method
        answer = { client in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(stable(client.send(request))), as: UTF8.self)
        }
    }
}

extension GetRequest.Response {
    /// The rows without the highlight of newly added rows (it fades with time).
    fileprivate var withoutHighlights: Self {
        var copy = self
        for index in copy.rows.indices { copy.rows[index].highlight = nil }
        return copy
    }
}

/// A request line: the envelope and the request as its params.
private struct LineEnvelope<Params: Encodable>: Encodable {
    var jsonrpc = "2.0"
    var id: RequestID
    var method: String
    var params: Params
}
