import Glibc

/// The stand-alone daemon's care for its socket path: never take over a live daemon's socket,
/// replace a stale one, never touch anything that is not a socket.
public enum SocketPath {
    /// Why a socket path cannot be used.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// A daemon answers on the path already.
        case inUse(String)
        /// The path holds something other than a socket; it is left alone.
        case notASocket(String)
        /// The directory the socket would go in does not exist.
        case noDirectory(String)
        /// The directory exists but belongs to someone else or is open to others.
        case unsafeDirectory(String, reason: String)
        /// A system call failed.
        case system(String, call: String, errno: Int32)

        /// The problem in one sentence for the daemon's error output, with what to do where there is
        /// something to do.
        public var description: String {
            switch self {
            case .inUse(let path):
                "another daemon is already listening on \(path); stop it first, or choose another path with --socket"
            case .notASocket(let path):
                "\(path) exists and is not a socket; it was left untouched (remove it or choose another path with --socket)"
            case .noDirectory(let directory):
                "the directory \(directory) does not exist"
            case .unsafeDirectory(let directory, let reason):
                "refusing to use \(directory): \(reason)"
            case .system(let path, let call, let code):
                "\(call) \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Makes `path` free to bind: nothing there is fine; a socket nobody answers on (a daemon
    /// that died without cleaning up) is removed; a socket someone answers on, or anything that
    /// is not a socket, is refused.
    public static func prepare(_ path: String) throws(Problem) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            guard errno == ENOENT else { throw .system(path, call: "stat", errno: errno) }
            let directory = parentDirectory(of: path)
            guard access(directory, F_OK) == 0 else { throw .noDirectory(directory) }
            return
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
        switch probe(path) {
        case 0:
            throw .inUse(path)
        case ECONNREFUSED:
            guard unlink(path) == 0 || errno == ENOENT else { throw .system(path, call: "unlink", errno: errno) }
        case let code:
            throw .system(path, call: "connect", errno: code)
        }
    }

    /// Creates the directory for a default socket path when it is missing: `mode` and owned by
    /// this user. An existing directory must belong to this user (or root) and not be writable
    /// by others, so nobody can plant a socket for us.
    public static func ensureDirectory(for path: String, mode: mode_t) throws(Problem) {
        let directory = parentDirectory(of: path)
        if mkdir(directory, mode) != 0, errno != EEXIST {
            throw .system(directory, call: "mkdir", errno: errno)
        }
        var info = stat()
        guard lstat(directory, &info) == 0 else { throw .system(directory, call: "stat", errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .unsafeDirectory(directory, reason: "it is not a directory")
        }
        guard info.st_uid == getuid() || info.st_uid == 0 else {
            throw .unsafeDirectory(directory, reason: "it belongs to uid \(info.st_uid)")
        }
        guard info.st_mode & S_IWOTH == 0 || info.st_mode & S_ISVTX != 0 && info.st_uid == 0 else {
            throw .unsafeDirectory(directory, reason: "others may write to it")
        }
    }

    /// A name beside `path` to bind under before the socket is moved into place; `path` itself
    /// when that name would not fit in a socket address.
    static func stagingPath(for path: String) -> String {
        let staging = parentDirectory(of: path) + "/.datatabled-\(getpid()).sock"
        return staging.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) ? staging : path
    }

    /// Gives the socket bound at `staging` its mode and group, then renames it to `path`.
    static func finish(_ staging: String, at path: String, mode: mode_t, group: gid_t?) throws(Problem) {
        if let group, chown(staging, uid_t.max, group) != 0 {
            throw .system(path, call: "chown", errno: errno)
        }
        guard chmod(staging, mode) == 0 else { throw .system(path, call: "chmod", errno: errno) }
        if staging != path, rename(staging, path) != 0 {
            throw .system(path, call: "rename", errno: errno)
        }
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Connects to `path` and hangs up: 0 when something accepted, else the `errno` of connect.
    static func probe(_ path: String) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { return ENAMETOOLONG }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0 ? 0 : errno
    }

    /// The identity of the file at `path`, to remove only our own socket at exit.
    static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    struct FileIdentity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }
}
