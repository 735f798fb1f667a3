import DataTableProtocol
import Foundation
import Logging
import NIOCore

/// What a method handler knows about the request it answers: the connection it came on, the
/// protocol version that connection speaks, and the daemon's shared state.
///
/// The dispatcher passes it `inout`: a handler may change per-connection state (as `hello` changes
/// the protocol version), and the next request on the same connection sees the change.
public struct RequestContext: Sendable {
    /// The connection this request came on.
    public let connection: ConnectionInfo
    /// The protocol version the connection speaks; `hello` changes it.
    public var protocolVersion: Int
    /// State shared by every connection.
    public let server: ServerState
    /// A logger carrying the connection's metadata (client pid and uid).
    public var logger: Logger
    /// The id of the request being answered.
    public var requestID: RequestID = .null
    /// Sends a notification line to this connection ahead of the reply (progress of a long
    /// request); `nil` where nobody listens.
    public var notify: (@Sendable (Data) -> Void)?
    /// Sends a notification line and tells when it has left for the socket, for a long stream
    /// of notifications that must not outrun the client (a streamed `export`); `nil` where
    /// nobody listens. Wait on the future only off the event loop.
    public var deliver: (@Sendable (Data) -> EventLoopFuture<Void>)?
    /// This connection's views, by table name (`scroll`).
    var views: [String: TableView] = [:]
    /// Text sent with `upload` for a `load`, by table name; gone with the connection.
    var uploads: [String: [UInt8]] = [:]
    /// Where this connection's events are queued; `nil` where nobody listens.
    var outbox: EventOutbox?
    /// Whether the request is a logged change replayed at start-up: rows it adds are not news.
    var isReplay = false

    public init(connection: ConnectionInfo, server: ServerState, logger: Logger) {
        self.connection = connection
        self.protocolVersion = ServerInfo.defaultProtocolVersion
        self.server = server
        self.logger = logger
    }
}

/// Who is on the other end of a connection.
public struct ConnectionInfo: Sendable, Hashable {
    /// A number unique among this daemon's connections, for logs.
    public var id: Int
    /// The peer's process, user and group, from `SO_PEERCRED`; `nil` when the kernel did not say.
    public var peer: PeerCredentials?

    public init(id: Int, peer: PeerCredentials? = nil) {
        self.id = id
        self.peer = peer
    }
}
