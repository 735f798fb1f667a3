import DataTableProtocol
import Foundation
import Logging
import NIOCore

/// Serves one connection inside its channel pipeline, after the line decoder: reads request
/// lines in order and writes the replies in the same order.
///
/// The request path is one pass on the connection's event loop: a line of a small method
/// (``MethodTable``, "immediate") goes from its bytes through the envelope scanner and the params
/// reader to its handler and into the outbound buffer, with no task and no copy of the line.
/// Replies written while one read's lines are answered share one flush, so a pipeline of
/// requests is answered in one write(2), as Redis does.
///
/// Any other request runs as a task off the loop; the requests behind it wait, in order, and
/// the loop serves other connections meanwhile. A reply that acknowledges a change waits for
/// the change's record in the state directory's log without holding up the requests behind it:
/// they are read and carried out meanwhile (their records join the same write and fsync), and
/// their replies follow in order.
///
/// Reading stops while requests wait to be answered, while ``capacity`` replies wait for the
/// log, or while the client does not read its replies (the channel is not writable), so a
/// client that sends without reading is held back. An over-long line is answered once, after
/// the replies to the lines before it, and the connection is closed; so is a connection whose
/// client closed its side, once everything it sent is answered.
final class ConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How many replies may wait for the log at once.
    static let capacity = 64

    private let dispatcher: RequestDispatcher
    private var requestContext: RequestContext
    /// Lines read and not yet started.
    private var lines = CircularBuffer<ByteBuffer>()
    /// Replies in request order; the first is the next to write.
    private var replies = CircularBuffer<QueuedReply>()
    /// The number of the reply at the front of ``replies``, then of those after it.
    private var firstReplyNumber = 0
    /// A request is being answered off the loop.
    private var working = false
    /// A read asked for while reading was held back.
    private var readHeld = false
    /// Between a read's first line and the end of that read: the flush comes at the end.
    private var reading = false
    private var unflushed = false
    /// Replies written since the last write to the channel: the small replies of one read go
    /// out in one buffer (see ``emit(_:_:)``).
    private var outbound: ByteBuffer?
    private var inputClosed = false
    /// The daemon is shutting down: the lines read before are answered, later ones refused
    /// `shutting_down`, and the connection closes once it has been idle for ``drainQuiet``.
    private var draining = false
    /// Lines read before draining began that are still to be answered as usual.
    private var linesBeforeDrain = 0
    private var quietCheckScheduled = false
    private var tooLong: LineTooLongError?
    private var closing = false
    /// Lines are only answered once the server has admitted the connection (``admit()``);
    /// until then what arrives is kept.
    private var admitted = false
    private var channelContext: ChannelHandlerContext?
    /// Per watch, the delta timer set (``scheduleWatch(_:_:)``).
    private var watchTimers: [Int: Scheduled<Void>] = [:]
    /// Watches whose delta is due but waits: for the request under way, or for the client to
    /// read what it was sent.
    private var watchesHeld: Set<Int> = []
    /// While a watch's window is worked out away from the connection's context (``beginRefresh(_:)``):
    /// the watches woken meanwhile, out of date again once the worked-out context is back.
    private var wokenWhileRefreshing: Set<Int>?
    /// The wake-ups of this connection's watches, merged until it looks at their tables.
    private let watchWakes = WatchWakes()

    private struct QueuedReply {
        var reply: PendingReply
        /// How waiting for the log ended; `nil` while it waits.
        var logged: Result<Void, StateDirectoryError>?
    }

    init(dispatcher: RequestDispatcher, context: RequestContext) {
        self.dispatcher = dispatcher
        self.requestContext = context
    }

    func handlerAdded(context: ChannelHandlerContext) {
        channelContext = context
        let channel = context.channel
        requestContext.notify = { line in
            channel.writeAndFlush(Self.frame(line, allocator: channel.allocator), promise: nil)
        }
        requestContext.deliver = { line in
            channel.writeAndFlush(Self.frame(line, allocator: channel.allocator))
        }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let loop = context.eventLoop
        let wakes = watchWakes
        requestContext.wakeWatches = { table in
            guard wakes.shouldWake(table) else { return }
            loop.execute {
                let (handler, context) = bound.value
                handler.watchesWoken(table, context)
            }
        }
        let limits = requestContext.server.limits
        requestContext.outbox = EventOutbox(
            channel: channel,
            limits: .init(
                hard: limits.maxOutputBytes,
                soft: limits.softOutputBytes,
                grace: .seconds(limits.softOutputSeconds)
            ),
            budget: requestContext.server.eventBudget,
            logger: requestContext.logger
        )
    }

    /// Starts answering: the connection is within the daemon's limits and its peer allowed.
    func admit() {
        guard let context = channelContext, !admitted else { return }
        admitted = true
        requestContext.logger.debug("connection opened")
        answer(context)
        flushIfNeeded(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing = true
        lines.removeAll()
        replies.removeAll()
        requestContext.server.dropViews(of: requestContext.views)
        requestContext.server.watches.unwatchAll(connection: requestContext.connection.id)
        for timer in watchTimers.values { timer.cancel() }
        watchTimers.removeAll()
        if admitted { requestContext.logger.debug("connection closed") }
        context.fireChannelInactive()
    }

    // MARK: Reading

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        lines.append(unwrapInboundIn(data))
        reading = true
        answer(context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        reading = false
        flushIfNeeded(context)
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        if holdsReads {
            readHeld = true
        } else {
            context.read()
        }
    }

    /// Whether a request it received is still being answered, or waits to be, or its reply waits
    /// for the log: shutting down, the connection is left to finish (it closes itself once
    /// everything is answered).
    var isAnswering: Bool {
        working || !lines.isEmpty || replies.contains { $0.logged == nil }
    }

    /// How long a draining connection stays open with nothing to answer, for what its client
    /// had already sent to be read (and refused) rather than lost.
    static let drainQuiet = TimeAmount.milliseconds(100)

    /// Shutting down: answers what was read, refuses with `shutting_down` what is read from now
    /// on (nothing of it is applied), and closes once nothing is left to answer.
    func drain() {
        guard let context = channelContext, !draining else { return }
        draining = true
        linesBeforeDrain = lines.count
        if readHeld, !holdsReads {
            readHeld = false
            context.read()
        }
        finishIfDone(context)
    }

    /// Whether reading waits: requests are still to be answered, too many replies wait for the
    /// log, or the connection is ending.
    private var holdsReads: Bool {
        !admitted || !lines.isEmpty || replies.count >= Self.capacity || tooLong != nil || closing
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            inputClosed = true
            finishIfDone(context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? LineTooLongError {
            // The decoder reads nothing more; the lines before this one are still answered.
            tooLong = error
            finishIfDone(context)
        } else {
            requestContext.logger.debug("connection ended", metadata: ["error": "\(error)"])
            context.close(promise: nil)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if admitted, context.channel.isWritable {
            answer(context)
            flushIfNeeded(context)
            releaseHeldWatches(context)
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: Answering

    /// Answers the lines read, in order, until one must run off the loop, too many replies
    /// wait, or the client stops reading.
    private func answer(_ context: ChannelHandlerContext) {
        guard admitted else { return }
        while !working, !closing, replies.count < Self.capacity, context.channel.isWritable,
            let line = lines.popFirst()
        {
            if draining {
                guard linesBeforeDrain > 0 else {
                    queue(refusal(line), context)
                    writeReplies(context)
                    continue
                }
                linesBeforeDrain -= 1
            }
            let dispatched = line.withUnsafeReadableBytes { bytes in
                dispatcher.dispatch(bytes, context: &requestContext)
            }
            switch dispatched {
            case .answered(let reply):
                queue(reply, context)
                writeReplies(context)
                watchesWoken(nil, context)
            case .offLoop(let request):
                answerOffLoop(request, context)
            }
        }
        writeReplies(context)
        if !reading { flushIfNeeded(context) }
        finishIfDone(context)
        if readHeld, !holdsReads {
            readHeld = false
            context.read()
        }
    }

    /// Answers `request` in a task; the connection's later lines wait for it.
    private func answerOffLoop(_ request: RequestDispatcher.OffLoopRequest, _ context: ChannelHandlerContext) {
        working = true
        let requestContext = self.requestContext
        let eventLoop = context.eventLoop
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: eventLoop)
        Task {
            var requestContext = requestContext
            let reply = await request.answer(context: &requestContext)
            eventLoop.execute { [requestContext] in
                let (handler, context) = bound.value
                handler.working = false
                guard !handler.closing else {
                    // A filter set while the connection went is dropped with the rest.
                    requestContext.server.dropViews(of: requestContext.views)
                    return
                }
                // The request may have changed the connection's state (`hello`, a view).
                handler.requestContext = requestContext
                handler.queue(reply, context)
                handler.watchesWoken(nil, context)
                handler.answer(context)
                handler.flushIfNeeded(context)
                handler.releaseHeldWatches(context)
            }
        }
    }

    /// Queues `reply` behind the replies before it; one that acknowledges a change waits for
    /// the change's log record.
    private func queue(_ reply: PendingReply, _ context: ChannelHandlerContext) {
        guard !reply.parts.isEmpty else { return }
        guard let journal = requestContext.server.journal, let record = reply.record else {
            replies.append(QueuedReply(reply: reply, logged: .success(())))
            return
        }
        let number = firstReplyNumber + replies.count
        replies.append(QueuedReply(reply: reply, logged: nil))
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        journal.whenDurable(record) { outcome in
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.logged(number, outcome, context)
            }
        }
    }

    /// Reply `number` may go once the ones before it have.
    private func logged(_ number: Int, _ outcome: Result<Void, StateDirectoryError>, _ context: ChannelHandlerContext) {
        let index = number - firstReplyNumber
        guard !closing, index >= 0, index < replies.count else { return }
        replies[replies.index(replies.startIndex, offsetBy: index)].logged = outcome
        answer(context)
        flushIfNeeded(context)
    }

    /// Writes the replies at the front that are ready (the flush comes at the end of the read,
    /// or of the pass that wrote them).
    private func writeReplies(_ context: ChannelHandlerContext) {
        while let first = replies.first, let logged = first.logged {
            replies.removeFirst()
            firstReplyNumber += 1
            let unsaved: (any Error)? =
                switch logged {
                case .success: nil
                case .failure(let error): error
                }
            guard let line = first.reply.line(unsaved: unsaved) else { continue }
            emit(line, context)
        }
    }

    /// Adds a reply line to ``outbound``, which goes to the channel once it holds
    /// ``coalescedBytes`` (so the channel's writability still says when the client reads too
    /// slowly) or at the flush.
    private func emit(_ line: Data, _ context: ChannelHandlerContext) {
        if outbound == nil {
            outbound = context.channel.allocator.buffer(capacity: max(line.count + 1, 1024))
        }
        outbound!.writeBytes(line)
        outbound!.writeInteger(UInt8(ascii: "\n"))
        unflushed = true
        if outbound!.readableBytes >= Self.coalescedBytes { writeOutbound(context) }
    }

    /// The `shutting_down` refusal of a line read while draining (see ``ShutdownRefusal``).
    private func refusal(_ line: ByteBuffer) -> PendingReply {
        let (reply, requests) = ShutdownRefusal.reply(to: Data(line.readableBytesView))
        requestContext.server.countRequests(requests)
        return reply
    }

    /// How many bytes of replies are gathered before they are written to the channel.
    static let coalescedBytes = 16 * 1024

    private func writeOutbound(_ context: ChannelHandlerContext) {
        guard let buffer = outbound else { return }
        outbound = nil
        context.write(wrapOutboundOut(buffer), promise: nil)
    }

    private func flushIfNeeded(_ context: ChannelHandlerContext) {
        guard unflushed else { return }
        unflushed = false
        writeOutbound(context)
        context.flush()
    }

    /// Closes the connection once everything it sent is answered, when its client closed its
    /// side (or the daemon stopped reading), or after answering an over-long line.
    private func finishIfDone(_ context: ChannelHandlerContext) {
        guard admitted, !closing, lines.isEmpty, !working, replies.isEmpty else { return }
        if let tooLong {
            closing = true
            requestContext.server.countRequests(1)
            requestContext.logger.debug("line too long; closing the connection")
            let reply = ReplyEncoding.failure(
                id: .null,
                .limitExceeded(
                    "The request line is longer than \(tooLong.maximumLineBytes) bytes; the connection is closed.",
                    limit: "maxLineBytes",
                    value: tooLong.maximumLineBytes
                )
            )
            emit(reply, context)
        } else if inputClosed {
            closing = true
        } else if draining {
            // Whatever the client sent before the shutdown is read (and refused) first.
            guard !quietCheckScheduled else { return }
            quietCheckScheduled = true
            let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: Self.drainQuiet) {
                let (handler, context) = bound.value
                handler.quietCheckScheduled = false
                guard handler.lines.isEmpty, !handler.working, handler.replies.isEmpty else { return }
                handler.inputClosed = true
                handler.finishIfDone(context)
            }
            return
        } else {
            return
        }
        unflushed = false
        writeOutbound(context)
        // Closing drops what is still queued: the last write going out says everything has.
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    // MARK: Watches

    /// The watches of `table` (every watch, when `nil`: the connection's own request may have
    /// moved its views) are out of date: each sends its delta once its rate allows.
    private func watchesWoken(_ table: String?, _ context: ChannelHandlerContext) {
        guard !requestContext.watches.isEmpty, !closing else { return }
        for (id, watch) in requestContext.watches where table == nil || watch.table == table {
            requestContext.watches[id]?.stale = true
            wokenWhileRefreshing?.insert(id)
            scheduleWatch(id, context)
        }
    }

    /// Sets the timer of watch `id` for when its next delta may go (at once, when its last
    /// went longer ago than its rate asks), unless one is set.
    private func scheduleWatch(_ id: Int, _ context: ChannelHandlerContext) {
        guard watchTimers[id] == nil, !watchesHeld.contains(id), let watch = requestContext.watches[id] else { return }
        let wait = watch.sentAt.map { $0 + watch.interval - .now } ?? .zero
        let nanoseconds = max(0, wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000)
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        watchTimers[id] = context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            let (handler, context) = bound.value
            handler.watchTimers[id] = nil
            handler.sendWatch(id, context)
        }
    }

    /// Sends watch `id`'s delta, if anything changed; waits while a request is under way or
    /// the client does not read (the delta then merges what changes meanwhile).
    private func sendWatch(_ id: Int, _ context: ChannelHandlerContext) {
        guard !closing, requestContext.watches[id]?.stale == true else { return }
        guard !working, context.channel.isWritable else {
            watchesHeld.insert(id)
            return
        }
        refreshWatchOnWatchThread(id, context)
    }

    /// Works out watch `id`'s window on ``WatchWork``'s threads, not on the loop, and sends its
    /// delta: a connection that writes shares its loop with many that watch, and its requests
    /// must not wait behind their windows. The connection's later requests wait for it, as for
    /// a request off the loop; a watch whose view must be measured first goes on to
    /// ``refreshWatchOffLoop(_:_:)``.
    private func refreshWatchOnWatchThread(_ id: Int, _ context: ChannelHandlerContext) {
        let requestContext = beginRefresh(id)
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        WatchWork.shared.submit {
            var requestContext = requestContext
            let refreshed = MethodTable.refreshWatch(id, &requestContext)
            eventLoop.execute { [requestContext] in
                let (handler, context) = bound.value
                guard handler.endRefresh(requestContext) else { return }
                if refreshed.mustMeasure {
                    handler.refreshWatchOffLoop(id, context)
                    return
                }
                handler.resume(after: refreshed.line, context)
            }
        }
    }

    /// Works out watch `id`'s window off the loop, its view to be measured first; the
    /// connection's later requests wait for it, as for a request.
    private func refreshWatchOffLoop(_ id: Int, _ context: ChannelHandlerContext) {
        let requestContext = beginRefresh(id)
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        Task {
            let refreshed = await MethodTable.refreshedOffLoop(id, requestContext)
            eventLoop.execute { [refreshed] in
                let (handler, context) = bound.value
                guard handler.endRefresh(refreshed.context) else { return }
                handler.resume(after: refreshed.line, context)
            }
        }
    }

    /// Starts working out watch `id`'s window away from the connection's context: the
    /// connection answers nothing else meanwhile, and a change of the table from now on wakes
    /// it. The context to work on.
    private func beginRefresh(_ id: Int) -> RequestContext {
        working = true
        wokenWhileRefreshing = []
        if let table = requestContext.watches[id]?.table { watchWakes.looking(at: table) }
        return requestContext
    }

    /// Takes back the context a refresh worked on; the watches woken meanwhile are out of date
    /// again. `false` when the connection is closing (nothing more to do).
    private func endRefresh(_ worked: RequestContext) -> Bool {
        working = false
        let woken = wokenWhileRefreshing ?? []
        wokenWhileRefreshing = nil
        guard !closing else { return false }
        requestContext = worked
        for id in woken { requestContext.watches[id]?.stale = true }
        return true
    }

    /// Sends a refresh's notification, if any, and goes on with what waited for it.
    private func resume(after line: Data?, _ context: ChannelHandlerContext) {
        if let line { writeNotification(line, context) }
        answer(context)
        flushIfNeeded(context)
        releaseHeldWatches(context)
    }

    /// Writes a notification line (with its newline) now, ahead of replies still waiting.
    private func writeNotification(_ line: Data, _ context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: line.count)
        buffer.writeBytes(line)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    /// Sends the deltas that waited, once nothing holds them.
    private func releaseHeldWatches(_ context: ChannelHandlerContext) {
        guard !watchesHeld.isEmpty, !working, context.channel.isWritable else { return }
        let held = watchesHeld
        watchesHeld.removeAll()
        for id in held { scheduleWatch(id, context) }
    }

    // MARK: Helpers

    /// Writes one error reply to a connection the daemon does not serve, and closes it.
    static func refuse(_ channel: any Channel, with error: ResponseError) async {
        let reply = frame(ReplyEncoding.failure(id: .null, error), allocator: channel.allocator)
        try? await channel.writeAndFlush(reply)
        try? await channel.close()
    }

    /// A reply line: the JSON and its newline.
    static func frame(_ reply: Data, allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: reply.count + 1)
        buffer.writeBytes(reply)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }
}

/// Lives on its connection's event loop only.
@available(*, unavailable)
extension ConnectionHandler: Sendable {}
