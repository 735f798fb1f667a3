import Glibc
import NIOCore

/// The process at the other end of a Unix socket connection, as the kernel reports it
/// (`SO_PEERCRED`): what the peer was when it connected, not what it claims.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process id; the peer may have exited since.
    public var pid: Int32
    /// The peer's effective user id: the owner of the tables it makes, checked against their modes.
    public var uid: UInt32
    /// The peer's effective primary group id: the group of the tables it makes.
    public var gid: UInt32

    /// Credentials as given.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// `pid P uid U gid G`, for logs.
    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }

    /// Asks the kernel about the peer of `channel`; `nil` for a channel that is not a socket or
    /// whose peer is already gone. Completes at once when called on the channel's event loop.
    static func of(_ channel: any Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        let credentials: EventLoopFuture<KernelCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(SO_PEERCRED)
        )
        return credentials.map { PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
            .recover { _ in nil }
    }
}

/// The layout of Linux's `struct ucred` (`pid_t`, `uid_t`, `gid_t`), which Glibc only declares
/// with `_GNU_SOURCE`.
private struct KernelCredentials: Sendable {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32
}
