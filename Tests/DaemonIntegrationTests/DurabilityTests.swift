import Foundation
import Synchronization
import Testing

/// `--state-dir`: what was acknowledged comes back after `kill -9`, a restart restores every
/// table as it was, a torn last record is dropped with a warning and a damaged snapshot stops
/// the start with a clear message.
@Suite struct DurabilityTests {
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
            let created = try daemon.connect().call(
                "create",
                #"{"table":"feed","key":"k","columns":[{"key":"k"},{"key":"n","type":"number"},{"key":"note"}]}"#
            )
            try #require(created["version"] as? Int == 1)
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
                    let rows = keys.map { #"{"k":"\#($0)","n":\#(batch),"note":"written in round \#(round)"}"# }
                    sent.withLock { $0.formUnion(keys) }
                    let line =
                        #"{"id":\#(batch),"method":"add","params":{"table":"feed","rows":[\#(rows.joined(separator: ","))]}}"#
                    guard (try? client.value.send(line + "\n")) != nil,
                        let reply = try? client.value.readLine(), reply.contains(#""result""#)
                    else { return }
                    acknowledged.withLock { $0.formUnion(keys) }
                }
            }
        }
        // Once the load is under way, at a random moment.
        let deadline = ContinuousClock.now + .seconds(20)
        while acknowledged.withLock({ $0.count }) < 60, ContinuousClock.now < deadline { usleep(5_000) }
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
            let page = try client.call("get", #"{"table":"\#(table)","from":\#(keys.count),"count":10000}"#)
            let rows = try #require(page["rows"] as? [[String: Any]], "get failed: \(page)")
            for row in rows { keys.insert(try #require(row["id"] as? String)) }
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
        let questions: [(String, String)] = [
            ("tables", "{}"),
            ("describe", #"{"table":"pets"}"#),
            ("get", #"{"table":"pets"}"#),
            ("selection", #"{"table":"pets"}"#),
            ("describe", #"{"table":"csv"}"#),
            ("get", #"{"table":"csv"}"#),
            ("get", #"{"table":"stock","count":10}"#),
            ("describe", #"{"table":"stock"}"#),
            ("get", #"{"table":"feed"}"#),
            ("get", #"{"table":"bins"}"#),
            ("describe", #"{"table":"shelf"}"#),
            ("get", #"{"table":"shelf"}"#),
            ("describe", #"{"table":"roll"}"#),
            ("get", #"{"table":"roll"}"#),
            ("get", #"{"table":"crate"}"#),
            ("selection", #"{"table":"crate"}"#),
            ("columnState", #"{"table":"crate","name":"narrow"}"#),
        ]
        var before: [String] = []
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            try client.call(
                "create",
                #"""
                {"table":"pets","columns":[{"key":"name"},{"key":"age","type":"number","min":0},\#
                {"key":"born","type":"date"}],"rows":[{"name":"Rex","age":3},{"name":"Tom","age":7}]}
                """#
            )
            try client.call("add", #"{"table":"pets","rows":[{"name":"Ada","age":1},{"name":"Bo","age":12}]}"#)
            try client.call("delete", #"{"table":"pets","ids":[2]}"#)
            try client.call("add", #"{"table":"pets","row":{"name":"Cy","age":5},"index":0}"#)
            try client.call("sort", #"{"table":"pets","keys":[{"column":"age","descending":true}]}"#)
            try client.call("select", #"{"table":"pets","ids":[1,4]}"#)
            try client.call("edit", #"{"table":"pets","id":3,"column":"age","value":"2"}"#)
            try client.call("edit", #"{"table":"pets","id":4,"column":"age","value":"-4"}"#)
            try client.call("edit", #"{"table":"pets","id":1,"column":"born","value":"2020-02-30"}"#)
            try client.call(
                "load",
                #"{"table":"csv","format":"csv","text":"city,people\nOslo,709000\nBergen,291000\n"}"#
            )
            try client.call("create", numberedTableText("gone", count: 2))
            try client.call("drop", #"{"table":"gone"}"#)
            try client.call("edit", #"{"table":"stock","id":1,"column":"qty","value":"99"}"#)
            try client.call("edit", #"{"table":"stock","id":2,"column":"qty","value":"lots"}"#)
            try client.call("edit", #"{"table":"stock","id":3,"column":"qty","value":"oops"}"#)
            try client.call("revert", #"{"table":"stock","id":2}"#)
            try client.call("edit", #"{"table":"stock","id":4,"column":"rack","value":"Q1"}"#)
            try client.call("undo", #"{"table":"stock"}"#)
            try client.call("undo", #"{"table":"stock"}"#)
            try client.call("redo", #"{"table":"stock"}"#)
            try client.call("select", #"{"table":"stock","mode":"single"}"#)
            // Cleared, then filled again: ids go on after the last one given.
            try client.call("create", numberedTableText("feed", count: 3))
            try client.call("clear", #"{"table":"feed"}"#)
            try client.call("add", #"{"table":"feed","row":{"n":7,"name":"after"}}"#)
            // Upserted: one row replaced by its key, one added.
            try client.call(
                "create",
                #"{"table":"bins","key":"bin","columns":[{"key":"bin"},{"key":"qty","type":"number"}],"rows":[{"bin":"A1","qty":1}]}"#
            )
            try client.call(
                "add",
                #"{"table":"bins","upsert":true,"rows":[{"bin":"A1","qty":5},{"bin":"B2","qty":7}]}"#
            )
            // Altered and deleted from, a delete taken back: the history of both comes back.
            try client.call(
                "create",
                #"{"table":"shelf","columns":[{"key":"item"},{"key":"qty","type":"number"},{"key":"note"}],"rows":[{"item":"Bolt","qty":3,"note":"old"},{"item":"Nut","qty":5}]}"#
            )
            try client.call("alter", #"{"table":"shelf","add":[{"key":"rack"}],"values":{"rack":"A1"}}"#)
            try client.call("alter", #"{"table":"shelf","rename":{"qty":"count"},"drop":["note"]}"#)
            try client.call("select", #"{"table":"shelf","ids":[2]}"#)
            try client.call("delete", #"{"table":"shelf","selection":true}"#)
            try client.call("undo", #"{"table":"shelf"}"#)
            // A rolling table past its limit, and a table refreshed with a replace.
            try client.call("create", #"{"table":"roll","columns":[{"key":"line"}],"limit":2}"#)
            try client.call("add", #"{"table":"roll","rows":[{"line":"a"},{"line":"b"},{"line":"c"}]}"#)
            try client.call(
                "create",
                #"{"table":"crate","key":"bin","columns":[{"key":"bin"},{"key":"qty","type":"number"}],"rows":[{"bin":"A1","qty":1},{"bin":"B2","qty":2}]}"#
            )
            try client.call("select", #"{"table":"crate","ids":["B2"]}"#)
            let replaced = try client.call("load", #"{"table":"crate","replace":true,"text":"bin,qty\nB2,5\nC3,3\n"}"#)
            #expect(replaced["kept"] as? Int == 1 && replaced["removed"] as? Int == 1)
            try client.call(
                "columnState",
                #"{"table":"crate","name":"narrow","save":{"columns":{"qty":{"hidden":true}},"columnOrder":["qty"]}}"#
            )
            #expect(
                (try client.call("get", #"{"table":"feed"}"#)["rows"] as? [[String: Any]])?.map { $0["id"] as? Int }
                    == [4]
            )
            before = try questions.map { method, params in try Self.stable(client.call(method, params)) }
            #expect(try client.call("describe", #"{"table":"pets"}"#)["canUndo"] as? Bool == true)
            #expect(daemon.process.stop(signal: SIGKILL) == 128 + SIGKILL)
        }
        let restarted = try TestDaemon(arguments: arguments)
        let client = try restarted.connect()
        let after = try questions.map { method, params in try Self.stable(client.call(method, params)) }
        for (index, (question, answer)) in zip(questions, after).enumerated() {
            #expect(answer == before[index], "\(question.0) \(question.1)")
        }
        #expect(restarted.process.output.contains("restored 8 tables"))
        #expect(!restarted.process.output.contains("did not come out"), "\(restarted.process.output)")
        let durability = try #require(try client.call("stats")["durability"] as? [String: Any])
        #expect(durability["stateDir"] as? String == state.path && durability["fsync"] as? String == "everysec")
        #expect(durability["failure"] == nil)
        // The undo history came back too: the last edit of age is taken back.
        let undone = try client.call("undo", #"{"table":"pets"}"#)
        #expect((undone["cells"] as? [[String: Any]])?.first?["value"] as? Int == 1)
        // Redo deletes the row again; undo twice takes back the rename and the drop: the dropped
        // column comes back with its value.
        #expect(try client.call("redo", #"{"table":"shelf"}"#)["removed"] as? [Int] == [2])
        #expect(try client.call("undo", #"{"table":"shelf"}"#)["restored"] as? [Int] == [2])
        let altered = try client.call("undo", #"{"table":"shelf"}"#)["altered"] as? [String: Any]
        #expect(altered?["dropped"] == nil && altered?["added"] as? [String] == ["note"])
        #expect(altered?["renamed"] as? [[String]] == [["count", "qty"]])
        let rows = try client.call("get", #"{"table":"shelf"}"#)["rows"] as? [[String: Any]]
        #expect((rows?.first?["values"] as? [String: Any])?["note"] as? String == "old")
        #expect((rows?.first?["values"] as? [String: Any])?["qty"] as? Int == 3)
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
        try client.call("create", #"{"table":"p","columns":[{"key":"n","type":"number"}]}"#)
        var lines = ""
        for index in 1...300 {
            lines += #"{"id":\#(index),"method":"add","params":{"table":"p","row":{"n":\#(index)}}}"# + "\n"
            if index % 50 == 0 {
                lines += #"{"id":"count \#(index)","method":"describe","params":{"table":"p"}}"# + "\n"
            }
        }
        try client.send(lines)
        var expected = 1
        for _ in 0..<306 {
            let reply = try object(try client.readLine())
            if let id = reply["id"] as? Int {
                #expect(id == expected && (reply["result"] as? [String: Any])?["rows"] as? Int == id)
                expected += 1
            } else {
                let counted = try #require(reply["id"] as? String)
                #expect(counted == "count \(expected - 1)")
                #expect((reply["result"] as? [String: Any])?["rows"] as? Int == expected - 1)
            }
        }
        #expect(daemon.process.stop(signal: SIGKILL) == 128 + SIGKILL)
        let restarted = try TestDaemon(arguments: arguments)
        #expect(try restarted.connect().call("describe", #"{"table":"p"}"#)["rows"] as? Int == 300)
    }

    /// A reply as sorted JSON text, without the highlight of newly added rows (it fades with time).
    private static func stable(_ reply: [String: Any]) throws -> String {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { $0.key != "highlight" }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        let data = try JSONSerialization.data(withJSONObject: strip(reply), options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A crash in the middle of a write leaves half a record at the end of the log: the next
    /// start drops it, says so, and keeps everything before it.
    @Test func aTornLastRecordIsDroppedWithAWarning() throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path, "--fsync", "always"]
        do {
            let daemon = try TestDaemon(arguments: arguments)
            try daemon.connect().call("create", numberedTableText("kept", count: 3))
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
        #expect(try restarted.connect().call("describe", #"{"table":"kept"}"#)["rows"] as? Int == 3)
        try restarted.connect().call("add", #"{"table":"kept","row":{"n":9}}"#)
        _ = restarted.process.stop(signal: SIGKILL)
        // The log was cut back to its good records, so the record written after is read too.
        let again = try TestDaemon(arguments: arguments)
        #expect(try again.connect().call("describe", #"{"table":"kept"}"#)["rows"] as? Int == 4)
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
            try client.call("create", #"{"table":"ledger","columns":[{"key":"n","type":"number"}]}"#)
            for n in 0..<1000 { try client.call("add", #"{"table":"ledger","row":{"n":\#(n)}}"#) }
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
        #expect(try recovered.connect().call("describe", #"{"table":"ledger"}"#)["rows"] as? Int == 499)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".damaged")) == log)
        #expect(recovered.process.output.contains("set aside"), "\(recovered.process.output)")
        try recovered.connect().call("add", #"{"table":"ledger","row":{"n":-1}}"#)
        _ = recovered.process.stop(signal: SIGKILL)
        let again = try TestDaemon(arguments: arguments)
        #expect(try again.connect().call("describe", #"{"table":"ledger"}"#)["rows"] as? Int == 500)
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
            try daemon.connect().call("create", numberedTableText("precious", count: 50))
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
