import DataTableProtocol
import Foundation
import Logging
import NIOCore

/// Serves one connection: reads request lines in order, writes the replies in the same order
/// (a reply waiting for the state directory's log lets the next requests be read meanwhile, see
/// ``OrderedReplies``; replies written in one pass of the event loop share a flush, see
/// ``ReplyFlusher``), and answers an over-long line once before closing.
struct ConnectionSession {
    typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    let connection: Connection
    let dispatcher: RequestDispatcher
    var context: RequestContext

    /// Runs until the client closes its side (or the server stops reading); then the connection
    /// is closed. Errors end this connection only.
    mutating func run() async {
        let channel = connection.channel
        let logger = context.logger
        logger.debug("connection opened")
        do {
            try await connection.executeThenClose { inbound, outbound in
                context.notify = { line in
                    channel.writeAndFlush(Self.frame(line, allocator: channel.allocator), promise: nil)
                }
                context.deliver = { line in
                    channel.writeAndFlush(Self.frame(line, allocator: channel.allocator))
                }
                let limits = context.server.limits
                context.outbox = EventOutbox(
                    channel: channel,
                    limits: .init(
                        hard: limits.maxOutputBytes,
                        soft: limits.softOutputBytes,
                        grace: .seconds(limits.softOutputSeconds)
                    ),
                    logger: logger
                )
                defer { context.server.events.unsubscribeAll(connection: context.connection.id) }
                let flusher = ReplyFlusher(channel: channel, outbound: outbound)
                var replies = OrderedReplies(
                    journal: context.server.journal,
                    executor: EventLoopTaskExecutor(channel.eventLoop)
                ) { reply in
                    try await flusher.write(Self.frame(reply, allocator: channel.allocator))
                }
                do {
                    for try await line in inbound {
                        let reply = await dispatcher.pendingReply(to: Data(line.readableBytesView), context: &context)
                        try await replies.send(reply)
                    }
                    await replies.drain()
                } catch let error as LineTooLongError {
                    await replies.drain()
                    context.server.countRequests(1)
                    logger.debug("line too long; closing the connection")
                    let reply = ReplyEncoding.failure(
                        id: .null,
                        .limitExceeded(
                            "The request line is longer than \(error.maximumLineBytes) bytes; the connection is closed.",
                            limit: "maxLineBytes",
                            value: error.maximumLineBytes
                        )
                    )
                    try await outbound.write(Self.frame(reply, allocator: channel.allocator))
                }
                try await Self.flush(channel)
            }
            logger.debug("connection closed")
        } catch {
            logger.debug("connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// Writes one error reply and closes, without reading anything.
    static func refuse(_ connection: Connection, with error: ResponseError) async {
        let reply = ReplyEncoding.failure(id: .null, error)
        try? await connection.executeThenClose { _, outbound in
            try await outbound.write(frame(reply, allocator: connection.channel.allocator))
            try await flush(connection.channel)
        }
    }

    /// Waits until every reply written so far has left for the socket. Closing the channel
    /// before that would drop what is still queued (a large reply to a client that half-closed).
    /// Writes complete in order, so an empty write completes after all earlier ones.
    static func flush(_ channel: any Channel) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(capacity: 0)).get()
    }

    /// A reply line: the JSON and its newline.
    static func frame(_ reply: Data, allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: reply.count + 1)
        buffer.writeBytes(reply)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }
}
