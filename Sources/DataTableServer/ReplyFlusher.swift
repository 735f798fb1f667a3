import NIOCore
import Synchronization

/// Writes reply lines to a connection from its event loop and flushes once per pass of the
/// loop, so replies to requests that arrived together (a pipeline) leave in one write(2), as
/// Redis does, instead of one each.
///
/// When the channel stops being writable (a client that does not read), ``write(_:)`` waits
/// until it is writable again, through the channel's async writer: replies never pile up
/// without bound.
final class ReplyFlusher: Sendable {
    typealias Outbound = NIOAsyncChannelOutboundWriter<ByteBuffer>

    private let channel: any Channel
    private let outbound: Outbound
    private let flushPending = Atomic(false)

    init(channel: any Channel, outbound: Outbound) {
        self.channel = channel
        self.outbound = outbound
    }

    /// Queues `line` and makes sure a flush follows in this pass of the event loop.
    func write(_ line: ByteBuffer) async throws {
        guard channel.eventLoop.inEventLoop else {
            // Off the loop (after a method that ran elsewhere) a write is queued on the loop,
            // behind a flush already scheduled: it flushes itself.
            try await outbound.write(line)
            return
        }
        channel.write(line, promise: nil)
        guard channel.isWritable else {
            // The client reads slowly: send what is queued, then return once it has read enough.
            channel.flush()
            try await outbound.write(channel.allocator.buffer(capacity: 0))
            return
        }
        guard !flushPending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        channel.eventLoop.execute { [self] in
            flushPending.store(false, ordering: .releasing)
            channel.flush()
        }
    }
}
