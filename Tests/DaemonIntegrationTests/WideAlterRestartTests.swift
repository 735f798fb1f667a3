import Foundation
import Testing

/// A table of many columns changed one column at a time, many times: the log of those `alter`s
/// is replayed at the next start, and the table comes back exactly as it was.
@Suite struct WideAlterRestartTests {
    static let columnCount = 2_000

    /// Renames, adds, drops (each moving the columns after it), relabels and an undo on a table
    /// of 2,000 columns, then a restart on the same state directory: the same columns in the
    /// same order, the same labels, values and version.
    @Test func manyAltersOfAWideTableComeBackAfterARestart() throws {
        let state = try Scratch()
        defer { state.remove() }
        let arguments = ["--state-dir", state.path]
        let columns = (0..<Self.columnCount).map { #"{"key":"c\#($0)"}"# }.joined(separator: ",")
        let rows = (0..<3).map { row in
            #"{"id":\#(row),"c0":"first \#(row)","c1999":"last \#(row)"}"#
        }.joined(separator: ",")
        let before: [String: Any]
        let valuesBefore: String
        do {
            let daemon = try TestDaemon(arguments: arguments)
            let client = try daemon.connect()
            _ = try client.call(
                "create",
                #"{"table":"wide","key":"id","columns":[{"key":"id","type":"number"},\#(columns)],"rows":[\#(rows)]}"#
            )
            for step in 0..<400 {
                let params: String
                switch step % 5 {
                case 0, 1: params = #"{"table":"wide","rename":{"c\#(step)":"renamed\#(step)"}}"#
                case 2:
                    params = #"{"table":"wide","add":[{"key":"added\#(step)"}],"values":{"added\#(step)":"v\#(step)"}}"#
                case 3: params = #"{"table":"wide","drop":["c\#(step)"]}"#
                default: params = #"{"table":"wide","change":[{"key":"c\#(1000 + step)","label":"Label \#(step)"}]}"#
                }
                let reply = try client.call("alter", params)
                #expect(reply["version"] as? Int != nil, "\(params): \(reply)")
            }
            // The undo takes the last column added back out.
            _ = try client.call("alter", #"{"table":"wide","add":[{"key":"undone"}]}"#)
            _ = try client.call("undo", #"{"table":"wide"}"#)
            before = try client.call("describe", #"{"table":"wide"}"#)
            valuesBefore = try Self.values(client)
            _ = daemon.process.stop(signal: SIGKILL)
        }
        let restarted = try TestDaemon(arguments: arguments)
        let client = try restarted.connect()
        let after = try client.call("describe", #"{"table":"wide"}"#)
        #expect(!restarted.process.output.contains("did not come out"), "\(restarted.process.output)")
        #expect(after["version"] as? Int == before["version"] as? Int)
        let keys = (after["columns"] as? [[String: Any]])?.map { $0["key"] as? String ?? "" }
        #expect(keys == (before["columns"] as? [[String: Any]])?.map { $0["key"] as? String ?? "" })
        // id, the columns made, 80 added and 80 dropped.
        #expect(keys?.count == Self.columnCount + 1)
        #expect(keys?.contains("renamed399") == false && keys?.contains("renamed396") == true)
        #expect(
            keys?.contains("c3") == false && keys?.contains("added397") == true && keys?.contains("undone") == false
        )
        let labels = (after["columns"] as? [[String: Any]])?.map { $0["label"] as? String ?? "" }
        #expect(labels == (before["columns"] as? [[String: Any]])?.map { $0["label"] as? String ?? "" })
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
            try client.call("create", numberedTableText("kept", count: 5))
            try client.call("alter", #"{"table":"kept","add":[{"key":"more"}]}"#)
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
            try client.call("create", numberedTableText("kept", count: 5))
            try client.call("alter", #"{"table":"kept","add":[{"key":"more"}]}"#)
            try daemon.process.waitForFile(fresh.file("snapshot"))
            #expect(daemon.process.stop() == 0)
        }
        let restarted = try TestDaemon(arguments: ["--state-dir", fresh.path])
        let columns = try restarted.connect().call("describe", #"{"table":"kept"}"#)["columns"] as? [[String: Any]]
        #expect(columns?.map { $0["key"] as? String } == ["n", "name", "more"])
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

    /// Every row's values, as `get` gives them (keys sorted), for comparing.
    private static func values(_ client: UnixClient) throws -> String {
        let got = try client.call("get", #"{"table":"wide","from":0,"count":3}"#)
        let rows = try #require(got["rows"] as? [[String: Any]])
        let data = try JSONSerialization.data(withJSONObject: rows.map { $0["values"] ?? [:] }, options: .sortedKeys)
        return String(decoding: data, as: UTF8.self)
    }
}
