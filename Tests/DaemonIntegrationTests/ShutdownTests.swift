import Foundation
import Glibc
import Testing

/// SIGTERM answers every request already received: a load under way when the signal comes is
/// finished and answered (or refused before it changed anything), and what was answered is what
/// a restart finds.
@Suite struct ShutdownTests {
    @Test func aLoadUnderWayWhenSIGTERMComesIsAnswered() throws {
        let files = try Scratch()
        defer { files.remove() }
        let csv = files.file("parts.csv")
        let rows = (0..<50_000).map { "P-\($0),part \($0),\($0 % 97)" }.joined(separator: "\n")
        try ("sku,name,qty\n" + rows + "\n").write(toFile: csv, atomically: true, encoding: .utf8)
        var loaded = 0
        var refused = 0
        for round in 0..<20 {
            let state = try Scratch()
            defer { state.remove() }
            let arguments = ["--state-dir", state.path, "--drain-seconds", "0"]
            do {
                let daemon = try TestDaemon(arguments: arguments)
                let client = try daemon.connect()
                // The daemon has taken the connection (one still in the listener's backlog when
                // the signal comes is never received at all).
                try client.send(#"{"id":0,"method":"ping"}"# + "\n")
                _ = try #require(try client.readLine(timeout: .seconds(60)))
                try client.send(#"{"id":1,"method":"load","params":{"table":"parts","path":"\#(csv)"}}"# + "\n")
                usleep(UInt32.random(in: 0..<400_000))
                kill(daemon.process.pid, SIGTERM)
                var reply: String?
                while let line = try client.readLine(timeout: .seconds(60)) {
                    if !line.hasPrefix(#"{"jsonrpc""#) {
                        reply = line
                        break
                    }
                }
                let answered = try #require(reply, "round \(round): the connection ended without a reply")
                let kind = try errorKind(answered)
                #expect(kind == nil || kind == "shutting_down", "round \(round): \(answered)")
                if kind == nil { loaded += 1 } else { refused += 1 }
                #expect(daemon.process.waitForExit(timeout: .seconds(60)) == 0)
                let restarted = try TestDaemon(arguments: arguments)
                let described = try restarted.connect().call("describe", #"{"table":"parts"}"#)
                if kind == nil {
                    #expect(described["rows"] as? Int == 50_000, "round \(round): \(described)")
                } else {
                    #expect((described["data"] as? [String: Any])?["kind"] as? String == "no_such_table")
                }
                _ = restarted.process.stop(signal: SIGKILL)
            }
        }
        print("SIGTERM during a load: \(loaded) loads answered and kept, \(refused) refused before they began")
    }

    /// Lines read once shutdown began are refused `shutting_down` as the protocol answers any
    /// request: a shell-mode line gets its error, a batch an array of them (none for its
    /// notifications), a notification nothing.
    @Test func linesReadWhileShuttingDownAreRefusedInTheirOwnForm() throws {
        let files = try Scratch()
        defer { files.remove() }
        let csv = files.file("parts.csv")
        let rows = (0..<300_000).map { "P-\($0),part \($0),\($0 % 97)" }.joined(separator: "\n")
        try ("sku,name,qty\n" + rows + "\n").write(toFile: csv, atomically: true, encoding: .utf8)
        let daemon = try TestDaemon(arguments: ["--drain-seconds", "0"])
        let client = try daemon.connect()
        try client.send(#"{"id":0,"method":"ping"}"# + "\n")
        _ = try #require(try client.readLine(timeout: .seconds(60)))
        // The load keeps the connection answering; what follows is read after the signal.
        try client.send(#"{"jsonrpc":"2.0","id":1,"method":"load","params":{"table":"parts","path":"\#(csv)"}}"# + "\n")
        usleep(50_000)
        kill(daemon.process.pid, SIGTERM)
        usleep(300_000)
        try client.send(
            [
                #"{"method":"ping"}"#,
                #"[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","method":"ping"},{"method":"ping"}]"#,
                #"{"jsonrpc":"2.0","method":"ping"}"#,
                #"{"jsonrpc":"2.0","id":"last","method":"ping"}"#,
            ].joined(separator: "\n") + "\n"
        )
        var replies: [String] = []
        while let line = try client.readLine(timeout: .seconds(60)) {
            if line.hasPrefix(#"{"jsonrpc":"2.0","method""#) { continue }
            replies.append(line)
        }
        let refused = #"{"code":-32005,"data":{"kind":"shutting_down"},"message":"#
        try #require(replies.count == 4, "\(replies)")
        #expect(
            replies[0].hasPrefix(#"{"id":1,"jsonrpc":"2.0","result""#),
            "the load was received first: \(replies[0])"
        )
        #expect(replies[1].hasPrefix(#"{"error":\#(refused)"#) && replies[1].contains(#""id":null"#), "\(replies[1])")
        #expect(
            replies[2].hasPrefix("[") && replies[2].components(separatedBy: "shutting_down").count == 3,
            "\(replies[2])"
        )
        #expect(replies[2].contains(#""id":7"#), "\(replies[2])")
        #expect(replies[3].contains(#""id":"last""#) && replies[3].contains("shutting_down"), "\(replies[3])")
        #expect(daemon.process.waitForExit(timeout: .seconds(60)) == 0)
    }
}
