import DataTableEngine
import DataTableProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The socket server: takes connections on every listener, answers request lines in order on
/// each, and shuts down gracefully.
///
/// Each connection is served by its own child task in a discarding task group; its errors end
/// that connection only. On graceful shutdown (SIGTERM through swift-service-lifecycle) the server
/// stops accepting, lets every connection finish the requests it has already received and write
/// their replies, then returns. Connections still open after ``Configuration/drainTimeout`` are
/// closed.
public final class DataTableServer: Service, Sendable, CustomStringConvertible {
    /// The service's name, as ServiceLifecycle logs it.
    public var description: String { "DataTableServer" }

    /// How the server is set up.
    public struct Configuration: Sendable {
        /// Where connections come from: inherited sockets and paths to bind; every one is served.
        public var listeners: [ListenerSource]
        /// The limits the server enforces and `hello` reports.
        public var limits: ServerLimits
        /// How long shutdown waits for connections to finish before closing them.
        public var drainTimeout: Duration
        /// The tables to start with.
        public var catalog: TableCatalog
        /// Which peers are served.
        public var peers: PeerPolicy
        /// Where changes are logged; `nil` keeps the tables in memory only.
        public var journal: Journal?
        /// Which files clients may name by path.
        public var files: FilePolicy
        /// The mode a new table gets unless its request gives one.
        public var tableMode: UInt16
        /// How many changes each table can take back.
        public var undoDepth: Int
        /// The databases tables may be attached to (`--source`).
        public var sources: [any TableSource]
        /// The attachments the state directory keeps (``StateStore/attachments``), attached
        /// again once the server runs; `nil` with the tables in memory only.
        public var attachments: SavedAttachments?

        /// A configuration; what is left out takes its default: protocol.md's limits, a 10-second drain,
        /// no tables, every peer served, memory only, paths for privileged peers only, mode 0660, 100
        /// changes to undo per table, no sources and no attachments kept.
        public init(
            listeners: [ListenerSource],
            limits: ServerLimits = ServerLimits(),
            drainTimeout: Duration = .seconds(10),
            catalog: TableCatalog = TableCatalog(),
            peers: PeerPolicy = PeerPolicy(),
            journal: Journal? = nil,
            files: FilePolicy = FilePolicy(),
            tableMode: UInt16 = ServerState.standardTableMode,
            undoDepth: Int = Table.defaultUndoDepth,
            sources: [any TableSource] = [],
            attachments: SavedAttachments? = nil
        ) {
            self.sources = sources
            self.attachments = attachments
            self.undoDepth = undoDepth
            self.tableMode = tableMode
            self.journal = journal
            self.files = files
            self.listeners = listeners
            self.limits = limits
            self.drainTimeout = drainTimeout
            self.catalog = catalog
            self.peers = peers
        }
    }

    /// Hooks for whoever runs the server (the daemon tells systemd).
    public struct Hooks: Sendable {
        /// Every listener accepts connections now. Gets a description of each.
        public var ready: @Sendable ([String]) -> Void
        /// Graceful shutdown has begun.
        public var stopping: @Sendable () -> Void

        /// Hooks; one left out does nothing.
        public init(
            ready: @escaping @Sendable ([String]) -> Void = { _ in },
            stopping: @escaping @Sendable () -> Void = {}
        ) {
            self.ready = ready
            self.stopping = stopping
        }
    }

    private enum State {
        case initial
        case running(listeners: [any Channel])
        case draining
        case finished
    }

    private typealias Listener = NIOAsyncChannel<AcceptedConnection, Never>

    /// A connection as the accept loop gets it, with who is on the other end, asked of the
    /// kernel right at accept time.
    private struct AcceptedConnection: Sendable {
        var channel: any Channel
        var peer: PeerCredentials?
        /// A number unique among this daemon's connections, for logs.
        var id: Int
    }

