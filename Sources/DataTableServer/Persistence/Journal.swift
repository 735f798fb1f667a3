import CFileAccess
import DataTableProtocol
import Dispatch
import Foundation
import Logging
import Synchronization

/// The append-only log of acknowledged changes, written by a thread of its own.
///
/// **Room before change.** A change is made only once the log has room for its record:
/// ``claim(_:)`` is called (under the changed table's lock) before the change, and allocates the
/// bytes ahead in the log file (`fallocate`, keeping the file's size), so the record's write
/// cannot fail for want of space. When the filesystem is full the claim fails, and the change is
/// refused `not_saved` without being made: nobody ever reads a change the log does not hold. The
/// journal then tries once a second to make room, and takes changes again as soon as it can
/// (as Redis refuses writes while its log cannot be written and resumes by itself).
///
/// ``append(_:claimed:)`` is called while the changed table's lock is held, so each table's
/// records reach the log in the order the changes were made; it only queues the framed bytes and
/// wakes the writer. The writer takes everything queued at once, writes it with one call and,
/// under ``FsyncPolicy/always``, forces it to disk with one fsync before it lets the waiting
/// replies go: requests that arrive while a write or an fsync runs share the next one (group
/// commit). A write that fails all the same (an I/O error) is cut back to the last whole record
/// and tried again; the replies it acknowledges wait until it is written.
///
/// Logs are files `log.N` in the state directory; ``rotate()`` starts the next generation so a
/// snapshot can cover everything before it.
///
/// **When to compact.** A snapshot is due once the logs since the last one pass a size
/// (`--compact-after-bytes`), or once the changes they hold took a time to make
/// (`--compact-after-seconds`): replaying a change at start takes about as long as making it
/// did, and a small log can be slow to replay (a sort of a large table, an `alter` adding a
/// column to every row, thousands of changes of a table of thousands of columns).
public final class Journal: Sendable {
    /// When the log is forced to disk (`--fsync`).
    public let policy: FsyncPolicy
    let directory: String
    private let logger: Logger
    private let state: Mutex<State>
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    /// Told once a record is durable, or why it never will be.
    typealias Waiter = @Sendable (Result<Void, StateDirectoryError>) -> Void

    private enum Item {
        case records([UInt8], through: UInt64)
        /// Records from here on go to generation `to`, open as `file` (`nil` when it could not be
        /// opened yet).
        case rotate(to: UInt64, file: Int32?)
    }

    /// The log file records appended now go to, and the room made in it.
    private struct OpenLog {
        var generation: UInt64
        /// `nil` until the file could be opened.
        var descriptor: Int32?
        /// Where the records queued for this file will end.
        var queuedEnd: Int
        /// How far the file is allocated (from its start).
        var allocatedEnd: Int
        /// Whether the filesystem allocates ahead; where it cannot, room is not guaranteed.
        var canAllocate = true
    }

    private struct State {
        var queue: [Item] = []
        /// The sequence number of the last record appended.
        var appended: UInt64 = 0
        /// Every record up to this one is written, and under ``FsyncPolicy/always`` forced to disk.
        var durable: UInt64 = 0
        var waiters: [(sequence: UInt64, notify: Waiter)] = []
        /// Why changes are refused now: the log has no room, or cannot be written.
        var failure: String?
        /// When the current failure began, when writing last came back, and how many times it
        /// stopped, for `stats`.
        var stoppedAt: Date?
        var resumedAt: Date?
        var stops = 0
        /// What start-up set aside with `--recover`, and why the last snapshot failed.
        var setAside: [String] = []
        var snapshotFailure: String?
        var closing = false
        var log: OpenLog
        /// Bytes claimed but not yet appended or released.
        var outstanding = 0
        /// Bytes in logs since the last snapshot, for ``compactionDue``.
        var bytesSinceSnapshot: Int
        var compactionDue: (@Sendable () -> Void)?
        /// Whether ``compactionDue`` was called since the last rotation.
        var compactionRequested = false
        var compactAfterBytes: Int
        /// How long the changes in logs since the last snapshot took to make (for the first
        /// log after a start, how long replaying them took), for ``compactionDue``.
        var workSinceSnapshot: Duration
        var compactAfterWork: Duration

