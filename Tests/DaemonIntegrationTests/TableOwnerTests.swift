import Foundation
import Glibc
import Testing

/// Tables have owners: two throwaway users against one daemon run as root, each on a
/// connection of its own made as that user.
@Suite(
    .enabled(
        if: getuid() == 0 && which("runuser") != nil && which("socat") != nil && which("useradd") != nil,
        "needs root, runuser, socat and useradd"
    ),
    .serialized
)
struct TableOwnerTests {
    static func line(_ method: String, _ params: String) -> String {
        #"{"id":1,"method":"\#(method)","params":\#(params)}"#
    }

    static func result(_ reply: String?) throws -> [String: Any] {
        try #require(try object(reply)["result"] as? [String: Any], "\(reply ?? "no reply")")
    }

    static func names(_ reply: String?) throws -> [String] {
        (try result(reply)["tables"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test(.tags(.slow)) func anotherUserCannotReadChangeSubscribeToOrDropATable() throws {
        let alice = try ThrowawayUser("a")
        let bob = try ThrowawayUser("b")
        let state = try Scratch()
        defer { state.remove() }
        let daemon = try FileAccessTests.rootDaemon(["--state-dir", state.path])
        let a = try UserClient(as: alice.name, socket: daemon.socketPath)
        let b = try UserClient(as: bob.name, socket: daemon.socketPath)

        let created = a.request(
            Self.line("create", #"{"table":"ledger","columns":[{"key":"item"},{"key":"qty","type":"number"}]}"#)
        )
        #expect(try errorKind(created) == nil, "\(created ?? "")")
        #expect(
            try errorKind(a.request(Self.line("add", #"{"table":"ledger","row":{"item":"Bolt","qty":40}}"#))) == nil
        )
        let described = try Self.result(a.request(Self.line("describe", #"{"table":"ledger"}"#)))
        #expect(described["owner"] as? Int == Int(alice.uid))
        #expect(described["group"] as? Int == Int(alice.gid))
        #expect(described["mode"] as? String == "0660")
        let version = try #require(described["version"] as? Int)

        let refused = [
            Self.line("get", #"{"table":"ledger"}"#),
            Self.line("describe", #"{"table":"ledger"}"#),
            Self.line("scroll", #"{"table":"ledger","viewport":{"width":80,"height":10},"unit":"cell"}"#),
            Self.line("layout", #"{"table":"ledger","width":80,"unit":"cell"}"#),
            Self.line("export", #"{"table":"ledger"}"#),
            Self.line("selection", #"{"table":"ledger"}"#),
            Self.line("subscribe", #"{"table":"ledger"}"#),
            Self.line("add", #"{"table":"ledger","row":{"item":"Nut","qty":1}}"#),
            Self.line("edit", #"{"table":"ledger","id":1,"column":"qty","value":0}"#),
            Self.line("delete", #"{"table":"ledger","ids":[1]}"#),
            Self.line("select", #"{"table":"ledger","action":"all"}"#),
            Self.line("sort", #"{"table":"ledger","keys":[{"column":"qty"}]}"#),
            Self.line("undo", #"{"table":"ledger"}"#),
            Self.line("load", #"{"table":"ledger","text":"item,qty\nNut,1\n"}"#),
            Self.line("chmod", #"{"table":"ledger","mode":"0666"}"#),
            Self.line("drop", #"{"table":"ledger"}"#),
        ]
        for request in refused {
            let reply = b.request(request)
            #expect(try errorKind(reply) == "permission_denied", "\(request) → \(reply ?? "no reply")")
            #expect(reply?.contains("Bolt") == false)
        }
        #expect(try Self.names(b.request(Self.line("tables", "{}"))).contains("ledger") == false)
        #expect(try Self.names(a.request(Self.line("tables", "{}"))).contains("ledger"))
        // Nothing bob asked changed anything.
        let after = try Self.result(a.request(Self.line("describe", #"{"table":"ledger"}"#)))
        #expect(after["version"] as? Int == version)
        #expect(after["rows"] as? Int == 1)

        // Others may read once the owner says so, and still not change.
        let chmodded = try Self.result(a.request(Self.line("chmod", #"{"table":"ledger","mode":"0664"}"#)))
        #expect(chmodded["mode"] as? String == "0664")
        #expect(try errorKind(b.request(Self.line("get", #"{"table":"ledger"}"#))) == nil)
        #expect(try errorKind(b.request(Self.line("subscribe", #"{"table":"ledger"}"#))) == nil)
        #expect(
            try errorKind(b.request(Self.line("add", #"{"table":"ledger","row":{"item":"Nut"}}"#)))
                == "permission_denied"
        )
        // Bob may not give himself more, nor the table to himself.
        #expect(
            try errorKind(b.request(Self.line("chmod", #"{"table":"ledger","mode":"0666"}"#))) == "permission_denied"
        )
        #expect(
            try errorKind(a.request(Self.line("chmod", #"{"table":"ledger","owner":\#(bob.uid)}"#)))
                == "permission_denied"
        )

        // Events go only to subscribers that may still read: bob hears an add while he may…
        #expect(try errorKind(a.request(Self.line("add", #"{"table":"ledger","row":{"item":"Washer"}}"#))) == nil)
        let heard = b.readLine(timeout: .seconds(5))
        #expect(heard?.contains(#""kind":"added""#) == true, "\(heard ?? "nothing")")
        // …and nothing after the owner takes it back.
        #expect(try errorKind(a.request(Self.line("chmod", #"{"table":"ledger","mode":"0600"}"#))) == nil)
        while let line = b.readLine(timeout: .milliseconds(500)) {
            #expect(line.contains(#""change":"access""#), "\(line)")
        }
        #expect(try errorKind(a.request(Self.line("add", #"{"table":"ledger","row":{"item":"Gear"}}"#))) == nil)
        #expect(b.readLine(timeout: .seconds(1)) == nil)
        #expect(try errorKind(b.request(Self.line("get", #"{"table":"ledger"}"#))) == "permission_denied")

        // Bob's own table is his; root may do anything.
        #expect(
            try errorKind(b.request(Self.line("create", #"{"table":"bobs","columns":[{"key":"x"}],"mode":"0640"}"#)))
                == nil
        )
        #expect(try errorKind(a.request(Self.line("get", #"{"table":"bobs"}"#))) == "permission_denied")
        #expect(try errorKind(try daemon.request(Self.line("get", #"{"table":"ledger"}"#))) == nil)

        // Owner and mode survive a restart.
        _ = daemon.process.stop()
        let again = try RunningProcess(
            BuiltProducts.daemon,
            [
                "--socket", daemon.socketPath, "--log-target", "stderr", "--socket-mode", "0666", "--state-dir",
                state.path,
            ],
            outputPath: daemon.scratch.file("again.log")
        )
        defer { _ = again.stop() }
        try again.waitForSocket(daemon.socketPath)
        let b2 = try UserClient(as: bob.name, socket: daemon.socketPath)
        #expect(try errorKind(b2.request(Self.line("get", #"{"table":"ledger"}"#))) == "permission_denied")
        #expect(try errorKind(b2.request(Self.line("drop", #"{"table":"ledger"}"#))) == "permission_denied")
        #expect(try Self.names(b2.request(Self.line("tables", "{}"))) == ["bobs"])
        let a2 = try UserClient(as: alice.name, socket: daemon.socketPath)
        let restored = try Self.result(a2.request(Self.line("describe", #"{"table":"ledger"}"#)))
        #expect(restored["owner"] as? Int == Int(alice.uid))
        #expect(restored["mode"] as? String == "0600")
        #expect(restored["rows"] as? Int == 3)
        #expect(try errorKind(a2.request(Self.line("drop", #"{"table":"ledger"}"#))) == nil)
    }

    /// Fair shares: one user's connections and tables cannot take what the others need.
    @Test(.tags(.slow)) func oneUserCannotTakeEveryConnectionOrAllTheMemory() throws {
        let alice = try ThrowawayUser("e")
        let bob = try ThrowawayUser("f")
        let daemon = try FileAccessTests.rootDaemon([
            "--max-connections-per-uid", "2", "--max-memory-per-uid", "3000000",
        ])
        let first = try UserClient(as: alice.name, socket: daemon.socketPath)
        let second = try UserClient(as: alice.name, socket: daemon.socketPath)
        #expect(try errorKind(first.request(Self.line("ping", "{}"))) == nil)
        #expect(try errorKind(second.request(Self.line("ping", "{}"))) == nil)
        let third = try UserClient(as: alice.name, socket: daemon.socketPath)
        let refusal = third.readLine()
        #expect(try errorKind(refusal) == "limit_exceeded", "\(refusal ?? "nothing")")
        #expect(refusal?.contains("maxConnectionsPerUid") == true)
        let b = try UserClient(as: bob.name, socket: daemon.socketPath)
        #expect(try errorKind(b.request(Self.line("ping", "{}"))) == nil)

        // Alice's tables fill her share; Bob's are not held back by it.
        let columns = #"{"table":"T","columns":[{"key":"note"}]}"#
        #expect(
            try errorKind(first.request(Self.line("create", columns.replacingOccurrences(of: "T", with: "a1")))) == nil
        )
        #expect(try errorKind(b.request(Self.line("create", columns.replacingOccurrences(of: "T", with: "b1")))) == nil)
        let note = String(repeating: "n", count: 500)
        let rows = (0..<200).map { _ in #"{"note":"\#(note)"}"# }.joined(separator: ",")
        var refused: String?
        for _ in 0..<100 where refused == nil {
            let reply = first.request(Self.line("add", #"{"table":"a1","rows":[\#(rows)]}"#))
            if try errorKind(reply) != nil { refused = reply }
        }
        #expect(try errorKind(refused) == "limit_exceeded" && refused?.contains("maxMemoryPerUid") == true)
        let load = Self.line("load", #"{"table":"a2","text":"note\n\#(note)\n"}"#)
        #expect(try errorKind(first.request(load)) == "limit_exceeded")
        #expect(try errorKind(b.request(Self.line("add", #"{"table":"b1","rows":[\#(rows)]}"#))) == nil)
        // Dropping frees the share.
        #expect(try errorKind(first.request(Self.line("drop", #"{"table":"a1"}"#))) == nil)
        #expect(try errorKind(first.request(load)) == nil)
    }

    /// An unprivileged user's own 0600 file, loaded with `datatable load` into a daemon run as
    /// `nobody`: the client sends it, and the table is the user's.
    @Test(.tags(.slow)) func aUserLoadsItsOwnPrivateFileIntoADaemonRunAsNobody() throws {
        let carol = try ThrowawayUser("c")
        let scratch = try Scratch()
        defer { scratch.remove() }
        chmod(scratch.path, 0o1777)
        let socket = scratch.file("d.sock")
        let daemon = try RunningProcess(
            which("runuser")!,
            [
                "-u", "nobody", "--", BuiltProducts.daemon, "--socket", socket, "--socket-mode", "0666",
                "--log-target", "stderr",
            ],
            outputPath: scratch.file("output.log")
        )
        defer { _ = daemon.stop() }
        try daemon.waitForSocket(socket)
        let home = scratch.file("carol")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        chown(home, carol.uid, carol.gid)
        chmod(home, 0o700)
        let file = home + "/parts.csv"
        try "sku,qty\nP-1,4\nP-2,9\n".write(toFile: file, atomically: true, encoding: .utf8)
        chown(file, carol.uid, carol.gid)
        chmod(file, 0o600)

        let loaded = try run(
            which("runuser")!,
            ["-u", carol.name, "--", BuiltProducts.client, "load", "--socket", socket, file, "--table", "parts"]
        )
        #expect(loaded.status == 0, "\(loaded.output)")
        #expect(loaded.output.contains("loaded 2 rows"), "\(loaded.output)")
        let c = try UserClient(as: carol.name, socket: socket)
        let described = try Self.result(c.request(Self.line("describe", #"{"table":"parts"}"#)))
        #expect(described["owner"] as? Int == Int(carol.uid))
        #expect(described["rows"] as? Int == 2)
        // Another user may not read it; the daemon's own user may, as root may.
        let dave = try ThrowawayUser("d")
        let other = try UserClient(as: dave.name, socket: socket)
        #expect(try errorKind(other.request(Self.line("get", #"{"table":"parts"}"#))) == "permission_denied")
        let daemonUser = try UserClient(as: "nobody", socket: socket)
        #expect(try errorKind(daemonUser.request(Self.line("get", #"{"table":"parts"}"#))) == nil)
        // The owner lets others read it with `datatable chmod`; another user may not.
        let refused = try run(
            which("runuser")!,
            ["-u", dave.name, "--", BuiltProducts.client, "chmod", "--socket", socket, "parts", "0666"]
        )
        #expect(refused.status == 1 && refused.output.contains("(permission_denied)"), "\(refused.output)")
        let chmodded = try run(
            which("runuser")!,
            ["-u", carol.name, "--", BuiltProducts.client, "chmod", "--socket", socket, "parts", "0644"]
        )
        #expect(chmodded.output.contains("parts: mode 0644, owner \(carol.uid)"), "\(chmodded.output)")
        #expect(try errorKind(other.request(Self.line("get", #"{"table":"parts"}"#))) == nil)
    }
}