    /// How the server was set up.
    public let configuration: Configuration
    /// What every connection shares: the tables, the limits and the counters `stats` reports.
    public let state: ServerState
    private let dispatcher: RequestDispatcher
    private let hooks: Hooks
    private let logger: Logger
    private let eventLoopGroup: any EventLoopGroup
    private let lifecycle = Mutex(State.initial)
    private let connections = ConnectionRegistry<AcceptedConnection>()
    /// The forced close of connections still open when the drain timeout ends.
    private let drainDeadline = Mutex<Scheduled<Void>?>(nil)
    private let nextConnectionID = Atomic(0)

    /// A server of `configuration` that answers with `methods` and serves its connections on
    /// `eventLoopGroup`; nothing is bound before ``run()``.
    public init(
        configuration: Configuration,
        methods: MethodTable = .builtin(),
        hooks: Hooks = Hooks(),
        logger: Logger,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        self.state = ServerState(
            limits: configuration.limits,
            catalog: configuration.catalog,
            journal: configuration.journal,
            files: configuration.files,
            tableMode: configuration.tableMode,
            undoDepth: configuration.undoDepth,
            sources: configuration.sources,
            attachments: configuration.attachments
        )
        self.dispatcher = RequestDispatcher(methods: methods, limits: configuration.limits)
        self.hooks = hooks
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
    }