        /// Whether the logs since the last snapshot are due to be compacted: past the size, or
        /// past the time their changes took.
        var compactionIsDue: Bool {
            bytesSinceSnapshot > compactAfterBytes || workSinceSnapshot > compactAfterWork
        }
    }

    /// Room is made in steps of this many bytes (or what a claim needs, when more).
    static let allocationStep = 1 << 20

    /// How long the writer waits between tries while the log cannot be written.
    static let retryInterval = DispatchTimeInterval.seconds(1)

    /// Opens (creating) `log.<generation>` in `directory` for appending and starts the writer.
    /// `bytesSinceSnapshot` counts what earlier logs already hold, and `workSinceSnapshot` the
    /// time their changes took to replay.
    init(
        directory: String,
        generation: UInt64,
        policy: FsyncPolicy,
        bytesSinceSnapshot: Int,
        compactAfterBytes: Int,
        workSinceSnapshot: Duration = .zero,
        compactAfterWork: Duration = .seconds(10),
        logger: Logger
    ) throws(StateDirectoryError) {
        self.directory = directory
        self.policy = policy
        self.logger = logger
        let descriptor = try Self.openLog(directory: directory, generation: generation)
        let length = Int(lseek(descriptor, 0, SEEK_END))
        self.state = Mutex(
            State(
                log: OpenLog(generation: generation, descriptor: descriptor, queuedEnd: length, allocatedEnd: length),
                bytesSinceSnapshot: bytesSinceSnapshot,
                compactAfterBytes: compactAfterBytes,
                workSinceSnapshot: workSinceSnapshot,
                compactAfterWork: compactAfterWork
            )
        )
        let thread = Thread { [self] in self.writeLoop(descriptor: descriptor, generation: generation) }
        thread.name = "datatabled journal"
        thread.start()
    }

    /// The path of log generation `generation`.
    static func logPath(directory: String, generation: UInt64) -> String {
        "\(directory)/log.\(generation)"
    }

