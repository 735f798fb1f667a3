/// Where the daemon listens when no socket is named, and where clients look for it.
///
/// In order: `$DATATABLED_SOCKET`; `$XDG_RUNTIME_DIR/datatabled.sock`; for root
/// `/run/datatabled/datatabled.sock` (the path the systemd socket unit uses);
/// otherwise `/tmp/datatabled-UID/datatabled.sock`.
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
}
