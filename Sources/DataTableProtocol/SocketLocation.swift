/// Where the daemon listens when no socket is named, and where clients look for it.
///
/// The daemon binds, in order: `$DATATABLED_SOCKET`; `$XDG_RUNTIME_DIR/datatabled.sock`; for
/// root `/run/datatabled/datatabled.sock` (the path the systemd socket unit uses); otherwise
/// `/tmp/datatabled-UID/datatabled.sock`. A client with no socket named tries that path and then
/// the system path, so that a user who runs no daemon of their own reaches the installed service
/// (``clientPaths(environment:uid:)``).
public enum SocketLocation {
    /// The environment variable that names the socket for every client and the daemon.
    public static let environmentVariable = "DATATABLED_SOCKET"
    /// The path the shipped systemd socket unit listens on.
    public static let systemPath = "/run/datatabled/datatabled.sock"

    /// The socket path for this environment and user id, in the order above; an empty
    /// `$DATATABLED_SOCKET` and a relative `$XDG_RUNTIME_DIR` are skipped.
    public static func defaultPath(environment: [String: String], uid: UInt32) -> String {
        if let explicit = environment[environmentVariable], !explicit.isEmpty {
            return explicit
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime.hasSuffix("/") ? runtime + "datatabled.sock" : runtime + "/datatabled.sock"
        }
        if uid == 0 {
            return systemPath
        }
        return "/tmp/datatabled-\(uid)/datatabled.sock"
    }

    /// The paths a client tries, in order, when no socket is named: `$DATATABLED_SOCKET` alone
    /// when it is set; else the user's own default path, then the system service's.
    public static func clientPaths(environment: [String: String], uid: UInt32) -> [String] {
        let own = defaultPath(environment: environment, uid: uid)
        if let explicit = environment[environmentVariable], !explicit.isEmpty {
            return [explicit]
        }
        return own == systemPath ? [own] : [own, systemPath]
    }
}
