import MemberwiseInit

/// `stats`: how the daemon is doing.
public struct StatsRequest: ParameterlessRequest {
    /// The `method` string on the wire.
    public static let method = "stats"
    /// The line `help` shows for the method.
    public static let summary = "Report uptime, connections, requests, tables, rows and memory."

    /// Params of `stats`: there are none.
    public init() {}

    /// The `result` of a `stats`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The daemon's release.
        public var version: String
        /// The daemon's process id.
        public var pid: Int
        /// Seconds since the daemon started.
        public var uptimeSeconds: Double
        /// Connections open now, accepted and refused.
        public var connections: Connections
        /// Requests answered since start (each member of a batch counts).
        public var requests: Int
        /// Tables held.
        public var tables: Int
        /// Rows across all tables.
        public var rows: Int
        /// The daemon's memory use.
        public var memory: Memory
        /// The state directory; absent when the tables live in memory only.
        public var durability: Durability?
        /// The sources tables may be attached to (`--source`); absent when there are none.
        public var sources: [Source]? = nil
    }

    /// A source tables may be attached to, and how it is doing.
    @MemberwiseInit
    public struct Source: Codable, Hashable, Sendable {
        /// Its name (`--source NAME=…`).
        public var name: String
        /// Whether its changes cannot be heard now: its tables are stale, their changes refused.
        public var stale: Bool
        /// How many tables are attached to it.
        public var tables: Int
        /// Tables kept in the state directory that wait for it to answer, to be attached again
        /// after a restart; absent when none do.
        public var waiting: [String]? = nil
    }

    /// Where changes are logged (`--state-dir`) and how the log is doing.
    @MemberwiseInit
    public struct Durability: Codable, Hashable, Sendable {
        /// The state directory's path (`--state-dir`).
        public var stateDir: String
        /// `always`, `everysec` or `no`.
        public var fsync: String
        /// Changes logged since the daemon started.
        public var changesLogged: Int
        /// The log generation being written (`log.N`).
        public var logGeneration: Int
        /// Bytes in the logs since the last snapshot (a snapshot is written past
        /// `--compact-after-bytes`).
        public var logBytes: Int
        /// Why the log cannot take changes now (they are refused until it can); absent when it can.
        public var failure: String?
        /// While changes are refused: since when (ISO 8601, UTC).
        public var stoppedAt: String?
        /// When the log last took changes again after a failure.
        public var resumedAt: String?
        /// How many times the log stopped taking changes since the daemon started.
        public var stops: Int?
        /// What a start with `--recover` set aside: damaged logs, and tables whose image could
        /// not be read (each kept in a file beside the logs, for a person to look at).
        public var setAside: [String]?
        /// Why the last snapshot was not written (its logs are all kept); absent once one is.
        public var snapshotFailure: String?
    }

    /// Client connections since the daemon started.
    @MemberwiseInit
    public struct Connections: Codable, Hashable, Sendable {
        /// Open now.
        public var current: Int
        /// Accepted since start.
        public var total: Int
        /// Refused since start (a limit or the peer allow-list).
        public var refused: Int
    }

    /// The daemon's memory use; `residentBytes` is 0 where `/proc/self/statm` cannot be read.
    public struct Memory: Codable, Hashable, Sendable {
        /// Resident set size of the process, in bytes.
        public var residentBytes: Int

        /// A memory report with its one member.
        public init(residentBytes: Int) { self.residentBytes = residentBytes }
    }
}
