import DataTableProtocol
import DataTableSystemd
import Foundation

/// `datatabled --system`: the installed service without systemd. The same socket path, mode and
/// group, user, state directory and logging as the shipped units give it, for a machine (or a
/// container) where systemd does not run.
///
/// Started as root it makes the socket's directory and the state directory for the service's
/// user, then takes that user's identity (its groups too) before it binds the socket or reads a
/// table; started as that user it only checks that it can use them.
struct SystemService {
    /// The user the units run the daemon as (`User=` and the sysusers.d entry).
    static let defaultUser = "datatabled"
    /// The units' `StateDirectory=`.
    static let stateDirectory = "/var/lib/datatabled"
    /// The socket unit's `SocketMode=`: the user and its group.
    static let socketMode: mode_t = 0o660
    /// The service's `StateDirectoryMode=`.
    static let stateDirectoryMode: mode_t = 0o750
    /// The socket unit's `DirectoryMode=`.
    static let socketDirectoryMode: mode_t = 0o755

    let user: String
    let uid: uid_t
    let gid: gid_t

    /// Looks up `user`; a missing user says how to make it.
    init(user: String) throws {
        guard let entry = getpwnam(user) else {
            throw StartupError(
                """
                --system runs as the user \(user), and there is none: make it with scripts/install-service \
                --no-systemd, or `systemd-sysusers` with the sysusers.d entry, or name another with --user
                """
            )
        }
        self.user = user
        uid = entry.pointee.pw_uid
        gid = entry.pointee.pw_gid
    }

    /// Where logs go under `--system` when no target is named: journald when it runs here, else
    /// standard error.
    static func logDestination(environment: [String: String]) -> LogDestination {
        LogDestination.journaldAnswers() ? .journal : LogDestination.detect(environment: environment)
    }

    /// Makes the socket's directory and the state directory when they are missing (as root, for
    /// the user), then becomes the user. Directories that exist already are left as they are:
    /// the user must be able to use them.
    func prepare(socketPath: String?, stateDirectory: String) throws {
        let root = geteuid() == 0
        guard root || geteuid() == uid else {
            throw StartupError("--system starts as root (it then runs as \(user)) or as \(user) itself")
        }
        if let socketPath {
            try makeDirectory(parent(of: socketPath), mode: Self.socketDirectoryMode, asRoot: root)
        }
        try makeDirectory(stateDirectory, mode: Self.stateDirectoryMode, asRoot: root)
        if root { try becomeUser() }
        umask(0o077)
        for (directory, purpose) in [(socketPath.map(parent(of:)), "the socket"), (stateDirectory, "the tables")] {
            guard let directory else { continue }
            guard access(directory, W_OK | X_OK) == 0 else {
                throw StartupError(
                    "\(user) cannot write in \(directory), where \(purpose) go: chown it to \(user), or name another"
                )
            }
        }
    }

    private func parent(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    /// Makes `directory` (and any missing parents, as root would for `StateDirectory=`), giving
    /// the last one to the user when this process is root.
    private func makeDirectory(_ directory: String, mode: mode_t, asRoot root: Bool) throws {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw StartupError("\(directory) is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw StartupError("cannot make \(directory): \(error.localizedDescription)")
        }
        guard chmod(directory, mode) == 0, !root || chown(directory, uid, gid) == 0 else {
            throw StartupError("cannot give \(directory) to \(user): \(String(cString: strerror(errno)))")
        }
    }

    /// Takes the user's identity for good: its supplementary groups, its group, then its id.
    private func becomeUser() throws {
        guard initgroups(user, gid) == 0, setgid(gid) == 0, setuid(uid) == 0 else {
            throw StartupError("cannot become \(user): \(String(cString: strerror(errno)))")
        }
        // A process that could take root back has not dropped it.
        guard uid == 0 || setuid(0) != 0 else { throw StartupError("cannot drop root for \(user)") }
    }
}
