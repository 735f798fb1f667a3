import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `watch` and `unwatch` (protocol.md, "watch").
    mutating func registerWatchMethods() {
        register(WatchRequest.self) { request, context in
            let id = try Self.watchID(request, context)
            let scroll = Self.watchedScroll(request, id: id, context)
            guard let reply = try Self.scroll(scroll, &context, unlessMeasuring: true) else { return nil }
            return try Self.watch(request, id: id, values: scroll.values ?? false, reply, &context)
        } otherwise: { request, context in
            let id = try Self.watchID(request, context)
            let scroll = Self.watchedScroll(request, id: id, context)
            let reply = try await Self.scrollMeasuring(scroll, &context)
            return try Self.watch(request, id: id, values: scroll.values ?? false, reply, &context)
        }
        registerImmediate(UnwatchRequest.self) { request, context in
            try request.validate()
            let found = context.watches.values.first { watch in
                request.watch.map { $0 == watch.id } ?? (watch.table == request.table)
            }
            guard let watch = found else { return UnwatchRequest.Response(watch: nil, ended: false) }
            context.endWatch(watch.id)
            return UnwatchRequest.Response(watch: watch.id, ended: true)
        }
    }

    /// The id of the watch `request` moves or reshapes (the one it names, else this
    /// connection's watch of the table), or `nil` for a new one; checked before the view moves.
    private static func watchID(_ request: WatchRequest, _ context: RequestContext) throws -> Int? {
        try request.validate()
        guard let id = request.watch else {
            return context.watches.values.first { $0.table == request.scroll.table }?.id
        }
        guard let watch = context.watches[id] else {
            throw ResponseError.invalidParams("This connection has no watch \(id).", field: "params.watch")
        }
        guard watch.table == request.scroll.table else {
            throw ResponseError.invalidParams(
                "Watch \(id) watches \(watch.table); a watch keeps its table.",
                field: "params.table"
            )
        }
        return id
    }

    /// The scroll a `watch` makes: its own, keeping the watch's `values` when it names none.
    private static func watchedScroll(_ request: WatchRequest, id: Int?, _ context: RequestContext) -> ScrollRequest {
        var scroll = request.scroll
        if scroll.values == nil, let id, let watch = context.watches[id] { scroll.values = watch.values }
        return scroll
    }

    /// Makes or reshapes the watch once its view scrolled to `reply`: a new watch answers with
    /// the window, a reshape with the delta from what the client holds (or the window, when that
    /// is smaller).
    private static func watch(
        _ request: WatchRequest,
        id: Int?,
        values: Bool,
        _ reply: ScrollReply,
        _ context: inout RequestContext
    ) throws -> WatchRequest.Response {
        let window = try windowJSON(reply)
        guard let id, var watch = context.watches[id] else {
            let id = context.nextWatchID
            context.nextWatchID += 1
            var watch = WatchState(
                id: id,
                table: request.scroll.table,
                maxRate: request.maxRate ?? WatchRequest.defaultRate,
                window: window
            )
            watch.frozen = request.freeze ?? false
            watch.values = values
            context.watches[id] = watch
            if let wake = context.wakeWatches {
                context.server.watches.watch(watch.table, connection: context.connection.id, wake: wake)
            }
            return WatchRequest.Response(watch: id, window: window, delta: nil)
        }
        watch.maxRate = request.maxRate ?? watch.maxRate
        watch.frozen = request.freeze ?? watch.frozen
        watch.values = values
        var delta = WindowDelta.between(watch.window, window)
        watch.seq += 1
        (delta.watch, delta.seq, delta.version) = (id, watch.seq, reply.version)
        watch.window = window
        watch.stale = false
        watch.pending = 0
        context.watches[id] = watch
        let smaller =
            (try? JSONEncoder().encode(delta).count) ?? .max < (try? JSONEncoder().encode(window).count) ?? 0
        // (`JSONValue?.none`: a bare nil would be JSONValue's own null.)
        return WatchRequest.Response(
            watch: id,
            window: smaller ? JSONValue?.none : window,
            delta: smaller ? delta : nil
        )
    }

    /// A window as a watch keeps and sends it: the scroll's reply without what a watch leaves
    /// out (each row's `highlight`, which fades with the clock, and `lost`, told once).
    static func windowJSON(_ reply: ScrollReply) throws -> JSONValue {
        // Written as the scroll reply writes itself and read back by the params reader: a
        // window is worked out this way for every watch many times a second.
        var writer = JSONWriter(capacity: reply.expectedBytes)
        reply.write(to: &writer)
        let bytes = writer.bytes
        let window =
            try bytes.withUnsafeBytes { bytes in
                var reader = ParamsReader(bytes)
                return reader.value()
            } ?? JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(reply))
        return WindowDelta.watched(window)
    }

    /// What a refresh of a watch came to.
    enum WatchRefresh {
        /// Nothing to send: the window is as the client holds it.
        case nothing
        /// A `window` notification to send.
        case send(Data)
        /// The view must be measured first: refresh off the loop (``refreshWatchMeasuring(_:_:)``).
        case offLoop

        /// Whether the view must be measured first.
        var mustMeasure: Bool {
            if case .offLoop = self { return true }
            return false
        }

        /// The notification to send, if any.
        var line: Data? {
            if case .send(let line) = self { return line }
            return nil
        }
    }

    /// Works out the watch's window again, on the connection's event loop, when its table or
    /// view changed; the delta from what the client holds, if anything changed. A watch whose
    /// table went, or that its user may no longer read, ends with a last notification saying why.
    static func refreshWatch(_ id: Int, _ context: inout RequestContext) -> WatchRefresh {
        guard let watch = context.watches[id], watch.stale else { return .nothing }
        do {
            guard let reply = try Self.scroll(watch.scroll, &context, unlessMeasuring: true, looking: false) else {
                return .offLoop
            }
            return try delta(id, reply, &context)
        } catch {
            return ended(id, error, &context)
        }
    }

    /// ``refreshWatch(_:_:)`` for a view that must be measured first, off the loop.
    static func refreshWatchMeasuring(_ id: Int, _ context: inout RequestContext) async -> WatchRefresh {
        guard let watch = context.watches[id] else { return .nothing }
        do {
            let reply = try await Self.scrollMeasuring(watch.scroll, &context, looking: false)
            return try delta(id, reply, &context)
        } catch {
            return ended(id, error, &context)
        }
    }

    /// ``refreshWatchMeasuring(_:_:)`` on a copy of the connection's context: the context as
    /// it leaves it, and the notification to send, if any.
    static func refreshedOffLoop(_ id: Int, _ context: RequestContext) async -> (context: RequestContext, line: Data?) {
        var context = context
        let line = await refreshWatchMeasuring(id, &context).line
        return (context, line)
    }

    /// The notification of the watch's delta to `reply`, when there is one.
    private static func delta(_ id: Int, _ reply: ScrollReply, _ context: inout RequestContext) throws
        -> WatchRefresh
    {
        guard var watch = context.watches[id] else { return .nothing }
        watch.stale = false
        let fresh = try windowJSON(reply)
        var delta = WindowDelta.between(watch.window, fresh)
        if watch.frozen {
            // The rows stay where they are: only what changed in them goes out now; rows that
            // came, went or moved are counted until the watch is no longer frozen.
            let held = Set(watch.window["rows"]?.arrayElements?.compactMap { $0["id"] } ?? [])
            var pending = (delta.removed?.count ?? 0) + (delta.added?.count ?? 0)
            delta.changed = delta.changed?.compactMap { change -> JSONValue? in
                guard case .object(var members) = change, let id = members["id"], held.contains(id) else { return nil }
                if members["index"] != nil || members["y"] != nil { pending += 1 }
                members.removeValue(forKey: "index")
                members.removeValue(forKey: "y")
                return members.count > 1 ? .object(members) : JSONValue?.none
            }
            if delta.changed?.isEmpty == true { delta.changed = nil }
            (delta.set, delta.removed, delta.added) = (nil, nil, nil)
            delta.pending = pending != watch.pending ? pending : nil
            watch.pending = pending
        }
        guard !delta.isEmpty else {
            context.watches[id] = watch
            return .nothing
        }
        watch.seq += 1
        (delta.watch, delta.seq, delta.version) = (id, watch.seq, reply.version)
        delta.apply(to: &watch.window)
        watch.sentAt = .now
        context.watches[id] = watch
        return .send(WindowNotification.line(delta))
    }

    /// Ends the watch because its window cannot be worked out (`error`): the last notification.
    private static func ended(_ id: Int, _ error: any Error, _ context: inout RequestContext) -> WatchRefresh {
        guard var watch = context.watches[id] else { return .nothing }
        context.endWatch(id)
        watch.seq += 1
        let reason =
            switch error {
            case let error as ResponseError: error.message
            case let error as TableError: ResponseError(error).message
            case let error as CatalogError: ResponseError(error).message
            default: "\(error)"
            }
        var line = ReplyEncoding.notification(
            method: "window",
            params: WatchEnded(watch: id, seq: watch.seq, ended: reason)
        )
        line.append(UInt8(ascii: "\n"))
        return .send(line)
    }

    /// The last `window` notification of a watch that ended by itself.
    private struct WatchEnded: Encodable, Sendable {
        var watch: Int
        var seq: Int
        var ended: String
    }
}

extension RequestContext {
    /// Ends the watch `id` of this connection: no more notifications for it.
    mutating func endWatch(_ id: Int) {
        guard let watch = watches.removeValue(forKey: id) else { return }
        if !watches.values.contains(where: { $0.table == watch.table }) {
            server.watches.unwatch(watch.table, connection: connection.id)
        }
    }
}
