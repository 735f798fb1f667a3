import DataTableProtocol
import Foundation
import Logging
import NIOCore
import Synchronization

/// Events on their way to one connection.
///
/// Publishing never waits: an event is queued here and the queue is written out on the
/// connection's event loop, bursts coalesced into one event per run of the same kind. Bytes
/// handed to the channel but not yet taken by the socket ("unsent") are counted.
///
/// A connection that falls behind — more than the soft limit unsent, or every subscriber
/// together past ``OutputBudget``'s limit — gets no more events for a while: what it misses is
/// folded into one `resync` event per table (from the version it last saw to the latest), sent
/// once it has taken most of what was sent. So a slow subscriber costs the daemon at most about
/// the soft limit, never every row's event. One that stays above the soft limit for longer than
/// its grace period, or passes the hard limit, is not reading at all: its connection is closed
/// with a logged reason, on time, whether or not more events come.
final class EventOutbox: Sendable {
    private struct State {
        var pending: [TableEvent] = []
        var flushScheduled = false
        /// Bytes handed to the channel and not yet written to the socket.
        var unsent = 0
        /// Since when `unsent` has been above the soft limit.
        var aboveSoftSince: ContinuousClock.Instant?
        /// Whether the check at the end of the grace period is scheduled.
        var graceCheckScheduled = false
        /// Events are held back: what they say is kept in `missed`.
        var lagging = false
        /// Per table, the `resync` event standing for the events not sent.
        var missed: [String: TableEvent] = [:]
        var closed = false
    }

    /// How many unsent bytes a connection may have: always at most `hard`; above `soft` for at
    /// most `grace`.
    struct Limits: Sendable {
        var hard: Int
        var soft: Int
        var grace: Duration
    }

    private let channel: any Channel
    private let limits: Limits
    private let budget: OutputBudget
    private let logger: Logger
    private let state = Mutex(State())

    init(channel: any Channel, limits: Limits, budget: OutputBudget, logger: Logger) {
        self.channel = channel
        self.limits = limits
        self.budget = budget
        self.logger = logger
    }

    /// Queues `event`; it is written on the connection's event loop (or, while the connection
    /// lags, folded into a `resync` event for later).
    func send(_ event: TableEvent) {
        let schedule = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            if state.lagging { resumeIfCaughtUp(&state) }
            if state.lagging || (state.unsent > 0 && budget.isSpent) {
                state.lagging = true
                Self.miss(event, in: &state)
                return false
            }
            state.pending.append(event)
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        if schedule { channel.eventLoop.execute { self.flush() } }
    }

    /// Notes `event` as not sent: it widens its table's `resync` event.
    private static func miss(_ event: TableEvent, in state: inout State) {
        if var resync = state.missed[event.table] {
            resync.version = event.version
            resync.rows = event.rows
            state.missed[event.table] = resync
        } else {
            state.missed[event.table] = TableEvent(
                table: event.table,
                kind: .resync,
                version: event.version,
                previous: event.previous,
                rows: event.rows
            )
        }
    }

    /// Writes what is queued, coalesced.
    private func flush() {
        let events = state.withLock { state -> [TableEvent] in
            state.flushScheduled = false
            defer { state.pending.removeAll(keepingCapacity: true) }
            return state.pending
        }
        for event in Self.coalesce(events) {
            var line = ReplyEncoding.notification(method: "event", params: event)
            line.append(UInt8(ascii: "\n"))
            let size = line.count
            let now = ContinuousClock.now
            let (overLimit, checkGrace) = state.withLock { state -> (String?, Bool) in
                guard !state.closed else { return (nil, false) }
                state.unsent += size
                var checkGrace = false
                if state.unsent > limits.soft {
                    state.lagging = true
                    if state.aboveSoftSince == nil {
                        state.aboveSoftSince = now
                        checkGrace = !state.graceCheckScheduled
                        state.graceCheckScheduled = true
                    }
                }
                if state.unsent > limits.hard {
                    state.closed = true
                    return ("more than \(limits.hard) bytes of events unread", false)
                }
                return (nil, checkGrace)
            }
            if let overLimit {
                close(because: overLimit, table: event.table)
                return
            }
            if checkGrace { scheduleGraceCheck(in: limits.grace) }
            budget.add(size)
            let promise = channel.eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { _ in self.taken(size) }
            channel.writeAndFlush(channel.allocator.buffer(bytes: line), promise: promise)
        }
    }

