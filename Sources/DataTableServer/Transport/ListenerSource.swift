import Glibc

/// Where the server takes connections from.
public enum ListenerSource: Sendable, Hashable, CustomStringConvertible {
    /// A listening socket someone else created and bound (systemd socket activation). The server
    /// adopts it as it is and never unlinks its path.
    case inherited(descriptor: CInt, name: String)
    /// A socket path the server binds itself (stand-alone), after probing what is already there
    /// (see ``SocketPath``). `mode` is applied to the socket file; `group`, when set, owns it.
    case path(String, mode: mode_t, group: gid_t?)

    /// How logs and the ready hook name it: the inherited socket's descriptor and name, or the path.
    public var description: String {
        switch self {
        case .inherited(let descriptor, let name): "inherited socket fd \(descriptor) (\(name))"
        case .path(let path, _, _): path
        }
    }
}
