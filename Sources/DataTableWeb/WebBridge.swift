import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// `datatable web`: serves the page and a WebSocket on an address of its own (loopback unless
/// told otherwise), and carries each WebSocket message, one JSON-RPC line, to the daemon's
/// socket on a connection of its own per page, as the user who runs the bridge: the daemon's
/// owners and modes see that user, never more.
public struct WebBridge: Sendable {
    /// Where the bridge listens and which daemon it speaks to.
    public struct Configuration: Sendable {
        /// The address to listen on (`127.0.0.1` unless `--listen` says otherwise).
        public var address: String
        /// The port; 0 lets the system choose one.
        public var port: Int
        /// The daemon's socket.
        public var socketPath: String
        /// The table the page opens first.
        public var table: String?
        /// The token; a new random one when `nil`.
        public var token: String?

        /// A configuration as given.
        public init(
            address: String = "127.0.0.1",
            port: Int = 0,
            socketPath: String,
            table: String?,
            token: String? = nil
        ) {
            self.address = address
            self.port = port
            self.socketPath = socketPath
            self.table = table
            self.token = token
        }
    }

    /// The largest WebSocket message the bridge takes from a page (the daemon's own line limit
    /// still applies to what it carries).
    public static let maximumMessageBytes = 64 << 20

    let configuration: Configuration
    let logger: Logger

    /// A bridge with `configuration`, logging to `logger`.
    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Serves until cancelled; calls `ready` with the URL to open (token included) once
    /// listening.
    public func run(ready: @escaping @Sendable (String) -> Void) async throws {
        let token = configuration.token ?? BridgeAccess.newToken()
        let configuration = self.configuration
        let accessBox = AccessBox()
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.middlewares.add(AccessMiddleware(access: accessBox))
        PageRoutes.add(to: router)
        router.ws("/rpc") { request, _ in
            // The middleware has checked the host and the cookie; a WebSocket must also come
            // from a page of the bridge's own.
            guard let access = accessBox.access, access.admitsOrigin(request.headers[.origin]) else {
                return .dontUpgrade
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            try await DaemonRelay(socketPath: configuration.socketPath, logger: context.logger)
                .carry(inbound: inbound, outbound: outbound)
        }
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: router,
                configuration: .init(ws: .init(maxFrameSize: Self.maximumMessageBytes))
            ),
            configuration: .init(address: .hostname(configuration.address, port: configuration.port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                let access = BridgeAccess(token: token, address: configuration.address, port: port)
                accessBox.set(access)
                let host = configuration.address.contains(":") ? "[\(configuration.address)]" : configuration.address
                var url = "http://\(host):\(port)/?token=\(token)"
                if let table = configuration.table {
                    url += "&table=" + (table.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? table)
                }
                ready(url)
            },
            logger: logger
        )
        try await app.runService()
    }
}

/// The bridge's access once it knows its port; until then nothing is admitted.
final class AccessBox: Sendable {
    private let value = Mutex<BridgeAccess?>(nil)

    var access: BridgeAccess? { value.withLock { $0 } }

    func set(_ access: BridgeAccess) { value.withLock { $0 = access } }
}
