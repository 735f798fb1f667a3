import Glibc
import Logging

/// Where the daemon's logs go.
public enum LogDestination: String, Sendable, CaseIterable {
    /// journald's native protocol, with structured fields.
    case journal
    /// `<N>`-prefixed lines on standard error.
    case stderr

    /// `journal` when standard error is the journal stream systemd set up for this process
    /// (`JOURNAL_STREAM` holds stderr's `device:inode`), else `stderr`.
    public static func detect(environment: [String: String]) -> LogDestination {
        guard let stream = environment["JOURNAL_STREAM"] else { return .stderr }
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return .stderr }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return .stderr }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode ? .journal : .stderr
    }

    /// Whether a journald takes native messages on `/run/systemd/journal/socket` (a socket
    /// file left behind by one that has gone does not count).
    public static func journaldAnswers() -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: "/run/systemd/journal/socket".utf8) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// A handler that writes to this destination.
    public func makeHandler(label: String, logLevel: Logger.Level) -> any LogHandler {
        switch self {
        case .journal: JournaldLogHandler(label: label, logLevel: logLevel)
        case .stderr: StderrLogHandler(label: label, logLevel: logLevel)
        }
    }
}
