/// `stats`: how the daemon is doing.
public struct StatsRequest: ParameterlessRequest {
    public static let method = "stats"
    public static let summary = "Report uptime, connections, requests, tables, rows and memory."

    public init() {}

    public struct Response: Codable, Hashable, Sendable {
        /// The daemon's release.
        public var version: String
        /// The daemon's process id.
        public var pid: Int
        /// Seconds since the daemon started.
        public var uptimeSeconds: Double
        public var connections: Connections
        /// Requests answered since start (each member of a batch counts).
        public var requests: Int
        /// Tables held.
        public var tables: Int
        /// Rows across all tables.
        public var rows: Int
        public var memory: Memory

        public init(
            version: String,
            pid: Int,
            uptimeSeconds: Double,
            connections: Connections,
            requests: Int,
            tables: Int,
            rows: Int,
            memory: Memory
        ) {
            self.version = version
            self.pid = pid
            self.uptimeSeconds = uptimeSeconds
            self.connections = connections
            self.requests = requests
            self.tables = tables
            self.rows = rows
            self.memory = memory
        }
    }

    public struct Connections: Codable, Hashable, Sendable {
        /// Open now.
        public var current: Int
        /// Accepted since start.
        public var total: Int
        /// Refused since start (a limit or the peer allow-list).
        public var refused: Int

        public init(current: Int, total: Int, refused: Int) {
            self.current = current
            self.total = total
            self.refused = refused
        }
    }

    public struct Memory: Codable, Hashable, Sendable {
        /// Resident set size of the process, in bytes.
        public var residentBytes: Int

        public init(residentBytes: Int) { self.residentBytes = residentBytes }
    }
}
