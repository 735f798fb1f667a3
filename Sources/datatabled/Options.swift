import ArgumentParser
import DataTableServer
import DataTableSystemd
import Logging

/// `--log-level` values.
enum LogLevelOption: String, ExpressibleByArgument, CaseIterable {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue)! }
}

/// `--log-target` values.
enum LogTargetOption: String, ExpressibleByArgument, CaseIterable {
    case auto, journal, stderr

    /// The destination forced by the option; `nil` for `auto`.
    var destination: LogDestination? {
        switch self {
        case .auto: nil
        case .journal: .journal
        case .stderr: .stderr
        }
    }
}

/// `--fsync`.
enum FsyncOption: String, ExpressibleByArgument, CaseIterable {
    case always, everysec, no

    var policy: FsyncPolicy { FsyncPolicy(rawValue: rawValue)! }
}
