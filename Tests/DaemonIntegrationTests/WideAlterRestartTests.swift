import DataTableProtocol
import Foundation
import Testing

/// A table of many columns changed one column at a time, many times: the log of those `alter`s
/// is replayed at the next start, and the table comes back exactly as it was.
@Suite(.tags(.slow)) struct WideAlterRestartTests {
    static let columnCount = 2_000

    /// Renames, adds, drops (each moving the columns after it), relabels and an undo on a table
    /// of 2,000 columns, then a restart on the same state directory: the same columns in the
    /// same order, the same labels, values and version.
    @Test func manyAltersOfAWideTableComeBackAfterARestart() throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path]
        let columns =
            [ColumnDefinition(key: "id", type: .number)]
            + (0..<Self.columnCount).map { ColumnDefinition(key: "c\($0)") }
        let rows: [JSONValue] = (0..<3).map { row in
            ["id": .integer(Int64(row)), "c0": .string("first \(row)"), "c1999": .string("last \(row)")]
        }
        let before: DescribeRequest.Response
        let valuesBefore: [[String: JSONValue]]
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            let created = try client.send(CreateRequest(table: "wide", columns: columns, key: "id", rows: rows))
            for step in 0..<400 {
                let alter: AlterRequest
                switch step % 5 {
                case 0, 1: alter = AlterRequest(table: "wide", rename: ["c\(step)": "renamed\(step)"])
                case 2:
                    alter = AlterRequest(
                        table: "wide",
                        add: [ColumnDefinition(key: "added\(step)")],
                        values: ["added\(step)": .string("v\(step)")]
                    )
                case 3: alter = AlterRequest(table: "wide", drop: ["c\(step)"])
                default:
                    alter = AlterRequest(
                        table: "wide",
                        change: [ColumnDefinition(key: "c\(1000 + step)", label: "Label \(step)")]
                    )
                }
                // Each alter is one change.
                #expect(try client.send(alter).version == created.version + step + 1, "\(alter)")
            }
            // The undo takes the last column added back out.
            try client.send(AlterRequest(table: "wide", add: [ColumnDefinition(key: "undone")]))
            try client.send(UndoRequest(table: "wide"))
            before = try client.send(DescribeRequest(table: "wide"))
            valuesBefore = try Self.values(client)
            _ = daemon.process.stop(signal: SIGKILL)
        }
        let restarted = try TestDaemon(arguments: arguments)
        let client = try restarted.connect()
        let after = try client.send(DescribeRequest(table: "wide"))
        #expect(!restarted.process.output.contains("did not come out"), "\(restarted.process.output)")
        #expect(after.version == before.version)
        let keys = after.columns.map(\.key)
        #expect(keys == before.columns.map(\.key))
        // id, the columns made, 80 added and 80 dropped.
        #expect(keys.count == Self.columnCount + 1)
        #expect(!keys.contains("renamed399") && keys.contains("renamed396"))
        #expect(!keys.contains("c3") && keys.contains("added397") && !keys.contains("undone"))
        #expect(after.columns.map(\.label) == before.columns.map(\.label))
        #expect(try Self.values(client) == valuesBefore)
    }

    /// A small log whose changes took long to make is compacted all the same: with
    /// `--compact-after-seconds 0` the first change that took any time writes a snapshot, and
    /// a start whose replay took any time writes one at once. Not with the default (10 s).
    @Test func aLogSlowToReplayIsCompactedHoweverSmall() throws {
        let state = try Scratch()
        defer { state.remove() }
        let quick = ["--state-dir", state.path, "--compact-after-seconds", "0"]
        do {
            let daemon = try TestDaemon(arguments: ["--state-dir", state.path])
            let client = try daemon.connect()
            try client.send(numberedTable("kept", count: 5))
            try client.send(AlterRequest(table: "kept", add: [ColumnDefinition(key: "more")]))
            #expect(daemon.process.stop() == 0)
            #expect(!FileManager.default.fileExists(atPath: state.file("snapshot")))
        }
        do {
            // The replay of the log took some time: the start compacts it.
            let daemon = try TestDaemon(arguments: quick)
            try daemon.process.waitForFile(state.file("snapshot"))
            #expect(daemon.process.waitForOutput(containing: "snapshot written"))
            #expect(daemon.process.stop() == 0)
        }
        try FileManager.default.removeItem(atPath: state.file("snapshot"))
        let fresh = try Scratch()
        defer { fresh.remove() }
        do {
            // A change that took some time: the log is compacted.
            let daemon = try TestDaemon(arguments: ["--state-dir", fresh.path, "--compact-after-seconds", "0"])
            let client = try daemon.connect()
            try client.send(numberedTable("kept", count: 5))
            try client.send(AlterRequest(table: "kept", add: [ColumnDefinition(key: "more")]))
            try daemon.process.waitForFile(fresh.file("snapshot"))
            #expect(daemon.process.stop() == 0)
        }
        let restarted = try TestDaemon(arguments: ["--state-dir", fresh.path])
        let columns = try restarted.connect().send(DescribeRequest(table: "kept")).columns
        #expect(columns.map(\.key) == ["n", "name", "more"])
    }

    @Test func aBadCompactAfterSecondsIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let daemon = try RunningProcess(
            BuiltProducts.daemon,
            ["--socket", scratch.file("d.sock"), "--compact-after-seconds=-1"],
            outputPath: scratch.file("output.log")
        )
        #expect(daemon.waitForExit() != 0)
        #expect(daemon.output.contains("--compact-after-seconds must be from 0 to 86400"), "\(daemon.output)")
    }

    /// Every row's values, as `get` gives them, for comparing.
    private static func values(_ client: UnixClient) throws -> [[String: JSONValue]] {
        try client.send(GetRequest(table: "wide", from: 0, count: 3)).rows.map(\.values)
    }
}