    private static func openLog(directory: String, generation: UInt64) throws(StateDirectoryError) -> Int32 {
        let path = logPath(directory: directory, generation: generation)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .system("cannot open \(path)", errno) }
        // A new log starts with the files' magic, which says how its records are framed.
        if lseek(descriptor, 0, SEEK_END) == 0, let error = StateFiles.writeAll(descriptor, StateRecord.fileMagic) {
            _ = ftruncate(descriptor, 0)
            Foundation.close(descriptor)
            throw .system("cannot write \(path)", error)
        }
        StateFiles.syncDirectory(directory)
        return descriptor
    }

    // MARK: Room

    /// Makes room in the log for `bytes` more of record, before the change it records is made;
    /// throws ``StateDirectoryError/notSaved(_:)`` (having changed nothing) when the log has
    /// none. The bytes are the caller's until it appends its record with them
    /// (``append(_:claimed:)``) or gives them back (``release(_:)``).
    func claim(_ bytes: Int) throws(StateDirectoryError) {
        var stoppedNow: String?
        defer { if let stoppedNow { announceStop(stoppedNow) } }
        try state.withLock { state throws(StateDirectoryError) in
            if let failure = state.failure { throw .notSaved(failure) }
            let needed = state.log.queuedEnd + state.outstanding + bytes
            if needed > state.log.allocatedEnd, let problem = Self.allocate(upTo: needed, in: &state.log, directory) {
                stoppedNow = problem
                Self.stop(&state, problem)
                throw .notSaved(problem)
            }
            state.outstanding += bytes
        }
    }

    /// Gives back claimed bytes no record used (the change was refused after all, or made none).
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        state.withLock { $0.outstanding = max(0, $0.outstanding - bytes) }
    }

    /// Allocates `log`'s file up to at least `needed` bytes (a step more when it can); the
    /// problem, when there is no room.
    private static func allocate(upTo needed: Int, in log: inout OpenLog, _ directory: String) -> String? {
        let path = logPath(directory: directory, generation: log.generation)
        guard let descriptor = log.descriptor else { return "cannot open \(path)" }
        guard log.canAllocate else { return nil }
        let start = log.allocatedEnd
        for length in [max(needed - start, allocationStep), needed - start] {
            if datatabled_allocate_ahead(descriptor, Int64(start), Int64(length)) == 0 {
                log.allocatedEnd = start + length
                return nil
            }
            let error = errno
            if error == EOPNOTSUPP || error == ENOSYS {
                // Nothing to guarantee room with here: changes go on, as before the disk fills.
                log.canAllocate = false
                return nil
            }
            guard error == ENOSPC || error == EDQUOT else {
                return "cannot make room in \(path): \(String(cString: strerror(error)))"
            }
        }
        return "no room left for \(path): \(String(cString: strerror(ENOSPC)))"
    }

    /// Marks the log failed: changes are refused until the writer finds room again.
    private static func stop(_ state: inout State, _ problem: String) {
        guard state.failure == nil else { return }
        state.failure = problem
        state.stoppedAt = Date()
        state.stops += 1
    }

    private func announceStop(_ problem: String) {
        logger.critical(
            "the state directory cannot take changes; they are refused until it can (tried every second): \(problem)"
        )
    }

    // MARK: Records

    /// Queues `record`, written with `claimed` bytes made room for by ``claim(_:)``, of a change
    /// that took `work` to make; returns its sequence number, for ``waitUntilDurable(_:)``.
    @discardableResult
    func append(_ record: StateRecord, claimed: Int = 0, work: Duration = .zero) -> UInt64 {
        let bytes = record.framed()
        let sequence = state.withLock { state in
            state.appended += 1
            state.workSinceSnapshot += work
            state.outstanding = max(0, state.outstanding - claimed)
            state.log.queuedEnd += bytes.count
            if case .records(var queued, _) = state.queue.last {
                state.queue.removeLast()
                queued.append(contentsOf: bytes)
                state.queue.append(.records(queued, through: state.appended))
            } else {
                state.queue.append(.records(bytes, through: state.appended))
            }
            return state.appended
        }
        wake.signal()
        return sequence
    }

    /// Starts the next log generation: records appended after this call go to it. Returns its
    /// number. Call it while holding every table's lock (``LiveTables/consistentCopy(_:)``), so the cut
    /// is between two changes of each table and no claim is outstanding.
    func rotate() -> UInt64 {
        let generation = state.withLock { state in
            let generation = state.log.generation + 1
            state.bytesSinceSnapshot = 0
            state.workSinceSnapshot = .zero
            state.compactionRequested = false
            let descriptor = try? Self.openLog(directory: directory, generation: generation)
            let length = descriptor.map { Int(lseek($0, 0, SEEK_END)) } ?? 0
            state.log = OpenLog(
                generation: generation,
                descriptor: descriptor,
                queuedEnd: length,
                allocatedEnd: length
            )
            state.queue.append(.rotate(to: generation, file: descriptor))
            if descriptor == nil {
                Self.stop(&state, "cannot open \(Self.logPath(directory: directory, generation: generation))")
            }
            return generation
        }
        wake.signal()
        return generation
    }

    /// Returns once record `sequence` is written to the log, and under ``FsyncPolicy/always``
    /// forced to disk; throws ``StateDirectoryError`` when the daemon stops before it can be.
    ///
    /// Replies wait for the write under every policy, as Redis writes its append-only file
    /// before it answers: once acknowledged, a change survives a crash of the daemon; the
    /// policy decides what a crash of the machine may take.
    func waitUntilDurable(_ sequence: UInt64) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            whenDurable(sequence) { continuation.resume(with: $0.mapError { $0 }) }
        }
    }

    /// Calls `notify` once record `sequence` is durable as ``waitUntilDurable(_:)`` says (at once
    /// when it is already), or with the reason it cannot be. `notify` runs on the log's writer
    /// thread or the caller's: it must only hand the news on.
    func whenDurable(_ sequence: UInt64, _ notify: @escaping Waiter) {
        let durable = state.withLock { state in
            if state.durable >= sequence { return true }
            state.waiters.append((sequence, notify))
            return false
        }
        if durable { notify(.success(())) }
    }

    /// How the log is doing, for `stats`.
    var status: StatsRequest.Durability {
        state.withLock { state in
            StatsRequest.Durability(
                stateDir: directory,
                fsync: policy.rawValue,
                changesLogged: Int(state.appended),
                logGeneration: Int(state.log.generation),
                logBytes: state.bytesSinceSnapshot,
                failure: state.failure,
                stoppedAt: state.failure == nil ? nil : state.stoppedAt.map(Self.timestamp),
                resumedAt: state.resumedAt.map(Self.timestamp),
                stops: state.stops,
                setAside: state.setAside.isEmpty ? nil : state.setAside,
                snapshotFailure: state.snapshotFailure
            )
        }
    }

    /// Files and tables start-up set aside (`--recover`), for `stats`.
    func noteSetAside(_ names: [String]) {
        state.withLock { $0.setAside = names }
    }

    /// Why the last snapshot was not written (`nil` once one is), for `stats`.
    func noteSnapshotFailure(_ reason: String?) {
        state.withLock { $0.snapshotFailure = reason }
    }

    private static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }

    /// Calls `body` (off the writer thread's lock) whenever the logs since the last snapshot
    /// have grown past the compaction threshold, in bytes or in the time their changes took;
    /// at once when they already have (a start that took long to replay them).
    func onCompactionDue(_ body: @escaping @Sendable () -> Void) {
        let compaction = state.withLock { state in
            state.compactionDue = body
            return Self.takeCompaction(&state)
        }
        compaction?()
    }

    /// The compaction to start now, if one is due and none was asked for since the last
    /// rotation; marks it asked for.
    private static func takeCompaction(_ state: inout State) -> (@Sendable () -> Void)? {
        guard state.compactionIsDue, !state.closing, !state.compactionRequested, state.failure == nil,
            let compaction = state.compactionDue
        else { return nil }
        state.compactionRequested = true
        return compaction
    }

    /// Writes and forces to disk everything queued (what cannot be written is reported to its
    /// waiters as not saved), then stops the writer.
    func close() {
        state.withLock { $0.closing = true }
        wake.signal()
        stopped.wait()
    }

    // MARK: The writer thread

    /// Writes what is queued to `log.<generation>` (open as `descriptor`), rotating when told;
    /// while the log cannot be written, tries again every second.
    private func writeLoop(descriptor: Int32, generation: UInt64) {
        var writer = LogWriter(
            descriptor: descriptor,
            generation: generation,
            path: Self.logPath(directory: directory, generation: generation),
            length: Int(lseek(descriptor, 0, SEEK_END))
        )
        var pending: [Item] = []
        var lastSync = ContinuousClock.now
        while true {
            let failing = state.withLock { $0.failure != nil }
            let interval: DispatchTimeInterval =
                failing ? Self.retryInterval : .milliseconds(policy == .everysec ? 250 : 1000)
            _ = wake.wait(timeout: .now() + interval)
            let closing = state.withLock { state in
                pending.append(contentsOf: state.queue)
                state.queue.removeAll(keepingCapacity: true)
                return state.closing
            }
            if failing { recover(&writer) }
            var written: UInt64?
            var wroteBytes = 0
            var problem: String?
            while problem == nil, let item = pending.first {
                switch item {
                case .records(let bytes, let through):
                    if let error = writer.append(bytes) {
                        problem = error
                        continue
                    }
                    wroteBytes += bytes.count
                    written = through
                case .rotate(let generation, let file):
                    if let error = writer.sync() {
                        problem = error
                        continue
                    }
                    writer.switchTo(
                        descriptor: file,
                        generation: generation,
                        path: Self.logPath(directory: directory, generation: generation)
                    )
                    if file == nil, let error = reopen(&writer, generation: generation) {
                        problem = error
                        continue
                    }
                }
                pending.removeFirst()
            }
            let now = ContinuousClock.now
            if problem == nil, writer.unsynced,
                closing || policy == .always || (policy == .everysec && now - lastSync >= .seconds(1))
            {
                problem = writer.sync()
                lastSync = now
            }
            finishRound(written: written, wroteBytes: wroteBytes, problem: problem, writer: writer)
            if closing, problem != nil || pending.isEmpty, state.withLock({ $0.queue.isEmpty }) {
                giveUp(reason: problem)
                writer.close()
                stopped.signal()
                return
            }
        }
    }

    /// Lets go the replies whose records are now durable, counts the bytes, and starts a
    /// compaction when due; with `problem`, marks the log failed.
    private func finishRound(written: UInt64?, wroteBytes: Int, problem: String?, writer: LogWriter) {
        let (ready, compaction, stoppedNow) = state.withLock { state in
            var stoppedNow: String?
            if let problem {
                if state.failure == nil { stoppedNow = problem }
                Self.stop(&state, problem)
                // The file was cut back to its last whole record: room from there is made again.
                if state.log.generation == writer.generation { state.log.allocatedEnd = writer.length }
            }
            if let written, policy != .always || !writer.unsynced { state.durable = max(state.durable, written) }
            state.bytesSinceSnapshot += wroteBytes
            let durable = state.durable
            var ready: [Waiter] = []
            state.waiters.removeAll { waiter in
                guard waiter.sequence <= durable else { return false }
                ready.append(waiter.notify)
                return true
            }
            return (ready, Self.takeCompaction(&state), stoppedNow)
        }
        if let stoppedNow { announceStop(stoppedNow) }
        for notify in ready { notify(.success(())) }
        compaction?()
    }

    /// While the log is failed: opens the log file if it could not be, makes room again, and,
    /// when both work, takes changes again.
    private func recover(_ writer: inout LogWriter) {
        let resumed: Duration? = state.withLock { state in
            guard state.failure != nil else { return nil }
            if state.log.descriptor == nil {
                guard let descriptor = try? Self.openLog(directory: directory, generation: state.log.generation) else {
                    return nil
                }
                state.log.descriptor = descriptor
                state.log.queuedEnd += Int(lseek(descriptor, 0, SEEK_END))
                state.log.allocatedEnd = Int(lseek(descriptor, 0, SEEK_END))
            }
            let needed = state.log.queuedEnd + state.outstanding + Self.allocationStep
            guard Self.allocate(upTo: needed, in: &state.log, directory) == nil else { return nil }
            state.failure = nil
            let now = Date()
            state.resumedAt = now
            return .seconds(now.timeIntervalSince(state.stoppedAt ?? now))
        }
        if let resumed {
            logger.notice("the state directory takes changes again, after \(resumed.components.seconds) s")
        }
    }

    /// Opens generation `generation` for a rotation whose file could not be opened then.
    private func reopen(_ writer: inout LogWriter, generation: UInt64) -> String? {
        let descriptor = state.withLock { state in
            state.log.generation == generation ? state.log.descriptor : nil
        }
        guard let descriptor else {
            return "cannot open \(Self.logPath(directory: directory, generation: generation))"
        }
        writer.switchTo(
            descriptor: descriptor,
            generation: generation,
            path: Self.logPath(directory: directory, generation: generation)
        )
        return nil
    }

    /// At close, with records that could not be written: their replies say so.
    private func giveUp(reason: String?) {
        let waiters = state.withLock { state in
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        let reason = reason ?? "the daemon stopped before the log could take it"
        for waiter in waiters { waiter.notify(.failure(.notSaved(reason))) }
    }
}

