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
    public var description: String { "DataTableServer" }

    /// How the server is set up.
    public struct Configuration: Sendable {
        public var listeners: [ListenerSource]
        public var limits: ServerLimits
        /// How long shutdown waits for connections to finish before closing them.
        public var drainTimeout: Duration

        public init(
            listeners: [ListenerSource],
            limits: ServerLimits = ServerLimits(),
            drainTimeout: Duration = .seconds(10)
        ) {
            self.listeners = listeners
            self.limits = limits
            self.drainTimeout = drainTimeout
        }
    }

    /// Hooks for whoever runs the server (the daemon tells systemd).
    public struct Hooks: Sendable {
        /// Every listener accepts connections now. Gets a description of each.
        public var ready: @Sendable ([String]) -> Void
        /// Graceful shutdown has begun.
        public var stopping: @Sendable () -> Void

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

    private typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>
    private typealias Listener = NIOAsyncChannel<AcceptedConnection, Never>

    /// A connection as the accept loop gets it: the channel and who is on the other end, asked
    /// of the kernel right at accept time.
    private struct AcceptedConnection: Sendable {
        var channel: Connection
        var peer: PeerCredentials?
    }

    public let configuration: Configuration
    public let state: ServerState
    private let dispatcher: RequestDispatcher
    private let hooks: Hooks
    private let logger: Logger
    private let eventLoopGroup: any EventLoopGroup
    private let lifecycle = Mutex(State.initial)
    private let connections = Mutex([Int: any Channel]())
    private let nextConnectionID = Atomic(0)
    /// Set once shutdown begins; read by every connection's line decoder.
    private let shuttingDown = Atomic(false)

    public init(
        configuration: Configuration,
        methods: MethodTable = .builtin(),
        hooks: Hooks = Hooks(),
        logger: Logger,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        self.state = ServerState(limits: configuration.limits)
        self.dispatcher = RequestDispatcher(methods: methods, limits: configuration.limits)
        self.hooks = hooks
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
    }

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
            for listener in listeners { try? await listener.channel.close() }
            removeSockets(ownedPaths)
            throw error
        }
        let startNow = lifecycle.withLock { state -> Bool in
            guard case .initial = state else { return false }
            state = .running(listeners: listeners.map(\.channel))
            return true
        }
        guard startNow else {
            for listener in listeners { try? await listener.channel.close() }
            removeSockets(ownedPaths)
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
        removeSockets(ownedPaths)
        logger.notice("stopped")
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
        shuttingDown.store(true, ordering: .sequentiallyConsistent)
        logger.info("shutting down: no new connections; finishing requests already received")
        hooks.stopping()
        for listener in listeners {
            listener.close(promise: nil)
        }
        for channel in connections.withLock({ Array($0.values) }) {
            Self.stopReading(channel)
        }
        let timeout = configuration.drainTimeout
        eventLoopGroup.next().scheduleTask(in: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000)) {
            self.closeStragglers(after: timeout)
        }
    }

    /// Closes connections that did not finish within the drain timeout.
    private func closeStragglers(after timeout: Duration) {
        let stragglers = connections.withLock { Array($0.values) }
        if !stragglers.isEmpty {
            logger.warning("closing \(stragglers.count) connection(s) still open after \(timeout)")
        }
        for channel in stragglers { channel.close(promise: nil) }
    }

    private var isDraining: Bool {
        lifecycle.withLock { if case .draining = $0 { true } else { false } }
    }

    /// Half-closes the connection's input: requests already received are still answered.
    private static func stopReading(_ channel: any Channel) {
        channel.close(mode: .input).whenFailure { _ in channel.close(promise: nil) }
    }

    // MARK: Listening

    private func bind(_ source: ListenerSource) async throws -> Listener {
        let limits = configuration.limits
        let isShuttingDown: @Sendable () -> Bool = { self.shuttingDown.load(ordering: .sequentiallyConsistent) }
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
                return AcceptedConnection(channel: try Connection(wrappingChannelSynchronously: channel), peer: peer)
            }
        }
        switch source {
        case .inherited(let descriptor, _):
            return try await bootstrap.bind(descriptor, childChannelInitializer: initializer)
        case .path(let path, let mode, let group):
            try SocketPath.prepare(path)
            // The socket file is created by bind(2) with the umask's permissions: keep it private
            // until it has its final mode and group.
            let previous = umask(0o177)
            defer { umask(previous) }
            let listener = try await bootstrap.bind(unixDomainSocketPath: path, childChannelInitializer: initializer)
            if let group, chown(path, uid_t.max, group) != 0 {
                let code = errno
                try? await listener.channel.close()
                _ = unlink(path)
                throw SocketPath.Problem.system(path, call: "chown", errno: code)
            }
            if chmod(path, mode) != 0 {
                let code = errno
                try? await listener.channel.close()
                _ = unlink(path)
                throw SocketPath.Problem.system(path, call: "chmod", errno: code)
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
                        let id = nextConnectionID.add(1, ordering: .relaxed).newValue
                        if state.admitConnection() {
                            connections.withLock { $0[id] = connection.channel.channel }
                            group.addTask { await self.serve(connection, id: id) }
                        } else {
                            group.addTask { await self.refuse(connection, id: id) }
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
        let connection = accepted.channel
        let channel = connection.channel
        let logger = connectionLogger(id: id, peer: accepted.peer)
        defer {
            connections.withLock { $0[id] = nil }
            state.connectionClosed()
        }
        if isDraining { Self.stopReading(channel) }
        logger.debug("connection opened")

        var context = RequestContext(
            connection: ConnectionInfo(id: id, peer: accepted.peer),
            server: state,
            logger: logger
        )
        do {
            try await connection.executeThenClose { inbound, outbound in
                do {
                    for try await line in inbound {
                        guard let reply = await dispatcher.reply(to: Data(line.readableBytesView), context: &context)
                        else { continue }
                        try await outbound.write(Self.frame(reply, allocator: channel.allocator))
                    }
                } catch let error as LineTooLongError {
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
            }
            logger.debug("connection closed")
        } catch {
            logger.debug("connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// Tells a connection over the limit why, and closes it.
    private func refuse(_ accepted: AcceptedConnection, id: Int) async {
        let limit = configuration.limits.maxConnections
        connectionLogger(id: id, peer: accepted.peer).warning("connection refused: the connection limit is reached")
        let reply = ReplyEncoding.failure(
            id: .null,
            .limitExceeded(
                "The daemon already has \(limit) connections open, its limit.",
                limit: "maxConnections",
                value: limit
            )
        )
        let connection = accepted.channel
        try? await connection.executeThenClose { _, outbound in
            try await outbound.write(Self.frame(reply, allocator: connection.channel.allocator))
        }
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

    private static func frame(_ reply: Data, allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: reply.count + 1)
        buffer.writeBytes(reply)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }
}
