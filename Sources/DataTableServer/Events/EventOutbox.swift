import DataTableProtocol
import Foundation
import Logging
import NIOCore
import Synchronization

/// Events on their way to one connection.
///
/// Publishing never waits: an event is queued here and the queue is written out on the
/// connection's event loop, bursts coalesced into one event per run of the same kind. Bytes
/// written but not yet taken by the client are counted; a client that lets more than the hard
/// limit pile up, or stays above the soft limit for longer than its grace period, is not
/// reading, and its connection is closed with a logged reason, so it can neither stall the
/// daemon nor grow its memory.
final class EventOutbox: Sendable {
    private struct State {
        var pending: [TableEvent] = []
        var flushScheduled = false
        /// Bytes handed to the channel and not yet written to the socket.
        var unsent = 0
        /// Since when `unsent` has been above the soft limit.
        var aboveSoftSince: ContinuousClock.Instant?
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
    private let logger: Logger
    private let state = Mutex(State())

    init(channel: any Channel, limits: Limits, logger: Logger) {
        self.channel = channel
        self.limits = limits
        self.logger = logger
    }

    /// Queues `event`; it is written on the connection's event loop.
    func send(_ event: TableEvent) {
        let schedule = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.pending.append(event)
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        if schedule { channel.eventLoop.execute { self.flush() } }
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
            let overLimit = state.withLock { state -> String? in
                guard !state.closed else { return nil }
                state.unsent += size
                if state.unsent > limits.soft {
                    state.aboveSoftSince = state.aboveSoftSince ?? now
                } else {
                    state.aboveSoftSince = nil
                }
                if state.unsent > limits.hard {
                    state.closed = true
                    return "more than \(limits.hard) bytes of events unread"
                }
                if let since = state.aboveSoftSince, now - since > limits.grace {
                    state.closed = true
                    return "more than \(limits.soft) bytes of events unread for over \(limits.grace)"
                }
                return nil
            }
            if let overLimit {
                logger.warning(
                    "closing the connection: it does not read its events",
                    metadata: ["reason": "\(overLimit)", "table": "\(event.table)"]
                )
                channel.close(promise: nil)
                return
            }
            let promise = channel.eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { _ in
                self.state.withLock { state in
                    state.unsent -= size
                    if state.unsent <= self.limits.soft { state.aboveSoftSince = nil }
                }
            }
            channel.writeAndFlush(channel.allocator.buffer(bytes: line), promise: promise)
        }
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