    /// Binds every listener, calls ``Hooks/ready``, and serves until graceful shutdown has drained
    /// the connections; then removes the socket files it bound. Throws when a listener cannot be bound.
    public func run() async throws {
        var listeners: [Listener] = []
        var ownedPaths: [(String, SocketPath.FileIdentity)] = []
        do {
            for source in configuration.listeners {
                let listener = try await bind(source)
                listeners.append(listener)
                if case .path(let path, _, _) = source, let identity = SocketPath.identity(of: path) {
                    ownedPaths.append((path, identity))
                }
            }
        } catch {
            await abandon(listeners, ownedPaths)
            throw error
        }
        let startNow = lifecycle.withLock { state -> Bool in
            guard case .initial = state else { return false }
            state = .running(listeners: listeners.map(\.channel))
            return true
        }
        guard startNow else {
            await abandon(listeners, ownedPaths)
            return
        }
        hooks.ready(configuration.listeners.map(\.description))

        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                for listener in listeners {
                    group.addTask { await self.accept(on: listener) }
                }
            }
        } onGracefulShutdown: {
            self.beginShutdown()
        }
        lifecycle.withLock { $0 = .finished }
        drainDeadline.withLock { $0?.cancel() }
        await closeUnclaimedConnections()
        removeSockets(ownedPaths)
        logger.notice("stopped")
    }

    /// Closes listeners that never served, and removes the socket files this server made.
    private func abandon(_ listeners: [Listener], _ ownedPaths: [(String, SocketPath.FileIdentity)]) async {
        for listener in listeners { try? await listener.channel.close() }
        removeSockets(ownedPaths)
    }

    /// Stops accepting and asks every connection to finish what it has received.
    public func beginShutdown() {
        let listeners: [any Channel]? = lifecycle.withLock { state in
            switch state {
            case .initial:
                state = .finished
                return []
            case .running(let listeners):
                state = .draining
                return listeners
            case .draining, .finished:
                return nil
            }
        }
        guard let listeners else { return }
        logger.info("shutting down: no new connections; finishing requests already received")
        hooks.stopping()
        for listener in listeners {
            listener.close(promise: nil)
        }
        for channel in connections.live {
            Self.drain(channel)
        }
        let timeout = configuration.drainTimeout
        let nanoseconds = Int64((timeout / .nanoseconds(1)).rounded(.up))
        let deadline = eventLoopGroup.next().scheduleTask(in: .nanoseconds(nanoseconds)) {
            self.closeStragglers(after: timeout)
        }
        drainDeadline.withLock { $0 = deadline }
    }

    /// Closes connections that did not finish within the drain timeout, unless they are still
    /// answering a request they received: those close themselves once it is answered, so every
    /// request received is answered (a load of millions of rows may take longer than the drain).
    private func closeStragglers(after timeout: Duration) {
        let stragglers = connections.live
        if !stragglers.isEmpty {
            logger.warning(
                "closing connection(s) still open after \(timeout), except those still answering a request"
            )
        }
        for channel in stragglers {
            channel.eventLoop.execute {
                let handler = try? channel.pipeline.syncOperations.handler(type: ConnectionHandler.self)
                if handler?.isAnswering != true { channel.close(promise: nil) }
            }
        }
    }

    /// Finishes connections accepted while the listeners closed, which no accept loop took: like
    /// every connection at shutdown, each answers what it had sent before and refuses the rest
    /// `shutting_down`, then closes (at the latest when the drain timeout ends).
    private func closeUnclaimedConnections() async {
        // Child-channel initializers already queued on an event loop run before this barrier.
        for eventLoop in eventLoopGroup.makeIterator() {
            try? await eventLoop.submit {}.get()
        }
        let timeout = TimeAmount.nanoseconds(Int64((configuration.drainTimeout / .nanoseconds(1)).rounded(.up)))
        await withDiscardingTaskGroup { group in
            for accepted in connections.takeUnclaimed() {
                group.addTask {
                    let channel = accepted.channel
                    let finished: Bool? = try? await channel.eventLoop.submit {
                        guard let handler = try? channel.pipeline.syncOperations.handler(type: ConnectionHandler.self)
                        else { return false }
                        handler.admit()
                        handler.drain()
                        return true
                    }.get()
                    guard finished == true else {
                        try? await channel.close()
                        return
                    }
                    let deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
                    try? await channel.closeFuture.get()
                    deadline.cancel()
                    self.state.events.unsubscribeAll(connection: accepted.id)
                }
            }
        }
    }

    private var isDraining: Bool {
        lifecycle.withLock { if case .draining = $0 { true } else { false } }
    }

    /// Lets the connection answer what it was sent and refuse what comes later, then close.
    private static func drain(_ channel: any Channel) {
        channel.eventLoop.execute {
            if let handler = try? channel.pipeline.syncOperations.handler(type: ConnectionHandler.self) {
                handler.drain()
            } else {
                stopReading(channel)
            }
        }
    }

    /// Half-closes the connection's input: requests already received are still answered.
    private static func stopReading(_ channel: any Channel) {
        channel.close(mode: .input).whenFailure { error in
            switch error as? ChannelError {
            case .inputClosed?, .alreadyClosed?:
                // The client closed its side already (or the connection is gone): the replies
                // to what it sent are still being written.
                break
            default:
                channel.close(promise: nil)
            }
        }
    }

    // MARK: Listening

    private func bind(_ source: ListenerSource) async throws -> Listener {
        let limits = configuration.limits
        let isShuttingDown: @Sendable () -> Bool = { self.isDraining }
        let dispatcher = self.dispatcher
        let bootstrap = ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.backlog, value: 256)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
        let initializer: @Sendable (any Channel) -> EventLoopFuture<AcceptedConnection> = { channel in
            PeerCredentials.of(channel).flatMapThrowing { peer in
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(
                        JSONLineDecoder(maximumLineBytes: limits.maxLineBytes, isShuttingDown: isShuttingDown),
                        maximumBufferSize: limits.maxLineBytes + 2
                    )
                )
                let id = self.nextConnectionID.add(1, ordering: .relaxed).newValue
                // The connection's handler is there from the start, so nothing it sends is lost
                // (NIO reads what a peer sent before closing its side even while reads wait); it
                // answers once the accept loop admits the connection.
                try channel.pipeline.syncOperations.addHandler(
                    ConnectionHandler(
                        dispatcher: dispatcher,
                        context: RequestContext(
                            connection: ConnectionInfo(id: id, peer: peer),
                            server: self.state,
                            logger: self.connectionLogger(id: id, peer: peer)
                        )
                    )
                )
                let accepted = AcceptedConnection(channel: channel, peer: peer, id: id)
                self.connections.park(accepted, channel: channel)
                return accepted
            }
        }
        switch source {
        case .inherited(let descriptor, _):
            return try await bootstrap.bind(descriptor, childChannelInitializer: initializer)
        case .path(let path, let mode, let group):
            try SocketPath.prepare(path)
            // Bind under a private name, give the socket its final mode and group, then move it
            // into place: a client never finds the socket before its permissions are final.
            let staging = SocketPath.stagingPath(for: path)
            let previous = umask(0o177)
            defer { umask(previous) }
            let listener = try await bootstrap.bind(unixDomainSocketPath: staging, childChannelInitializer: initializer)
            do {
                try SocketPath.finish(staging, at: path, mode: mode, group: group)
            } catch {
                try? await listener.channel.close()
                _ = unlink(staging)
                throw error
            }
            return listener
        }
    }

    private func removeSockets(_ paths: [(String, SocketPath.FileIdentity)]) {
        for (path, identity) in paths where SocketPath.identity(of: path) == identity {
            unlink(path)
        }
    }

    private func accept(on listener: Listener) async {
        do {
            try await withThrowingDiscardingTaskGroup { group in
                try await listener.executeThenClose { inbound in
                    for try await connection in inbound {
                        // Admission happens here, in accept order, so the limit is fair.
                        let id = connection.id
                        connections.claim(connection.channel)
                        if !configuration.peers.admits(connection.peer) {
                            group.addTask { await self.refuseStranger(connection, id: id) }
                            continue
                        }
                        do throws(ServerState.ConnectionRefusal) {
                            try state.admitConnection(from: connection.peer)
                            group.addTask { await self.serve(connection, id: id) }
                        } catch {
                            group.addTask { await self.refuse(connection, id: id, because: error) }
                        }
                    }
                }
            }
        } catch {
            if !isDraining {
                logger.error("listener failed", metadata: ["error": "\(error)"])
            }
        }
    }

    // MARK: Connections

    private func serve(_ accepted: AcceptedConnection, id: Int) async {
        let channel = accepted.channel
        defer {
            state.events.unsubscribeAll(connection: id)
            connections.remove(channel)
            state.connectionClosed(from: accepted.peer)
        }
        do {
            try await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.handler(type: ConnectionHandler.self).admit()
            }.get()
            if isDraining { Self.drain(channel) }
        } catch {
            channel.close(promise: nil)
        }
        try? await channel.closeFuture.get()
    }

    /// Tells a connection over a limit why, and closes it.
    private func refuse(_ accepted: AcceptedConnection, id: Int, because refusal: ServerState.ConnectionRefusal) async {
        defer { connections.remove(accepted.channel) }
        let error: ResponseError
        switch refusal {
        case .daemonFull:
            let limit = configuration.limits.maxConnections
            connectionLogger(id: id, peer: accepted.peer).warning("connection refused: the connection limit is reached")
            error = .limitExceeded(
                "The daemon already has \(limit) connections open, its limit.",
                limit: "maxConnections",
                value: limit
            )
        case .userFull:
            let limit = configuration.limits.maxConnectionsPerUid
            connectionLogger(id: id, peer: accepted.peer).warning(
                "connection refused: the peer's user has as many connections open as one user may"
            )
            error = .limitExceeded(
                "Your user already has \(limit) connections open to the daemon, as many as one user may.",
                limit: "maxConnectionsPerUid",
                value: limit
            )
        }
        await ConnectionHandler.refuse(accepted.channel, with: error)
    }

    /// Tells a peer the allow-list leaves out why, and closes.
    private func refuseStranger(_ accepted: AcceptedConnection, id: Int) async {
        defer { connections.remove(accepted.channel) }
        connectionLogger(id: id, peer: accepted.peer).warning(
            "connection refused: the peer is not among the allowed users and groups",
            metadata: ["peer": "\(accepted.peer.map(\.description) ?? "unknown")"]
        )
        await ConnectionHandler.refuse(
            accepted.channel,
            with: ResponseError(
                code: .notPermitted,
                kind: .notPermitted,
                message: "This daemon serves only the users and groups it was told to allow; ask its administrator.",
                details: [:]
            )
        )
    }

    /// The server's logger with the connection's number and its peer's pid and uid.
    private func connectionLogger(id: Int, peer: PeerCredentials?) -> Logger {
        var logger = self.logger
        logger[metadataKey: "connection"] = "\(id)"
        if let peer {
            logger[metadataKey: "client.pid"] = "\(peer.pid)"
            logger[metadataKey: "client.uid"] = "\(peer.uid)"
        }
        return logger
    }
}
