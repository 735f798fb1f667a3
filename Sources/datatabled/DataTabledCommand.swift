import ArgumentParser
import DataTableEngine
import DataTableProtocol
import DataTableServer
import DataTableSources
import DataTableSystemd
import Foundation
import Logging
import ServiceLifecycle

/// `datatabled`: the daemon's command line.
struct DataTabledCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datatabled",
        abstract: "Hold data tables in memory and serve them over a Unix socket (newline-delimited JSON-RPC).",
        discussion: """
            Under systemd socket activation the daemon serves the sockets it is handed and ignores \
            --socket. Stand-alone it binds --socket, or by default $DATATABLED_SOCKET, \
            $XDG_RUNTIME_DIR/datatabled.sock, /run/datatabled/datatabled.sock (root) or \
            /tmp/datatabled-UID/datatabled.sock.

            Without systemd, --system runs it the way the installed units do: on \
            /run/datatabled/datatabled.sock (mode 0660, the service user's group), as the user \
            datatabled, keeping tables in /var/lib/datatabled, logging to journald when it runs. \
            Started as root, it makes those directories and then drops to the user.
            """,
        version: ServerInfo.version
    )

    @Option(help: "The socket path to bind when not socket-activated.")
    var socket: String?

    @Option(help: "Permissions of the socket file, in octal (default: 0600; 0660 with --system).")
    var socketMode: String?

    @Flag(
        help: """
            Run as the installed service does, without systemd: the system socket (0660, the user's group), \
            --user, --state-dir /var/lib/datatabled, and journald when it runs. Options given still apply.
            """
    )
    var system = false

    @Option(help: "With --system: the user to run as (its group owns the socket).")
    var user: String = SystemService.defaultUser

    @Option(help: "Group (name or number) that owns the socket file.")
    var socketGroup: String?

    @Option(help: "Least severe level logged: trace, debug, info, notice, warning, error, critical.")
    var logLevel: LogLevelOption = .info

    @Option(help: "Where logs go: auto (journald when stderr is the journal stream), journal, stderr.")
    var logTarget: LogTargetOption = .auto

    @Option(help: "Longest request line in bytes; a longer one is refused and its connection closed.")
    var maxLineBytes: Int = ServerLimits().maxLineBytes

    @Option(help: "Most connections open at once.")
    var maxConnections: Int = ServerLimits().maxConnections

    @Option(help: "Most requests in one batch.")
    var maxBatchSize: Int = ServerLimits().maxBatchSize

    @Option(help: "Most bytes of events a subscriber may leave unread before its connection is closed.")
    var maxOutputBytes: Int = ServerLimits().maxOutputBytes

    @Option(help: "Bytes of events a subscriber may leave unread for at most --soft-output-seconds.")
    var softOutputBytes: Int = ServerLimits().softOutputBytes

    @Option(help: "How long a subscriber may stay above --soft-output-bytes before it is closed.")
    var softOutputSeconds: Int = ServerLimits().softOutputSeconds

    @Option(help: "Refuse changes that add rows or tables while resident memory is above this (0: no budget).")
    var maxMemoryBytes: Int = ServerLimits().maxMemoryBytes

    @Option(help: "Most connections one user other than root and the daemon's own user may have open (0: no limit).")
    var maxConnectionsPerUid: Int = ServerLimits().maxConnectionsPerUid

    @Option(
        help:
            "Most memory, roughly, the tables of one user other than root and the daemon's own user may hold (0: no limit)."
    )
    var maxMemoryPerUid: Int = ServerLimits().maxMemoryPerUid

    @Option(help: "Most bytes one reply (or a batch's whole reply) may hold; export streams past it.")
    var maxReplyBytes: Int = ServerLimits().maxReplyBytes

    @Option(
        help:
            "Most bytes of events all subscribers together may leave unread; past it, those behind get a resync event."
    )
    var maxEventBytes: Int = ServerLimits().maxEventBytes

    @Option(help: "How many changes each table can take back with undo (0: none).")
    var undoDepth: Int = Table.defaultUndoDepth

    @Option(help: "Most tables held at once.")
    var maxTables: Int = ServerLimits().maxTables

    @Option(help: "Most rows in one table.")
    var maxRows: Int = ServerLimits().maxRows

    @Option(help: "Serve only peers with this user id (repeat; with --allow-group, either admits).")
    var allowUid: [UInt32] = []

    @Option(help: "Serve only peers in this group, by name or number (repeat).")
    var allowGroup: [String] = []

    @Option(
        help: """
            A directory any client may load files from by path (opened strictly beneath it). Without it, \
            only root and the daemon's own user load by path; others send the rows.
            """
    )
    var importDir: String?

    @Option(
        help: """
            A database tables may be attached to, as NAME=URL (postgresql://USER@HOST:PORT/DATABASE, or \
            postgresql://USER@/DATABASE?host=/run/postgresql for a Unix socket); repeat for more. No \
            password in the URL: see --source-password-file.
            """
    )
    var source: [String] = []

    @Option(
        help: """
            A file of sources, one NAME=URL a line as --source takes it (blank lines and lines             starting with # are skipped), for a service's configuration; with --source too.
            """
    )
    var sourcesFile: String?

    @Option(
        help: """
            The file holding a source's password, as NAME=FILE; without it the systemd credential \
            source-NAME, else PGPASSFILE or ~/.pgpass.
            """
    )
    var sourcePasswordFile: [String] = []

    @Option(
        help: """
            A directory any client may export files into by path (opened strictly beneath it; the client \
            must be allowed to write to the directory, and may replace only its own files). Without it, \
            only root and the daemon's own user export to a path; others stream the export.
            """
    )
    var exportDir: String?

    @Option(
        help: """
            The mode of a table a client makes, unless it gives one: read (4) and write (2) bits for its \
            owner, the owner's group and others, in octal.
            """
    )
    var tableMode: String = "0660"

    @Option(
        help: "Keep every table in this directory and restore them at start (without it, nothing survives a restart)."
    )
    var stateDir: String?

    @Flag(
        help: """
            Start even when a log in --state-dir is damaged: keep the changes before the damage and set the \
            damaged log (and any after it) aside as log.N.damaged. Without it the daemon refuses to start.
            """
    )
    var recover = false

    @Option(help: "When changes reach the disk: always (before the reply), everysec, or no (the kernel decides).")
    var fsync: FsyncOption = .everysec

    @Option(help: "Write a snapshot and drop the logs once the logs since the last snapshot pass this many bytes.")
    var compactAfterBytes: Int = 64 << 20

    @Option(
        help: """
            Write a snapshot and drop the logs once the changes they hold took this many seconds to make \
            (replaying them at start takes about as long), however small the logs; 0 after every change.
            """
    )
    var compactAfterSeconds = 10

    @Option(
        help: """
            On SIGTERM, seconds to wait for clients to read what they were sent before closing their \
            connections; a connection still answering a request it received is always left to finish.
            """
    )
    var drainSeconds = 10

    @Flag(help: "Start with a demo table, \"Stock Summary\", to look at and play with.")
    var demo = false

    @Option(help: "With --demo: fill the demo table up to this many rows with generated stock.")
    var demoRows = 10

    func validate() throws {
        guard socketMode.map(Self.parseMode) != .some(nil) else {
            throw ValidationError("--socket-mode must be an octal permission like 0600 or 0660.")
        }
        if !system, user != SystemService.defaultUser {
            throw ValidationError("--user applies only with --system.")
        }
        for (name, value) in [
            ("--max-connections-per-uid", maxConnectionsPerUid), ("--max-memory-per-uid", maxMemoryPerUid),
            ("--max-memory-bytes", maxMemoryBytes),
        ] where value < 0 {
            throw ValidationError("\(name) must be 0 (no limit) or more.")
        }
        guard (0...100_000).contains(undoDepth) else {
            throw ValidationError("--undo-depth must be from 0 (no undo) to 100000.")
        }
        guard (0...86_400).contains(drainSeconds) else {
            throw ValidationError("--drain-seconds must be from 0 to 86400.")
        }
        guard (0...86_400).contains(compactAfterSeconds) else {
            throw ValidationError("--compact-after-seconds must be from 0 to 86400.")
        }
        guard TableAccess.mode(tableMode) != nil else {
            throw ValidationError("--table-mode must be octal read and write bits like 0660 or 0640.")
        }
        for (name, value, most) in [
            ("--max-line-bytes", maxLineBytes, 1 << 30), ("--max-connections", maxConnections, 1_000_000),
            ("--max-batch-size", maxBatchSize, 10_000_000), ("--max-output-bytes", maxOutputBytes, 1 << 40),
            ("--demo-rows", demoRows, 100_000_000), ("--max-tables", maxTables, 1_000_000),
            ("--max-rows", maxRows, 1_000_000_000), ("--soft-output-bytes", softOutputBytes, 1 << 40),
            ("--soft-output-seconds", softOutputSeconds, 86_400), ("--compact-after-bytes", compactAfterBytes, 1 << 50),
            ("--max-reply-bytes", maxReplyBytes, 1 << 40), ("--max-event-bytes", maxEventBytes, 1 << 40),
        ] where !(1...most).contains(value) {
            throw ValidationError("\(name) must be from 1 to \(most).")
        }
        for (flag, directory) in [("--import-dir", importDir), ("--export-dir", exportDir)] {
            guard let directory else { continue }
            var isDirectory: ObjCBool = false
            guard directory.hasPrefix("/"),
                FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw ValidationError("\(flag) must be the absolute path of a directory.")
            }
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let destination =
            logTarget.destination
            ?? (system
                ? SystemService.logDestination(environment: environment)
                : LogDestination.detect(environment: environment))
        let level = logLevel.level
        LoggingSystem.bootstrap { label in destination.makeHandler(label: label, logLevel: level) }
        let logger = Logger(label: "datatabled")
        let notifier = SystemdNotifier()
        Self.raiseFileLimit(toServe: maxConnections, logger: logger)

        let listeners: [ListenerSource]
        do {
            listeners = try resolveListeners(environment: environment, logger: logger)
            if system {
                logger.info("running as \(user) (uid \(getuid()), gid \(getgid()))")
            }
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }

        let peers: PeerPolicy
        do {
            peers = PeerPolicy(uids: Set(allowUid), gids: Set(try allowGroup.map(Self.groupID)))
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }
        let limits = ServerLimits(
            maxLineBytes: maxLineBytes,
            maxConnections: maxConnections,
            maxBatchSize: maxBatchSize,
            maxOutputBytes: maxOutputBytes,
            maxTables: maxTables,
            maxRows: maxRows,
            softOutputBytes: softOutputBytes,
            softOutputSeconds: softOutputSeconds,
            maxMemoryBytes: maxMemoryBytes,
            maxConnectionsPerUid: maxConnectionsPerUid,
            maxMemoryPerUid: maxMemoryPerUid,
            maxReplyBytes: maxReplyBytes,
            maxEventBytes: maxEventBytes
        )
        let sources: [any TableSource]
        do {
            sources = try makeSources(environment: environment, logger: logger)
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode.failure
        }
        let (catalog, store) = try await restoreTables(notifier: notifier, logger: logger)
        let keeping =
            store.map { "tables are kept in \($0.directory) (fsync \(fsync.rawValue))" }
            ?? "tables are kept in memory only: nothing survives a restart"
        let server = DataTableServer(
            configuration: .init(
                listeners: listeners,
                limits: limits,
                drainTimeout: .seconds(drainSeconds),
                catalog: catalog,
                peers: peers,
                journal: store?.journal,
                files: FilePolicy(importDirectory: importDir, exportDirectory: exportDir),
                tableMode: TableAccess.mode(tableMode)!,
                undoDepth: undoDepth,
                sources: sources,
                attachments: store?.attachments
            ),
            hooks: .init(
                ready: { descriptions in
                    let places = descriptions.joined(separator: ", ")
                    logger.notice(
                        """
                        \(ServerInfo.name) \(ServerInfo.version) listening on \(places) (pid \(getpid())); \
                        \(keeping)
                        """
                    )
                    notifier.ready(status: "Listening on \(places)")
                },
                stopping: {
                    notifier.stopping(status: "Shutting down: finishing requests already received")
                }
            ),
            logger: logger
        )
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: server),
                    .init(
                        service: WatchdogService(notifier: notifier, logger: logger),
                        successTerminationBehavior: .ignore
                    ),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        store?.attach(server.state)
        defer { store?.close() }
        server.state.attachSaved(logger: logger)
        do {
            try await group.run()
        } catch {
            logger.critical("cannot run: \(error)")
            throw ExitCode.failure
        }
    }

    /// The tables to start with: those in --state-dir, and with --demo the demo table when they
    /// do not have it. Runs before the daemon reports ready.
    private func restoreTables(notifier: SystemdNotifier, logger: Logger) async throws -> (TableCatalog, StateStore?) {
        var catalog = TableCatalog()
        var store: StateStore?
        if let stateDir = resolvedStateDir {
            notifier.starting("Restoring tables from \(stateDir)")
            let started = ContinuousClock.now
            do {
                let (opened, restored) = try await StateStore.open(
                    directory: stateDir,
                    policy: fsync.policy,
                    compactAfterBytes: compactAfterBytes,
                    compactAfterWork: .seconds(compactAfterSeconds),
                    recover: recover,
                    undoDepth: undoDepth,
                    logger: logger,
                    progress: { notifier.starting($0) }
                )
                store = opened
                catalog = restored.catalog
                logger.notice(
                    """
                    restored \(Self.count(catalog.tableCount, "table")) (\(Self.count(catalog.rowCount, "row"))) \
                    from \(stateDir): \(restored.fromSnapshot ? "a snapshot and " : "")\
                    \(Self.count(restored.replayed, "logged change")) in \(ContinuousClock.now - started)
                    """
                )
                if restored.diverged > 0 {
                    logger.error(
                        """
                        \(Self.count(restored.diverged, "replayed change")) did not come out as the first time \
                        (see the errors above); the tables are as the replay left them
                        """
                    )
                }
            } catch {
                logger.critical("cannot start: \(error)")
                throw ExitCode.failure
            }
        }
        if demo, catalog[DemoTables.stockSummaryName] == nil {
            let demoTables = DemoTables.catalog(rows: demoRows)
            for name in demoTables.tableNames {
                let table = demoTables[name]!
                try catalog.insert(table)
                // No request makes them: recorded here, whole, so that a restart finds them.
                store?.recordWhole(table)
            }
        }
        return (catalog, store)
    }

    /// The sockets to serve: those systemd handed over, else the stand-alone path.
    private func resolveListeners(environment: [String: String], logger: Logger) throws -> [ListenerSource] {
        let inherited = SystemdListenFDs.take()
        if !inherited.isEmpty {
            if socket != nil {
                logger.warning("socket-activated: serving the sockets systemd passed and ignoring --socket")
            }
            var sources: [ListenerSource] = []
            for descriptor in inherited {
                if descriptor.isListeningUnixStream {
                    sources.append(.inherited(descriptor: descriptor.fd, name: descriptor.label))
                } else {
                    logger.error(
                        "ignoring inherited fd \(descriptor.fd) (\(descriptor.label)): not a listening Unix stream socket"
                    )
                }
            }
            guard !sources.isEmpty else {
                throw StartupError("systemd passed no listening Unix stream socket")
            }
            return sources
        }

        if system {
            // Already the service's user (``takeServiceIdentity(environment:)``): its group.
            let mode = socketMode.flatMap(Self.parseMode) ?? SystemService.socketMode
            let group = try socketGroup.map(Self.groupID) ?? getgid()
            return [.path(socket ?? SocketLocation.systemPath, mode: mode, group: group)]
        }
        let mode = socketMode.flatMap(Self.parseMode) ?? 0o600
        let group = try socketGroup.map(Self.groupID)
        if let socket {
            return [.path(socket, mode: mode, group: group)]
        }
        let path = SocketLocation.defaultPath(environment: environment, uid: getuid())
        if environment[SocketLocation.environmentVariable] == nil {
            // A default place: make its directory if this is the first start.
            try SocketPath.ensureDirectory(for: path, mode: path == SocketLocation.systemPath ? 0o755 : 0o700)
        }
        return [.path(path, mode: mode, group: group)]
    }

    /// With `--system`: makes the service's directories and takes its user's identity. Runs
    /// before any other thread starts (see ``DataTabledMain``).
    func takeServiceIdentity(environment: [String: String]) throws {
        guard system else { return }
        // Socket-activated, the socket is the activator's.
        let activated = environment["LISTEN_PID"] == String(getpid())
        try SystemService(user: user).prepare(
            socketPath: activated ? nil : socket ?? SocketLocation.systemPath,
            stateDirectory: resolvedStateDir!
        )
    }

    /// `--state-dir`, else with `--system` the service's.
    private var resolvedStateDir: String? {
        stateDir ?? (system ? SystemService.stateDirectory : nil)
    }

    /// Raises the soft limit on open files to the hard limit: every connection is a descriptor.
    static func raiseFileLimit(toServe connections: Int, logger: Logger) {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        // Listeners, event loops, the journal and files take a few dozen descriptors.
        if limit.rlim_cur != rlim_t.max, UInt64(connections) + 64 > UInt64(limit.rlim_cur) {
            logger.warning(
                "--max-connections \(connections) is close to the open-file limit \(limit.rlim_cur); raise LimitNOFILE"
            )
        }
    }

    /// "1 table", "2 tables".
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    static func parseMode(_ text: String) -> mode_t? {
        guard let mode = mode_t(text, radix: 8), mode <= 0o777 else { return nil }
        return mode
    }

    static func groupID(_ name: String) throws -> gid_t {
        if let number = gid_t(name) { return number }
        guard let entry = getgrnam(name) else { throw StartupError("there is no group \"\(name)\"") }
        return entry.pointee.gr_gid
    }
}

/// A reason the daemon cannot start, in words.
struct StartupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
