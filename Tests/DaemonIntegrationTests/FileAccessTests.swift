import Foundation
import Glibc
import Synchronization
import Testing

/// Files are opened with the client's rights, or not at all; nothing a client puts at a path
/// can block the daemon. Driven from the attacker's side: a daemon run as root, a client run as
/// `nobody` (and the other way round), through `runuser`.
@Suite(.enabled(if: getuid() == 0 && which("runuser") != nil && which("socat") != nil, "needs root and runuser"))
struct FileAccessTests {
    /// What `user` gets back for `lines` sent on one connection to `socket`.
    static func replies(as user: String, to socket: String, _ lines: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: which("runuser")!)
        process.arguments = ["-u", user, "--", which("socat")!, "-t", "5", "-", "UNIX-CONNECT:\(socket)"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // Replies only: a load's progress notifications are left out.
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix(#"{"jsonrpc""#) }
    }

    /// A root daemon whose socket and scratch directory any user may reach.
    static func rootDaemon(_ arguments: [String] = []) throws -> TestDaemon {
        let daemon = try TestDaemon(arguments: ["--socket-mode", "0666"] + arguments)
        chmod(daemon.scratch.path, 0o755)
        return daemon
    }

    static func load(_ table: String, path: String) -> String {
        #"{"id":1,"method":"load","params":{"table":"\#(table)","path":"\#(path)"}}"#
    }

    @Test func aPeerWithoutRightsCannotLoadTheDaemonsFiles() throws {
        let daemon = try Self.rootDaemon()
        let link = daemon.scratch.file("shadow-link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/etc/shadow")
        for path in ["/etc/shadow", link, "/proc/self/environ", "/proc/1/environ"] {
            let reply = try #require(
                try Self.replies(as: "nobody", to: daemon.socketPath, [Self.load("leak", path: path)]).first
            )
            #expect(try errorKind(reply) == "not_permitted", "\(path): \(reply)")
            #expect(!reply.contains("root:"))
        }
        // Nothing was made.
        let tables = try object(try daemon.request(#"{"id":2,"method":"tables"}"#))
        let names = ((tables["result"] as? [String: Any])?["tables"] as? [[String: Any]])?.compactMap {
            $0["name"] as? String
        }
        #expect(names?.contains("leak") == false)
        // Root, whose rights reach every file anyway, may.
        let own = daemon.scratch.file("own.csv")
        try "item,qty\nBolt,40\n".write(toFile: own, atomically: true, encoding: .utf8)
        #expect(try errorKind(try daemon.request(Self.load("mine", path: own))) == nil)
    }

    /// An ordinary user's own file, which a root daemon would open for it only beneath an import
    /// directory: the command-line and Python clients ask which paths they may name and send the
    /// rows, so the daemon logs no refusal for a load that works.
    @Test func anOrdinaryUsersLoadLogsNoRefusal() throws {
        let daemon = try Self.rootDaemon()
        let user = try ThrowawayUser("ld")
        // The clients, where the user may run them.
        let client = daemon.scratch.file("datatable")
        try copyExecutable(BuiltProducts.client, to: client)
        let python = daemon.scratch.file("python")
        try FileManager.default.createDirectory(atPath: python, withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: Self.pythonClientDirectory + "/datatable_client",
            toPath: python + "/datatable_client"
        )
        _ = try run("/bin/chmod", ["-R", "a+rX", python])
        let file = daemon.scratch.file("parts.csv")
        try "sku,qty\nA1,4\nB2,7\n".write(toFile: file, atomically: true, encoding: .utf8)
        chown(file, user.uid, user.gid)
        chmod(file, 0o600)

        let cli = try run(
            which("runuser")!,
            ["-u", user.name, "--", client, "load", "--socket", daemon.socketPath, file, "--table", "parts"]
        )
        #expect(cli.status == 0 && cli.output.contains("loaded 2 rows"), "\(cli.output)")
        let loaded = try run(
            which("runuser")!,
            [
                "-u", user.name, "--", "/usr/bin/env", "PYTHONPATH=\(python)", "python3", "-c",
                "import datatable_client as d, sys; print(d.Client(sys.argv[1]).load_file('again', sys.argv[2])['rows'])",
                daemon.socketPath, file,
            ]
        )
        #expect(loaded.output.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "\(loaded.output)")
        _ = try daemon.request(#"{"id":1,"method":"ping"}"#)
        #expect(!daemon.process.output.contains("refused"), "\(daemon.process.output)")
    }

    @Test func anImportDirectoryServesWhatIsBeneathItAndNothingElse() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        chmod(scratch.path, 0o755)
        let imports = scratch.file("imports")
        try FileManager.default.createDirectory(atPath: imports, withIntermediateDirectories: false)
        try "item,qty\nBolt,40\n".write(toFile: imports + "/stock.csv", atomically: true, encoding: .utf8)
        try "secret\n".write(toFile: scratch.file("outside.csv"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: imports + "/shadow.csv", withDestinationPath: "/etc/shadow")
        mkfifo(imports + "/pipe.csv", 0o666)
        let daemon = try Self.rootDaemon(["--import-dir", imports])
        let replies = try Self.replies(
            as: "nobody",
            to: daemon.socketPath,
            [
                Self.load("stock", path: imports + "/stock.csv"),
                Self.load("up", path: imports + "/../outside.csv"),
                Self.load("link", path: imports + "/shadow.csv"),
                Self.load("pipe", path: imports + "/pipe.csv"),
                Self.load("relative", path: "stock.csv"),
                Self.load("elsewhere", path: scratch.file("outside.csv")),
            ]
        )
        try #require(replies.count == 6, "\(replies)")
        #expect(try errorKind(replies[0]) == nil, "\(replies[0])")
        #expect(try errorKind(replies[1]) == "invalid_value", "\(replies[1])")
        #expect(try errorKind(replies[2]) == "invalid_value", "\(replies[2])")
        #expect(try errorKind(replies[3]) == "invalid_value" && replies[3].contains("not a regular file"))
        #expect(try errorKind(replies[4]) == nil, "\(replies[4])")
        #expect(try errorKind(replies[5]) == "not_permitted", "\(replies[5])")
        #expect(!replies.joined().contains("secret") && !replies.joined().contains("root:"))
    }

    @Test func anExportDirectoryTakesAPeersOwnFilesAndNothingElse() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        chmod(scratch.path, 0o755)
        let exports = scratch.file("exports")
        try FileManager.default.createDirectory(atPath: exports, withIntermediateDirectories: false)
        chmod(exports, 0o1777)
        try "root's\n".write(toFile: exports + "/roots.csv", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: exports + "/locked", withIntermediateDirectories: false)
        chmod(exports + "/locked", 0o755)
        let daemon = try Self.rootDaemon(["--export-dir", exports])
        func export(_ path: String) -> String {
            #"{"id":2,"method":"export","params":{"table":"mine","path":"\#(path)"}}"#
        }
        let replies = try Self.replies(
            as: "nobody",
            to: daemon.socketPath,
            [
                #"{"id":1,"method":"load","params":{"table":"mine","text":"item,qty\nBolt,40\n"}}"#,
                export(exports + "/mine.csv"),
                export(exports + "/mine.csv"),
                export("relative.csv"),
                export(exports + "/roots.csv"),
                export("/etc/passwd"),
                export(exports + "/../escape.csv"),
                export(exports + "/locked/x.csv"),
            ]
        )
        try #require(replies.count == 8, "\(replies)")
        for reply in replies[0..<4] { #expect(try errorKind(reply) == nil, "\(reply)") }
        #expect(try errorKind(replies[4]) == "not_permitted", "\(replies[4])")
        #expect(try errorKind(replies[5]) == "not_permitted", "\(replies[5])")
        #expect(try errorKind(replies[6]) == "invalid_value", "\(replies[6])")
        #expect(try errorKind(replies[7]) == "not_permitted", "\(replies[7])")
        // The files are the peer's, and nothing else changed.
        let written = try FileManager.default.attributesOfItem(atPath: exports + "/mine.csv")
        #expect(written[.ownerAccountName] as? String == "nobody")
        #expect(try String(contentsOfFile: exports + "/mine.csv", encoding: .utf8) == "item,qty\nBolt,40\n")
        #expect(FileManager.default.fileExists(atPath: exports + "/relative.csv"))
        #expect(try String(contentsOfFile: exports + "/roots.csv", encoding: .utf8) == "root's\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("escape.csv")))
        #expect(!FileManager.default.fileExists(atPath: exports + "/locked/x.csv"))
    }

    /// A root client's own 0600 file, which a daemon running as nobody cannot open: the command
    /// line client and the Python client read it themselves and send it.
    @Test(.tags(.slow)) func theClientsSendAFileTheDaemonMayNotRead() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // The daemon, as nobody, makes its socket here.
        chmod(scratch.path, 0o1777)
        let socket = scratch.file("d.sock")
        let daemon = try RunningProcess(
            which("runuser")!,
            ["-u", "nobody", "--", BuiltProducts.daemon, "--socket", socket, "--log-target", "stderr"],
            outputPath: scratch.file("output.log")
        )
        defer { _ = daemon.stop() }
        try daemon.waitForSocket(socket)
        let privateDirectory = scratch.file("private")
        try FileManager.default.createDirectory(atPath: privateDirectory, withIntermediateDirectories: false)
        chmod(privateDirectory, 0o700)
        let file = privateDirectory + "/parts.csv"
        let rows = (0..<40_000).map { "P-\($0),part \($0) \"quoted\" ✓,\($0 % 97)" }
        try ("sku,name,qty\n" + rows.joined(separator: "\n") + "\n").write(
            toFile: file,
            atomically: true,
            encoding: .utf8
        )
        chmod(file, 0o600)

        let direct = try UnixClient(path: socket)
        try direct.send(Self.load("parts", path: file) + "\n")
        #expect(try errorKind(try direct.readLine()) == "not_permitted")

        let cli = try run(BuiltProducts.client, ["load", "--socket", socket, file, "--table", "parts", "--key", "sku"])
        #expect(cli.status == 0, "\(cli.output)")
        #expect(cli.output.contains("loaded 40000 rows"), "\(cli.output)")

        let python = try run(
            "/usr/bin/env",
            [
                "PYTHONPATH=\(Self.pythonClientDirectory)", "python3", "-c",
                "import datatable_client as d, sys; c = d.Client(sys.argv[1]); "
                    + "print(c.load_file('again', sys.argv[2])['rows'])",
                socket, file,
            ]
        )
        #expect(python.output.trimmingCharacters(in: .whitespacesAndNewlines) == "40000", "\(python.output)")
        let reply = try object(
            try daemon.request(socket, #"{"id":3,"method":"get","params":{"table":"parts","ids":["P-7"]}}"#)
        )
        #expect("\(reply)".contains("part 7 \\\"quoted\\\" ✓") || "\(reply)".contains("part 7 \"quoted\" ✓"))
    }

    /// A path that flips between a regular file and a FIFO while it is loaded, again and again:
    /// a FIFO is refused when it is opened, so nothing waits on it, and other clients are
    /// answered throughout.
    @Test(.tags(.slow)) func aFIFOSwappedInAtAPathNeverStallsTheDaemon() throws {
        let daemon = try Self.rootDaemon()
        let path = daemon.scratch.file("swap.csv")
        let swapping = Atomic(true)
        let swapper = Thread {
            var fifo = false
            while swapping.load(ordering: .relaxed) {
                unlink(path)
                if fifo {
                    mkfifo(path, 0o644)
                } else {
                    try? "item\nBolt\n".write(toFile: path, atomically: false, encoding: .utf8)
                }
                fifo.toggle()
            }
        }
        swapper.start()
        defer { swapping.store(false, ordering: .relaxed) }
        let loader = try daemon.connect()
        let pinger = try daemon.connect()
        var slowest = Duration.zero
        let end = ContinuousClock.now + .seconds(3)
        while ContinuousClock.now < end {
            try loader.send(Self.load("swap", path: path) + "\n")
            let started = ContinuousClock.now
            try pinger.send(#"{"id":1,"method":"ping"}"# + "\n")
            #expect(try pinger.readLine(timeout: .seconds(2)) != nil)
            slowest = max(slowest, ContinuousClock.now - started)
            // The reply, after the load's progress notifications.
            var loaded: String
            repeat {
                loaded = try #require(try loader.readLine(timeout: .seconds(2)))
            } while loaded.hasPrefix(#"{"jsonrpc""#)
            let kind = try errorKind(loaded)
            #expect(kind == nil || kind == "invalid_value", "\(loaded)")
        }
        #expect(slowest < .milliseconds(500), "slowest ping \(slowest)")
    }

    static let pythonClientDirectory: String = {
        var directory = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("clients/python").path
    }()
}

extension RunningProcess {
    /// Sends one line on a new connection to `socket` and returns the one reply line.
    fileprivate func request(_ socket: String, _ line: String) throws -> String {
        let client = try UnixClient(path: socket)
        try client.send(line + "\n")
        return try #require(try client.readLine())
    }
}
