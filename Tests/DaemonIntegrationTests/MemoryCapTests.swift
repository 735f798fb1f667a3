import Foundation
import Glibc
import Testing

/// The caps on what one user's tables hold: rows deleted or cleared stay in the undo history
/// and count against `--max-memory-per-uid`; column states count too, and each table keeps a
/// bounded number and size of them. Over the socket, as a throwaway user of a root daemon.
@Suite(
    .enabled(
        if: getuid() == 0 && which("runuser") != nil && which("socat") != nil && which("useradd") != nil,
        "needs root, runuser, socat and useradd"
    ),
    .serialized
)
struct MemoryCapTests {
    static func line(_ method: String, _ params: String) -> String {
        #"{"id":1,"method":"\#(method)","params":\#(params)}"#
    }

    /// Adds batches of 200 rows of 500 bytes until one is refused; returns how many went in and
    /// the refusal.
    static func addUntilRefused(_ client: UserClient, table: String) throws -> (rows: Int, refusal: String?) {
        let note = String(repeating: "n", count: 500)
        let rows = (0..<200).map { _ in #"{"note":"\#(note)"}"# }.joined(separator: ",")
        var added = 0
        for _ in 0..<200 {
            let reply = client.request(line("add", #"{"table":"\#(table)","rows":[\#(rows)]}"#))
            if try errorKind(reply) != nil { return (added, reply) }
            added += 200
        }
        return (added, nil)
    }

    /// The reported sequence: add until refused, `clear`, again and again. The cleared rows
    /// stay in the undo history, which counts: once history and rows fill the share, adds are
    /// refused, naming the cap and the history.
    @Test(.tags(.slow)) func clearedRowsInTheUndoHistoryCountAgainstTheShare() throws {
        let alice = try ThrowawayUser("m")
        let daemon = try FileAccessTests.rootDaemon(["--max-memory-per-uid", "3000000"])
        let client = try UserClient(as: alice.name, socket: daemon.socketPath)
        #expect(
            try errorKind(client.request(Self.line("create", #"{"table":"feed","columns":[{"key":"note"}]}"#))) == nil
        )

        let first = try Self.addUntilRefused(client, table: "feed")
        #expect(first.rows > 0)
        let refusal = try #require(first.refusal)
        #expect(try errorKind(refusal) == "limit_exceeded")
        #expect(refusal.contains(#""limit":"maxMemoryPerUid""#), "\(refusal)")

        var held = first.rows
        for _ in 0..<4 {
            let cleared = client.request(Self.line("clear", #"{"table":"feed"}"#))
            #expect(try errorKind(cleared) == nil, "\(cleared ?? "")")
            let again = try Self.addUntilRefused(client, table: "feed")
            held += again.rows
            let refused = try #require(again.refusal)
            #expect(try errorKind(refused) == "limit_exceeded")
            #expect(refused.contains(#""limit":"maxMemoryPerUid""#) && refused.contains("undo history"), "\(refused)")
        }
        // Rows in the table and in its history together stay within about one share (before,
        // each cycle took a whole share more).
        #expect(held < first.rows * 2, "\(held) rows held after five cycles; the first took \(first.rows)")

        // Undo brings the cleared rows back: nothing was lost to the cap.
        var rows = 0
        for _ in 0..<5 where rows == 0 {
            let undone = try object(client.request(Self.line("undo", #"{"table":"feed"}"#)))
            rows = (undone["result"] as? [String: Any])?["rows"] as? Int ?? 0
        }
        #expect(rows == first.rows)
    }

    /// Column states: at most 100 per table, at most 1 MiB together; each refusal names its
    /// limit and changes nothing.
    @Test(.tags(.slow)) func columnStatesHaveACountAndASizeLimit() throws {
        let alice = try ThrowawayUser("k")
        let daemon = try FileAccessTests.rootDaemon()
        let client = try UserClient(as: alice.name, socket: daemon.socketPath)
        // Long keys make large arrangements: 20 columns of 5,000-character keys.
        let keys = (0..<20).map { "c\($0)" + String(repeating: "k", count: 5000) }
        let columns = keys.map { #"{"key":"\#($0)"}"# }.joined(separator: ",")
        #expect(try errorKind(client.request(Self.line("create", #"{"table":"wide","columns":[\#(columns)]}"#))) == nil)
        #expect(
            try errorKind(client.request(Self.line("create", #"{"table":"narrow","columns":[{"key":"a"}]}"#))) == nil
        )

        for index in 0..<100 {
            let saved = client.request(
                Self.line("columnState", #"{"table":"narrow","name":"s\#(index)","save":{"columnOrder":["a"]}}"#)
            )
            #expect(try errorKind(saved) == nil, "\(saved ?? "")")
        }
        let tooMany = client.request(
            Self.line("columnState", #"{"table":"narrow","name":"one more","save":{"columnOrder":["a"]}}"#)
        )
        #expect(try errorKind(tooMany) == "limit_exceeded")
        #expect(tooMany?.contains(#""limit":"maxColumnStates""#) == true && tooMany?.contains(#""max":100"#) == true)
        // Replacing one that is kept is still fine.
        let replaced = client.request(
            Self.line("columnState", #"{"table":"narrow","name":"s0","save":{"columns":{"a":{"hidden":true}}}}"#)
        )
        #expect(try errorKind(replaced) == nil, "\(replaced ?? "")")

        let order = keys.map { #""\#($0)""# }.joined(separator: ",")
        let hidden = keys.map { #""\#($0)":{"hidden":true}"# }.joined(separator: ",")
        var refusal: String?
        var kept = 0
        for index in 0..<20 where refusal == nil {
            let reply = client.request(
                Self.line(
                    "columnState",
                    #"{"table":"wide","name":"big\#(index)","save":{"columnOrder":[\#(order)],"columns":{\#(hidden)}}}"#
                )
            )
            if try errorKind(reply) != nil { refusal = reply } else { kept += 1 }
        }
        let refused = try #require(refusal)
        #expect(try errorKind(refused) == "limit_exceeded")
        #expect(refused.contains(#""limit":"maxColumnStateBytes""#) && refused.contains(#""max":1048576"#))
        #expect(kept >= 1 && kept < 20)
        let listed = try object(client.request(Self.line("columnState", #"{"table":"wide"}"#)))
        let names = (listed["result"] as? [String: Any])?["names"] as? [String]
        #expect(names?.count == kept)
    }

    /// Column states count against the owner's memory share like rows do.
    @Test(.tags(.slow)) func columnStatesCountAgainstTheShare() throws {
        let alice = try ThrowawayUser("s")
        let daemon = try FileAccessTests.rootDaemon(["--max-memory-per-uid", "1500000"])
        let client = try UserClient(as: alice.name, socket: daemon.socketPath)
        let keys = (0..<20).map { "c\($0)" + String(repeating: "k", count: 5000) }
        let columns = keys.map { #"{"key":"\#($0)"}"# }.joined(separator: ",")
        let order = keys.map { #""\#($0)""# }.joined(separator: ",")
        var refusal: String?
        for table in 0..<6 where refusal == nil {
            let created = client.request(Self.line("create", #"{"table":"t\#(table)","columns":[\#(columns)]}"#))
            if try errorKind(created) != nil {
                refusal = created
                break
            }
            for index in 0..<5 where refusal == nil {
                let reply = client.request(
                    Self.line(
                        "columnState",
                        #"{"table":"t\#(table)","name":"s\#(index)","save":{"columnOrder":[\#(order)]}}"#
                    )
                )
                if try errorKind(reply) != nil { refusal = reply }
            }
        }
        let refused = try #require(refusal, "six tables of five 100 KB states each went past 1.5 MB unrefused")
        #expect(try errorKind(refused) == "limit_exceeded")
        #expect(refused.contains(#""limit":"maxMemoryPerUid""#) && refused.contains("column states"), "\(refused)")
    }
}
