import DataTableClient
import DataTableProtocol
import Foundation
import Glibc
import Testing

/// SIGTERM answers every request already received: a load under way when the signal comes is
/// finished and answered (or refused before it changed anything), and what was answered is what
/// a restart finds.
@Suite(.tags(.slow)) struct ShutdownTests {
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
                #expect(try client.send(PingRequest(), id: 0).pong)
                // Sent without waiting for the reply: the signal comes while the load runs.
                try client.send(try LineConnection.line(for: LoadRequest(table: "parts", path: csv), id: 1) + "\n")
                // Kept: the random moment of the signal, up to 0.4 s into the load, is what this
                // test varies.
                usleep(UInt32.random(in: 0..<400_000))
                kill(daemon.process.pid, SIGTERM)
                var reply: String?
                while let line = try client.readLine(timeout: .seconds(60)) {
                    if LineConnection.isReply(line) {
                        reply = line
                        break
                    }
                }
                let answered = try #require(reply, "round \(round): the connection ended without a reply")
                let message = try JSONDecoder().decode(ReplyMessage.self, from: Data(answered.utf8))
                #expect(message.id == 1, "round \(round): \(answered)")
                let kind = message.error?.kind
                #expect(kind == nil || kind == .shuttingDown, "round \(round): \(answered)")
                if kind == nil {
                    let load = try decoded(LoadRequest.Response.self, from: message.result ?? .null)
                    #expect(load.added == 50_000 && load.rows == 50_000, "round \(round): \(answered)")
                    loaded += 1
                } else {
                    refused += 1
                }
                #expect(daemon.process.waitForExit(timeout: .seconds(60)) == 0)
                let restarted = try TestDaemon(arguments: arguments)
                let described = try restarted.connect()
                if kind == nil {
                    #expect(try described.send(DescribeRequest(table: "parts")).rows == 50_000, "round \(round)")
                } else {
                    #expect(try described.failure(DescribeRequest(table: "parts")).kind == .noSuchTable)
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
        #expect(try client.send(PingRequest(), id: 0).pong)
        // The load keeps the connection answering; what follows is read after the signal.
        try client.send(try LineConnection.line(for: LoadRequest(table: "parts", path: csv), id: 1) + "\n")
        // The load is under way once it reports its first progress.
        let first = try #require(try client.readLine(timeout: .seconds(60)), "the daemon closed the connection")
        let progress = try JSONDecoder().decode(Notification<LoadProgress>.self, from: Data(first.utf8))
        #expect(progress.method == "progress" && progress.params?.table == "parts", "\(first)")
        kill(daemon.process.pid, SIGTERM)
        #expect(daemon.process.waitForOutput(containing: "shutting down"), "\(daemon.process.output)")
        // Kept: nothing a client can see says when this connection stops taking requests. The
        // daemon logs "shutting down" and then tells each connection on that connection's own
        // thread, and a request sent to find out would be answered only after the load. Lines
        // sent at once after the log line were seen read (and answered) before that, on a busy
        // machine; this gives the connection's thread the moment it needs.
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