/// The writer thread's handle on the log file it writes: how long the file is in whole records,
/// and whether it holds bytes not yet forced to disk.
private struct LogWriter {
    var descriptor: Int32?
    var generation: UInt64
    var path: String
    /// Bytes of whole records in the file.
    var length: Int
    var unsynced = false

    /// Writes `bytes`; on failure cuts the file back to its last whole record and returns why.
    mutating func append(_ bytes: [UInt8]) -> String? {
        guard let descriptor else { return "cannot open \(path)" }
        if let error = StateFiles.writeAll(descriptor, bytes) {
            // A record written in part would hide every record after it: it goes.
            _ = ftruncate(descriptor, off_t(length))
            return "cannot write \(path): \(String(cString: strerror(error)))"
        }
        length += bytes.count
        unsynced = true
        return nil
    }

    /// Forces what is written to disk.
    mutating func sync() -> String? {
        guard unsynced, let descriptor else { return nil }
        guard fsync(descriptor) == 0 else { return "cannot fsync \(path): \(String(cString: strerror(errno)))" }
        unsynced = false
        return nil
    }

    /// Closes the file and goes on with `descriptor` (a new generation, holding only its magic).
    mutating func switchTo(descriptor: Int32?, generation: UInt64, path: String) {
        close()
        self.descriptor = descriptor
        self.generation = generation
        self.path = path
        length = descriptor.map { Int(lseek($0, 0, SEEK_END)) } ?? 0
        unsynced = false
    }

    mutating func close() {
        if let descriptor { Foundation.close(descriptor) }
        descriptor = nil
    }
}