    /// `size` bytes left for the socket: once most of what was sent is taken, a lagging
    /// connection gets its `resync` events and events flow again.
    private func taken(_ size: Int) {
        budget.add(-size)
        let (resume, retry) = state.withLock { state -> (Bool, Bool) in
            state.unsent -= size
            if state.unsent <= limits.soft { state.aboveSoftSince = nil }
            guard state.lagging, !state.closed else { return (false, false) }
            resumeIfCaughtUp(&state)
            // Behind only for the others' sake, with nothing of its own left to take: look again soon.
            let retry = state.lagging && state.unsent == 0
            defer { if !state.pending.isEmpty { state.flushScheduled = true } }
            return (!state.flushScheduled && !state.pending.isEmpty, retry)
        }
        if resume { channel.eventLoop.execute { self.flush() } }
        if retry { channel.eventLoop.scheduleTask(in: .milliseconds(100)) { self.taken(0) } }
    }

    /// Lets events flow again once the connection has taken most of what was sent (and every
    /// subscriber together is within the budget): its `resync` events go first.
    private func resumeIfCaughtUp(_ state: inout State) {
        guard state.unsent <= limits.soft / 2, !budget.isSpent else { return }
        state.lagging = false
        state.pending.append(contentsOf: state.missed.values.sorted { $0.table < $1.table })
        state.missed.removeAll()
    }

    /// Closes the connection when it has been above the soft limit for the whole grace period,
    /// whether or not more events came meanwhile.
    private func scheduleGraceCheck(in delay: Duration) {
        let nanoseconds = Int64((delay / .nanoseconds(1)).rounded(.up))
        channel.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            let now = ContinuousClock.now
            let (close, again) = self.state.withLock { state -> (Bool, Duration?) in
                state.graceCheckScheduled = false
                guard !state.closed, let since = state.aboveSoftSince else { return (false, nil) }
                if now - since >= self.limits.grace {
                    state.closed = true
                    return (true, nil)
                }
                state.graceCheckScheduled = true
                return (false, self.limits.grace - (now - since))
            }
            if close {
                self.close(
                    because: "more than \(self.limits.soft) bytes of events unread for over \(self.limits.grace)",
                    table: nil
                )
            } else if let again {
                self.scheduleGraceCheck(in: again)
            }
        }
    }

    private func close(because reason: String, table: String?) {
        var metadata: Logger.Metadata = ["reason": "\(reason)"]
        if let table { metadata["table"] = "\(table)" }
        logger.warning("closing the connection: it does not read its events", metadata: metadata)
        channel.close(promise: nil)
    }

    /// Runs of events of one kind folded into one.
    static func coalesce(_ events: [TableEvent]) -> [TableEvent] {
        var result: [TableEvent] = []
        for event in events {
            if let last = result.indices.last, result[last].canAbsorb(event) {
                result[last].absorb(event)
            } else {
                result.append(event)
            }
        }
        return result
    }
}

/// The bytes of events every connection together has not yet written to its socket, against
/// `maxEventBytes`: past it, connections with events still unsent get `resync` events later
/// instead of more now.
final class OutputBudget: Sendable {
    let limit: Int
    private let unsent = Atomic(0)

    init(limit: Int) {
        self.limit = limit
    }

    func add(_ bytes: Int) {
        unsent.add(bytes, ordering: .relaxed)
    }

    /// Whether every connection's unsent events together are past the limit.
    var isSpent: Bool { unsent.load(ordering: .relaxed) > limit }
}
