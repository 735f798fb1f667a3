import DataTableProtocol
import Foundation
import Logging
import NIOCore
import Synchronization

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
    /// Whether params a method does not take are ignored on this connection (`hello` with
    /// `lenientParams`, and the replay of logged requests, accepted once) instead of refused.
    var lenientParams = false
    /// The log record of the request being answered, when the daemon keeps a state directory:
    /// set by the dispatcher for each request, `nil` between requests (a watch worked out again)
    /// and in a replay. Changes reach it through ``writer``.
    var recording: ChangeRecording?
    /// This connection's views, by table name (`scroll`).
    var views: [String: TableView] = [:]
    /// Text sent with `upload` for a `load`, by table name; gone with the connection.
    var uploads: [String: UploadedText] = [:]
    /// Where this connection's events are queued; `nil` where nobody listens.
    var outbox: EventOutbox?
    /// Whether the request is a logged change replayed at start-up: rows it adds are not news.
    var isReplay = false
    /// This connection's watches, by id (`watch`).
    var watches: [Int: WatchState] = [:]
    /// The id the next watch gets.
    var nextWatchID = 1
    /// Wakes this connection's watches of a table when it changes (on its event loop); `nil`
    /// where nobody listens.
    var wakeWatches: (@Sendable (String) -> Void)?

    /// A context for requests on `connection`, speaking ``ServerInfo/defaultProtocolVersion`` with
    /// strict params, no views, uploads or events, and nobody to notify.
    public init(connection: ConnectionInfo, server: ServerState, logger: Logger) {
        self.connection = connection
        self.protocolVersion = ServerInfo.defaultProtocolVersion
        self.server = server
        self.logger = logger
    }

    /// What this request changes tables through: the daemon's state with the request's log
    /// record (``recording``), so that what it changes is recorded.
    var writer: TableWriter { TableWriter(server: server, recording: recording) }
}

/// Who is on the other end of a connection.
public struct ConnectionInfo: Sendable, Hashable {
    /// A number unique among this daemon's connections, for logs.
    public var id: Int
    /// The peer's process, user and group, from `SO_PEERCRED`; `nil` when the kernel did not say.
    public var peer: PeerCredentials?

    /// A connection's number and, when the kernel described it, its peer.
    public init(id: Int, peer: PeerCredentials? = nil) {
        self.id = id
        self.peer = peer
    }
}

/// The text uploaded for one table on one connection. A reference, so that adding a piece adds
/// to the one buffer: the context that holds it is copied into each request's task, and a value
/// there would copy every byte sent so far with each piece.
final class UploadedText: Sendable {
    private let text = Mutex<[UInt8]>([])

    /// Adds `piece`; returns the bytes held now.
    func append(_ piece: String) -> Int {
        text.withLock { text in
            text.append(contentsOf: piece.utf8)
            return text.count
        }
    }

    var count: Int { text.withLock { $0.count } }

    /// Everything uploaded, handed over (the buffer is left empty).
    func take() -> [UInt8] {
        text.withLock { text in
            defer { text = [] }
            return text
        }
    }
}
