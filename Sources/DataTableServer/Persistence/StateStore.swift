import DataTableEngine
import DataTableProtocol
import Foundation
import Logging
import Synchronization

/// The state directory (`--state-dir`): a snapshot of every table and the logs of the changes
/// made since, from which start-up restores the tables.
///
/// Files: `snapshot` (a header, one record per table, an end mark), `log.N` (one record per
/// acknowledged change, generation N), `lock` (held while a daemon uses the directory).
/// Compaction writes a new snapshot once the logs since the last one pass a size, or hold
/// changes that took a time to make (about what replaying them at start takes; see
/// ``Journal``), then removes the logs it covers.
public final class StateStore: Sendable {
    /// The state directory's path, as given to
    /// ``open(directory:policy:compactAfterBytes:compactAfterWork:recover:undoDepth:logger:progress:)``.
    public let directory: String
    /// The log new changes are appended to, for the server's `Configuration.journal`.
    public let journal: Journal
    /// The tables attached to sources, attached again at start, for the server's
    /// `Configuration.attachments`.
    public let attachments: SavedAttachments
    private let logger: Logger
    private let lockDescriptor: Int32
    private let compacting = Atomic(false)
    private let server = Mutex<ServerState?>(nil)

    /// What start-up found.
    public struct Restored: Sendable {
        /// The tables as the snapshot and the logs after it leave them.
        public var catalog: TableCatalog
        /// Changes replayed from the logs.
        public var replayed: Int
        /// Replayed changes that left their table at another version than the first time (each
        /// logged as an error); 0 unless something is wrong.
        public var diverged: Int
        /// Whether a snapshot was read.
        public var fromSnapshot: Bool
        /// Why the end of the last log was dropped, when it was.
        public var droppedTail: String?
        /// With `recover`: the damaged files set aside, and why.
        public var setAside: [String] = []
        /// How many changes each table could take back at the end of the log, when the snapshot
        /// or the log said.
        var undoDepth: Int?
    }

    private init(
        directory: String,
        journal: Journal,
        attachments: SavedAttachments,
        lockDescriptor: Int32,
        logger: Logger
    ) {
        self.directory = directory
        self.journal = journal
        self.attachments = attachments
        self.lockDescriptor = lockDescriptor
        self.logger = logger
    }

    /// Opens `directory` (creating it), restores the tables it holds and starts the log.
    /// `progress` hears what is being read, for systemd's STATUS=. Throws when the directory is
    /// in use or damaged; never starts empty in place of state it could not read. A snapshot
    /// is due once the logs pass `compactAfterBytes`, or their changes took `compactAfterWork`
    /// to make (or, for those restored now, to replay).
    ///
    /// With `recover`, a damaged log does not stop the start: the changes before the damage are
    /// kept, and the damaged file (and any log after it) is set aside beside it, renamed
    /// `log.N.damaged`, for a person to look at.
    public static func open(
        directory: String,
        policy: FsyncPolicy,
        compactAfterBytes: Int,
        compactAfterWork: Duration = .seconds(10),
        recover: Bool = false,
        undoDepth: Int = Table.defaultUndoDepth,
        logger: Logger,
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(StateDirectoryError) -> (StateStore, Restored) {
        if mkdir(directory, 0o700) != 0, errno != EEXIST { throw .system("cannot create \(directory)", errno) }
        try StateFiles.checkTrusted(directory)
        let lockPath = "\(directory)/\(StateFiles.lockName)"
        let lock = Foundation.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw .system("cannot open \(lockPath)", errno) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            Foundation.close(lock)
            throw .inUse("another datatabled uses the state directory \(directory)")
        }
        do {
            let (restored, generation, logBytes, replayTime) = try await restore(
                directory: directory,
                recover: recover,
                undoDepth: undoDepth,
                logger: logger,
                progress: progress
            )
            let journal = try Journal(
                directory: directory,
                generation: generation,
                policy: policy,
                bytesSinceSnapshot: logBytes,
                compactAfterBytes: compactAfterBytes,
                workSinceSnapshot: replayTime,
                compactAfterWork: compactAfterWork,
                logger: logger
            )
            journal.noteSetAside(restored.setAside)
            if restored.undoDepth != undoDepth {
                // From here on the tables keep this daemon's history depth: a replay must too
                // (and a directory started afresh says which depth its first changes had).
                journal.append(.settings(undoDepth: undoDepth))
            }
            let attachments = try SavedAttachments(directory: directory)
            let store = StateStore(
                directory: directory,
                journal: journal,
                attachments: attachments,
                lockDescriptor: lock,
                logger: logger
            )
            return (store, restored)
        } catch {
            Foundation.close(lock)
            throw error
        }
    }

