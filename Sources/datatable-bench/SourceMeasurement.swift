import DataTableClient
import DataTableProtocol
import Foundation

/// Tables attached to PostgreSQL (protocol.md, "Sources"), beside the benchmark's own CSV load:
/// a cluster made for the run with Debian's initdb in the scratch directory, the benchmark's
/// rows copied into a relation with the change trigger, and two daemons attached to it.
/// Figures: the attach of every row against the load of the same CSV, and how long a change
/// takes to reach a window the other daemon watches — made through one daemon, and made in psql.
struct SourceMeasurement {
    let scratch: URL
    let csvPath: String
    let rows: Int
    /// Seconds the daemon took to load the same CSV.
    let load: Double
    /// Changes timed in each way.
    var samples = 200

    func measure(into report: inout BenchReport) throws {
        guard let bin = Self.postgresBin() else {
            report.note(
                "PostgreSQL is not installed, so there are no source figures (scripts/install-dependencies --for-tests)."
            )
            return
        }
        let cluster = try PostgresCluster(bin: bin, directory: scratch.appendingPathComponent("pg"))
        defer { cluster.stop() }
        try cluster.psql(
            "CREATE TABLE stock (sku text PRIMARY KEY, item text, rack text, qty integer, weight numeric(10,2), "
                + "received date, grade text, lead interval)"
        )
        try cluster.psql("\\copy stock FROM '\(csvPath)' CSV HEADER")
        try cluster.psql(ChangeTrigger.sql(relation: "public.stock", key: "sku"))
        let source = ["--source", "pg=postgresql://postgres@/postgres?host=\(cluster.directory.path)"]
        var daemons: [BenchDaemon] = []
        defer { daemons.forEach { $0.stop() } }
        for name in ["a", "b"] {
            let directory = scratch.appendingPathComponent("source-\(name)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            daemons.append(try BenchDaemon(directory: directory, arguments: source))
        }
        let writer = BenchClient(connection: try LineConnection(path: daemons[0].socketPath))
        let attach = #"{"id":1,"method":"attach","params":{"table":"stock","source":"pg","relation":"public.stock"}}"#
        let attached = try writer.timed(attach)
        report.add(
            "attach \(rows) rows from PostgreSQL, vs the CSV load",
            String(format: "%@ = %.2f×", BenchReport.duration(attached), attached / load),
            target: "≤ 1.5×"
        )
        let watcher = try LineConnection(path: daemons[1].socketPath)
        _ = try BenchClient(connection: watcher).timed(attach)
        let window = try watcher.request(
            #"{"id":2,"method":"watch","params":{"table":"stock","unit":"cell","maxRate":120,"viewport":{"width":120,"height":40}}}"#
        )
        let shown = Self.ids(in: window)
        guard !shown.isEmpty else { throw BenchClient.Refused(description: "the watched window is empty: \(window)") }

        // Through the other daemon: from its reply to the watcher's delta.
        var throughDaemon: [Double] = []
        for sample in 0..<samples {
            let id = shown[sample % shown.count]
            _ = try writer.timed(
                #"{"id":3,"method":"edit","params":{"table":"stock","id":"\#(id)","column":"qty","value":\#(100_000 + sample)}}"#
            )
            let replied = ContinuousClock.now
            try Self.awaitDelta(watcher, showing: "\(100_000 + sample)")
            throughDaemon.append(Self.seconds(ContinuousClock.now - replied))
        }
        report.add(
            "change through one daemon → the other's watched window (p50 / p99)",
            BenchReport.percentiles(throughDaemon),
            target: "p99 < 100 ms"
        )
        // In psql: from psql's exit (its transaction committed) to the watcher's delta.
        var inPsql: [Double] = []
        for sample in 0..<min(samples, 100) {
            let id = shown[sample % shown.count]
            try cluster.psql("UPDATE stock SET qty = \(200_000 + sample) WHERE sku = '\(id)'")
            let committed = ContinuousClock.now
            try Self.awaitDelta(watcher, showing: "\(200_000 + sample)")
            inPsql.append(Self.seconds(ContinuousClock.now - committed))
        }
        report.add(
            "change in psql → a watched window (p50 / p99)",
            BenchReport.percentiles(inPsql),
            target: "p99 < 100 ms"
        )
    }

    /// Reads `connection`'s lines until a `window` notification shows `text`.
    private static func awaitDelta(_ connection: LineConnection, showing text: String) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let line = try connection.nextLine()
            if line.hasPrefix(#"{"jsonrpc":"2.0","method":"window""#), line.contains(#""\#(text)""#) { return }
        }
        throw BenchClient.Refused(description: "no window delta showed \(text) within 10 s")
    }

    /// The row ids of a `watch` reply's window.
    private static func ids(in reply: String) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any],
            let result = object["result"] as? [String: Any], let rows = result["rows"] as? [[String: Any]]
        else { return [] }
        return rows.compactMap { $0["id"] as? String }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Debian's PostgreSQL programs, the newest version's.
    static func postgresBin() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        guard let newest = versions.compactMap({ Int($0) }).max() else { return nil }
        let bin = "\(root)/\(newest)/bin"
        return FileManager.default.isExecutableFile(atPath: "\(bin)/initdb") ? bin : nil
    }
}

/// A PostgreSQL cluster of the benchmark's own, on a Unix socket in its directory (no TCP),
/// trusting local connections; run as the `postgres` user when the benchmark runs as root.
final class PostgresCluster {
    let directory: URL
    private let bin: String

    init(bin: String, directory: URL) throws {
        self.bin = bin
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if getuid() == 0 { try run(["/bin/chown", "postgres", directory.path]) }
        try run(
            asPostgres([
                "\(bin)/initdb", "-D", directory.appendingPathComponent("data").path, "--auth=trust", "-U", "postgres",
            ])
        )
        try run(
            asPostgres([
                "\(bin)/pg_ctl", "-D", directory.appendingPathComponent("data").path, "-w", "-l",
                directory.appendingPathComponent("log").path, "-o", "-k \(directory.path) -c listen_addresses=''",
                "start",
            ])
        )
    }

    /// Runs `sql` in psql (the `postgres` database), failing on its first error.
    func psql(_ sql: String) throws {
        try run([
            "/usr/bin/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", directory.path, "-U", "postgres", "-d",
            "postgres", "-c", sql,
        ])
    }

    func stop() {
        _ = try? run(
            asPostgres([
                "\(bin)/pg_ctl", "-D", directory.appendingPathComponent("data").path, "-w", "-m", "fast", "stop",
            ])
        )
    }

    private func asPostgres(_ command: [String]) -> [String] {
        getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + command : command
    }

    /// Runs `command` and waits for it, its errors kept in a file; throws with them when it fails.
    ///
    /// posix_spawn and waitpid rather than Foundation's `Process`, whose wait for a child that
    /// starts a server (pg_ctl's postmaster, through runuser) was seen never to return.
    private func run(_ command: [String]) throws {
        let errors = directory.deletingLastPathComponent().appendingPathComponent("pg-command-errors").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let arguments = command.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, arguments, environ)
        guard spawned == 0 else {
            throw BenchClient.Refused(
                description: "\(command[0]) could not start: \(String(cString: strerror(spawned)))"
            )
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // Exited normally with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw BenchClient.Refused(description: "\(command.first ?? "") failed: \(said)")
        }
    }
}
