import DataTableProtocol
import Dispatch
import Foundation
import Logging
import Synchronization

/// The append-only log of acknowledged changes, written by a thread of its own.
///
/// ``append(_:)`` is called while the changed table's lock is held, so each table's records reach the log in the
/// order the changes were made; it only queues the framed bytes and wakes the writer. The writer
/// takes everything queued at once, writes it with one call and, under ``FsyncPolicy/always``,
/// forces it to disk with one fsync before it lets the waiting replies go: requests that arrive
/// while a write or an fsync runs share the next one (group commit).
///
/// Logs are files `log.N` in the state directory; ``rotate()`` starts the next generation so a
/// snapshot can cover everything before it.
public final class Journal: Sendable {
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
        case rotate(to: UInt64)
    }

    private struct State {
        var queue: [Item] = []
        /// The sequence number of the last record appended.
        var appended: UInt64 = 0
        /// Every record up to this one is written, and under ``FsyncPolicy/always`` forced to disk.
        var durable: UInt64 = 0
        var waiters: [(sequence: UInt64, notify: Waiter)] = []
        /// Why writing failed, once it has.
        var failure: String?
        var closing = false
        /// The generation records appended now go to.
        var generation: UInt64
        /// Bytes in logs since the last snapshot, for ``compactionDue``.
        var bytesSinceSnapshot: Int
        var compactionDue: (@Sendable () -> Void)?
        /// Whether ``compactionDue`` was called since the last rotation.
        var compactionRequested = false
        var compactAfterBytes: Int
    }

    /// Opens (creating) `log.<generation>` in `directory` for appending and starts the writer.
    /// `bytesSinceSnapshot` counts what earlier logs already hold.
    init(
        directory: String,
        generation: UInt64,
        policy: FsyncPolicy,
        bytesSinceSnapshot: Int,
        compactAfterBytes: Int,
        logger: Logger
    ) throws(StateDirectoryError) {
        self.directory = directory
        self.policy = policy
        self.logger = logger
        self.state = Mutex(
            State(generation: generation, bytesSinceSnapshot: bytesSinceSnapshot, compactAfterBytes: compactAfterBytes)
        )
        let descriptor = try Self.openLog(directory: directory, generation: generation)
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
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system("cannot open \(path)", errno) }
        StateFiles.syncDirectory(directory)
        return descriptor
    }

    /// Queues `record`; returns its sequence number, for ``waitUntilDurable(_:)``.
    @discardableResult
    func append(_ record: StateRecord) -> UInt64 {
        let bytes = record.framed()
        let sequence = state.withLock { state in
            state.appended += 1
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
    /// is between two changes of each table.
    func rotate() -> UInt64 {
        let generation = state.withLock { state in
            state.generation += 1
            state.bytesSinceSnapshot = 0
            state.compactionRequested = false
            state.queue.append(.rotate(to: state.generation))
            return state.generation
        }
        wake.signal()
        return generation
    }

    /// Returns once record `sequence` is written to the log, and under ``FsyncPolicy/always``
    /// forced to disk; throws ``StateDirectoryError`` when the log cannot be written.
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
        let outcome: Result<Void, StateDirectoryError>? = state.withLock { state in
            if let failure = state.failure { return .failure(.notSaved(failure)) }
            if state.durable >= sequence { return .success(()) }
            state.waiters.append((sequence, notify))
            return nil
        }
        if let outcome { notify(outcome) }
    }

    /// How the log is doing, for `stats`.
    var status: StatsRequest.Durability {
        state.withLock { state in
            StatsRequest.Durability(
                stateDir: directory,
                fsync: policy.rawValue,
                changesLogged: Int(state.appended),
                logGeneration: Int(state.generation),
                logBytes: state.bytesSinceSnapshot,
                failure: state.failure
            )
        }
    }

    /// Calls `body` (off the writer thread's lock) whenever the logs since the last snapshot
    /// have grown past the compaction threshold.
    func onCompactionDue(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.compactionDue = body }
    }

    /// Writes and forces to disk everything queued, then stops the writer.
    func close() {
        state.withLock { $0.closing = true }
        wake.signal()
        stopped.wait()
    }

    // MARK: The writer thread

    /// Writes what is queued to `log.<generation>` (open as `descriptor`), rotating when told.
    private func writeLoop(descriptor: Int32, generation: UInt64) {
        var descriptor = descriptor
        var path = Self.logPath(directory: directory, generation: generation)
        var written: UInt64 = 0
        var unsynced = false
        var lastSync = ContinuousClock.now
        // After a failed write the log has a gap; nothing after it may be written either.
        var failed = false
        func fail(_ what: String, _ error: Int32) {
            self.fail("cannot \(what) \(path): \(String(cString: strerror(error)))")
            failed = true
        }
        while true {
            _ = wake.wait(timeout: .now() + .milliseconds(policy == .everysec ? 250 : 1000))
            let (items, closing) = state.withLock { state in
                defer { state.queue.removeAll(keepingCapacity: true) }
                return (state.queue, state.closing)
            }
            var wroteBytes = 0
            for item in items where !failed {
                switch item {
                case .records(let bytes, let through):
                    if let error = StateFiles.writeAll(descriptor, bytes) {
                        fail("write", error)
                    } else {
                        wroteBytes += bytes.count
                    }
                    written = through
                    unsynced = true
                case .rotate(let generation):
                    if fsync(descriptor) != 0 { fail("fsync", errno) }
                    Foundation.close(descriptor)
                    path = Self.logPath(directory: directory, generation: generation)
                    do {
                        descriptor = try Self.openLog(directory: directory, generation: generation)
                    } catch {
                        self.fail("\(error)")
                        failed = true
                        descriptor = open("/dev/null", O_WRONLY | O_CLOEXEC)
                    }
                    unsynced = false
                }
            }
            let now = ContinuousClock.now
            if unsynced, closing || policy == .always || (policy == .everysec && now - lastSync >= .seconds(1)) {
                if fsync(descriptor) != 0 { fail("fsync", errno) }
                lastSync = now
                unsynced = false
            }
            let (ready, failure, compaction) = state.withLock { state in
                if state.failure == nil, policy != .always || !unsynced { state.durable = max(state.durable, written) }
                state.bytesSinceSnapshot += wroteBytes
                let (durable, failure) = (state.durable, state.failure)
                var ready: [Waiter] = []
                state.waiters.removeAll { waiter in
                    guard failure != nil || waiter.sequence <= durable else { return false }
                    ready.append(waiter.notify)
                    return true
                }
                var compaction: (@Sendable () -> Void)?
                if state.bytesSinceSnapshot > state.compactAfterBytes, !state.closing, !state.compactionRequested {
                    compaction = state.compactionDue
                    state.compactionRequested = compaction != nil
                }
                return (ready, failure, compaction)
            }
            for notify in ready {
                notify(failure.map { .failure(.notSaved($0)) } ?? .success(()))
            }
            compaction?()
            if closing, state.withLock({ $0.queue.isEmpty }) {
                Foundation.close(descriptor)
                stopped.signal()
                return
            }
        }
    }

    private func fail(_ message: String) {
        let first = state.withLock { state in
            defer { if state.failure == nil { state.failure = message } }
            return state.failure == nil
        }
        if first {
            logger.critical("the state directory cannot be written; changes are kept in memory only: \(message)")
        }
    }

}