    /// Lets compaction read `server`'s tables; call once the server exists.
    public func attach(_ server: ServerState) {
        self.server.withLock { $0 = server }
        journal.onCompactionDue { [self] in
            // A thread of its own: encoding and fsyncing a large snapshot blocks for a while.
            Thread.detachNewThread { self.compact() }
        }
    }

    /// Writes a snapshot of every table now and removes the logs it covers. Does nothing while
    /// another compaction runs. Returns whether a snapshot was written.
    @discardableResult
    public func compact() -> Bool {
        guard let server = server.withLock({ $0 }) else { return false }
        guard compacting.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            return false
        }
        defer { compacting.store(false, ordering: .releasing) }
        let started = ContinuousClock.now
        // The cut: every change before it is in the copy and in logs before `generation`.
        // Attached tables are left out: their rows are the source's, read again at start.
        let (catalog, (generation, attached)) = server.tables.consistentCopy {
            (journal.rotate(), Set(server.attachedTableNames))
        }
        let names = catalog.tableNames.filter { !attached.contains($0) }
        var chunks: [[UInt8]] = [
            StateRecord.fileMagic,
            StateRecord.snapshotHeader(
                .init(format: 1, generation: generation, tables: names.count, undoDepth: server.tables.undoDepth)
            ).framed(),
        ]
        var rows = 0
        for name in names {
            let table = catalog[name]!
            rows += table.rowCount
            chunks.append(StateRecord.table(TableImageCoding.encode(table)[...]).framed())
        }
        chunks.append(StateRecord.snapshotEnd(tables: names.count).framed())
        let staging = "\(directory)/\(StateFiles.snapshotStagingName)"
        do {
            try StateFiles.write(staging, chunks)
            // Read back from the disk before anything relies on it: the logs it covers go only
            // once every table in it reads back as the table it was written from.
            try Self.verifySnapshot(at: staging)
            try StateFiles.install(staging, as: "\(directory)/\(StateFiles.snapshotName)")
        } catch {
            unlink(staging)
            logger.critical("cannot write a snapshot; the logs are kept: \(error)")
            journal.noteSnapshotFailure("\(error)")
            return false
        }
        journal.noteSnapshotFailure(nil)
        let removed = removeLogs(before: generation)
        logger.info(
            "snapshot written",
            metadata: [
                "tables": "\(names.count)", "rows": "\(rows)",
                "bytes": "\(chunks.reduce(0) { $0 + $1.count })", "logs_removed": "\(removed)",
                "elapsed": "\(ContinuousClock.now - started)",
            ]
        )
        return true
    }

    /// Forces every change to disk and stops the log.
    public func close() {
        journal.close()
        Foundation.close(lockDescriptor)
    }

    private func removeLogs(before generation: UInt64) -> Int {
        let old = ((try? StateFiles.logGenerations(in: directory)) ?? []).filter { $0 < generation }
        for old in old { unlink(Journal.logPath(directory: directory, generation: old)) }
        if !old.isEmpty { StateFiles.syncDirectory(directory) }
        return old.count
    }

    // MARK: Restoring

    /// Reads the snapshot and replays the logs after it. Returns the tables, the generation to
    /// append to, the bytes the logs since the snapshot hold and how long replaying them took.
    private static func restore(
        directory: String,
        recover: Bool,
        undoDepth: Int,
        logger: Logger,
        progress: @escaping @Sendable (String) -> Void
    ) async throws(StateDirectoryError) -> (Restored, UInt64, Int, Duration) {
        unlink("\(directory)/\(StateFiles.snapshotStagingName)")
        var catalog = TableCatalog()
        var firstGeneration: UInt64 = 1
        let snapshotPath = "\(directory)/\(StateFiles.snapshotName)"
        let snapshot = try StateFiles.read(snapshotPath)
        var setAside: [String] = []
        var snapshotUndoDepth: Int?
        if let snapshot {
            progress("Reading the snapshot (\(snapshot.count / 1_000_000) MB)")
            let unreadable: [UnreadableTable]
            (catalog, firstGeneration, unreadable, snapshotUndoDepth) = try readSnapshot(
                snapshot,
                path: snapshotPath,
                recover: recover
            )
            for table in unreadable {
                setAside.append(try setAsideTable(table, directory: directory, logger: logger))
            }
        }
        var generations = try StateFiles.logGenerations(in: directory)
        for stale in generations where stale < firstGeneration {
            // Covered by the snapshot; left by a compaction that stopped before removing it.
            unlink(Journal.logPath(directory: directory, generation: stale))
        }
        generations.removeAll { $0 < firstGeneration }
        if let first = generations.first, first != firstGeneration {
            throw .damaged(
                snapshot == nil
                    ? "the state directory \(directory) has log.\(first) but neither a snapshot nor log.1 before it"
                    : "the state directory \(directory) has no log.\(firstGeneration), which its snapshot needs"
            )
        }
        for (previous, next) in zip(generations, generations.dropFirst()) where next != previous + 1 {
            throw .damaged("the state directory \(directory) has log.\(previous) and log.\(next) but nothing between")
        }
        if !setAside.isEmpty {
            // The changes made to those tables since the snapshot are in the logs, which the next
            // snapshot removes: keep a copy of each (a second name for the same file), and append
            // nothing more to them.
            for generation in generations {
                let path = Journal.logPath(directory: directory, generation: generation)
                let kept = path + ".kept"
                unlink(kept)
                if link(path, kept) == 0 { setAside.append(kept) }
            }
            StateFiles.syncDirectory(directory)
        }
        // The history as the daemon that wrote the snapshot and logs kept it; a daemon started
        // with another --undo-depth takes its own once everything is replayed.
        let replay = Replayer(
            catalog: catalog,
            undoDepth: snapshotUndoDepth ?? undoDepth,
            logger: logger,
            recover: recover
        )
        var droppedTail: String?
        var logBytes = 0
        var appendTo = generations.last.map { setAside.isEmpty ? $0 : $0 + 1 } ?? firstGeneration
        var tracker = ReplayProgress(report: progress)
        let replayStarted = ContinuousClock.now
        for (index, generation) in generations.enumerated() {
            let path = Journal.logPath(directory: directory, generation: generation)
            guard let bytes = try StateFiles.read(path) else { continue }
            let scan = RecordScan(bytes)
            tracker.starting(
                "log.\(generation)",
                records: scan.records.count { !StateRecord.isSettings($0.payload) }
            )
            // New records are never appended to a log framed the old way: they go to the next.
            if index == generations.count - 1, scan.isLegacy, scan.goodLength > 0 { appendTo = generation + 1 }
            if let damage = scan.damage, index < generations.count - 1 || !scan.damageIsTorn {
                guard recover else {
                    throw .damaged(
                        "the log \(path) is damaged at byte \(scan.goodLength): \(damage). The daemon does not "
                            + "start without the changes in it and after it, and has changed nothing. Start it once "
                            + "with --recover to keep the changes before the damage and set the damaged logs aside"
                    )
                }
                setAside += try setAsideDamage(
                    of: path,
                    bytes: bytes,
                    goodLength: scan.goodLength,
                    later: generations[(index + 1)...].map { Journal.logPath(directory: directory, generation: $0) },
                    directory: directory
                )
                let names = setAside.joined(separator: ", ")
                logger.critical(
                    "--recover: kept the changes before byte \(scan.goodLength) of \(path) (\(damage)); set aside \(names)"
                )
                logBytes += scan.goodLength
                for (offset, payload) in scan.records {
                    try await Self.replay(payload, at: offset, of: path, into: replay)
                    if !StateRecord.isSettings(payload) { tracker.replayedOne() }
                }
                appendTo = generation
                break
            }
            if let damage = scan.damage {
                // A write cut off by a crash: its reply was never sent.
                logger.warning(
                    "dropping the end of the last log: \(damage) (a write cut off by a crash)",
                    metadata: ["path": "\(path)", "bytes": "\(bytes.count - scan.goodLength)"]
                )
                droppedTail = damage
                guard truncate(path, off_t(scan.goodLength)) == 0 else {
                    throw .system("cannot truncate \(path)", errno)
                }
            }
            logBytes += scan.goodLength
            for (offset, payload) in scan.records {
                try await Self.replay(payload, at: offset, of: path, into: replay)
                if !StateRecord.isSettings(payload) { tracker.replayedOne() }
            }
        }
        for table in replay.unreadable {
            setAside.append(try setAsideTable(table, directory: directory, logger: logger))
        }
        let restored = Restored(
            catalog: replay.catalog,
            replayed: replay.count,
            diverged: replay.diverged,
            fromSnapshot: snapshot != nil,
            droppedTail: droppedTail,
            setAside: setAside,
            undoDepth: replay.undoDepthIsLogged || snapshotUndoDepth != nil ? replay.undoDepth : nil
        )
        return (restored, appendTo, logBytes, ContinuousClock.now - replayStarted)
    }

    /// Applies the record `payload`, found at `offset` of the log at `path`.
    private static func replay(_ payload: ArraySlice<UInt8>, at offset: Int, of path: String, into replay: Replayer)
        async throws(StateDirectoryError)
    {
        let record: StateRecord
        do {
            record = try StateRecord(payload: payload)
        } catch {
            throw .damaged("the log \(path) holds a record it cannot read at byte \(offset): \(error)")
        }
        do {
            try await replay.apply(record)
        } catch {
            throw .damaged("the log \(path) holds a change that cannot be applied at byte \(offset): \(error)")
        }
    }

    /// For `--recover`: renames the damaged log at `path` to `path.damaged` (and each log in
    /// `later` likewise), and puts its first `goodLength` bytes back at `path`. Returns the
    /// names set aside.
    private static func setAsideDamage(
        of path: String,
        bytes: [UInt8],
        goodLength: Int,
        later: [String],
        directory: String
    ) throws(StateDirectoryError) -> [String] {
        var setAside: [String] = []
        for damaged in [path] + later {
            var target = damaged + ".damaged"
            var attempt = 1
            while access(target, F_OK) == 0 {
                attempt += 1
                target = damaged + ".damaged.\(attempt)"
            }
            guard rename(damaged, target) == 0 else { throw .system("cannot rename \(damaged) to \(target)", errno) }
            setAside.append(target)
        }
        try StateFiles.replace(path, staging: path + ".recovered", with: [Array(bytes.prefix(goodLength))])
        return setAside
    }

    /// Reads the snapshot just written at `path` back from the disk and checks every table in it
    /// (``TableImageCoding/verify(_:)``); throws naming the first that does not read back.
    static func verifySnapshot(at path: String) throws(StateDirectoryError) {
        guard let bytes = try StateFiles.read(path) else { throw .damaged("the snapshot \(path) is gone") }
        let scan = RecordScan(bytes)
        if let damage = scan.damage { throw .damaged("the snapshot \(path) does not read back: \(damage)") }
        for (offset, payload) in scan.records {
            guard case .table(let image)? = try? StateRecord(payload: payload) else { continue }
            do {
                try TableImageCoding.verify(image)
            } catch {
                throw .damaged("the snapshot \(path) does not read back at byte \(offset): \(error)")
            }
        }
    }

    /// A table image that could not be read, set aside by `--recover`.
    struct UnreadableTable {
        /// The table's name, when its header could be read.
        var name: String?
        /// The image as stored.
        var image: ArraySlice<UInt8>
        /// Why it cannot be read.
        var reason: String
    }

    /// For `--recover`: keeps the image of a table that cannot be read in a file of its own in
    /// `directory` (`table.NAME.damaged`), never removed by the daemon, and says so in the log.
    /// Returns the file's name.
    private static func setAsideTable(_ table: UnreadableTable, directory: String, logger: Logger)
        throws(StateDirectoryError) -> String
    {
        var path = "\(directory)/table.\(table.name ?? "unnamed").damaged"
        var attempt = 1
        while access(path, F_OK) == 0 {
            attempt += 1
            path = "\(directory)/table.\(table.name ?? "unnamed").damaged.\(attempt)"
        }
        try StateFiles.replace(path, staging: path + ".new", with: [Array(table.image)])
        let message =
            "--recover: the table \(table.name ?? "(unnamed)") cannot be read (\(table.reason)); its image is set aside "
            + "in \(path) and every other table starts"
        logger.critical(
            "\(message)",
            metadata: table.name.map { ["table": "\($0)"] } ?? [:]
        )
        return path
    }

    /// The tables in a snapshot, and the first log generation after it. With `recover`, a table
    /// whose image cannot be read is left out and returned, instead of refusing the snapshot.
    private static func readSnapshot(_ bytes: [UInt8], path: String, recover: Bool) throws(StateDirectoryError) -> (
        TableCatalog, UInt64, [UnreadableTable], Int?
    ) {
        func damaged(_ reason: String) -> StateDirectoryError {
            .damaged(
                "the snapshot \(path) is damaged (\(reason)); the daemon does not start without the tables in it. "
                    + "Restore it from a backup, or move the state directory aside to start empty"
            )
        }
        let scan = RecordScan(bytes)
        if let damage = scan.damage { throw damaged(damage) }
        var records = scan.records.makeIterator()
        guard let first = records.next(), case .snapshotHeader(let header)? = try? StateRecord(payload: first.payload)
        else { throw damaged("it does not start with a snapshot header") }
        guard header.format == 1 else { throw damaged("it is in format \(header.format); this daemon reads format 1") }
        var catalog = TableCatalog()
        var unreadable: [UnreadableTable] = []
        for index in 0..<header.tables {
            guard let next = records.next(), case .table(let image)? = try? StateRecord(payload: next.payload) else {
                throw damaged("table \(index + 1) of \(header.tables) is missing")
            }
            do {
                try catalog.insert(try TableImageCoding.decode(image))
            } catch {
                let name = TableImageCoding.name(of: image)
                let reason = "table \(index + 1)\(name.map { " (\($0))" } ?? ""): \(error)"
                guard recover else {
                    throw .damaged(
                        "the snapshot \(path) is damaged (\(reason)); the daemon does not start without the tables in "
                            + "it, and has changed nothing. Start it once with --recover to set that table aside and "
                            + "start every other"
                    )
                }
                unreadable.append(UnreadableTable(name: name, image: image, reason: "\(error)"))
            }
        }
        guard let last = records.next(), case .snapshotEnd(header.tables)? = try? StateRecord(payload: last.payload),
            records.next() == nil
        else { throw damaged("it does not end where its header says") }
        return (catalog, header.generation, unreadable, header.undoDepth)
    }
}

extension StateStore {
    /// Records `table` whole in the log (a table the daemon starts with, not made by a request).
    public func recordWhole(_ table: Table) {
        journal.append(.table(TableImageCoding.encode(table)[...]))
    }
}
