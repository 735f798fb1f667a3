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

    /// A handler that writes to this destination.
    public func makeHandler(label: String, logLevel: Logger.Level) -> any LogHandler {
        switch self {
        case .journal: JournaldLogHandler(label: label, logLevel: logLevel)
        case .stderr: StderrLogHandler(label: label, logLevel: logLevel)
        }
    }
}
