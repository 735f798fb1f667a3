/// Versions the protocol and the daemon report about themselves.
public enum ServerInfo {
    /// The daemon's name, as `hello` reports it and as it logs under.
    public static let name = "datatabled"
    /// The daemon's release.
    public static let version = "0.1.0"
    /// Protocol versions this build speaks. Without `hello`, a connection speaks version 1.
    public static let protocolVersions = [1]
    /// The version a connection speaks until `hello` negotiates another.
    public static let defaultProtocolVersion = 1
}

/// The configured limits, as `hello` reports them.
public struct ServerLimits: Codable, Hashable, Sendable {
    /// Longest request line, in bytes, without its newline. A longer line is refused and the
    /// connection closed.
    public var maxLineBytes: Int
    /// Most connections open at once; one more is refused with `limit_exceeded`.
    public var maxConnections: Int
    /// Most requests in one batch.
    public var maxBatchSize: Int
    /// Most bytes of events a connection may leave unread; past that it is closed.
    public var maxOutputBytes: Int
    /// Bytes of unread events a connection may have for at most ``softOutputSeconds``.
    public var softOutputBytes: Int
    /// How long, in seconds, a connection may stay above ``softOutputBytes`` of unread events
    /// before it is closed.
    public var softOutputSeconds: Int
    /// Most tables the daemon holds; creating one more is refused.
    public var maxTables: Int
    /// Most rows one table holds; a change that would add more is refused whole.
    public var maxRows: Int
    /// The memory budget: while the daemon's resident memory is above it, changes that add rows
    /// or tables are refused; 0 means no budget.
    public var maxMemoryBytes: Int
    /// Most connections one user (other than root and the daemon's own user) has open at once;
    /// one more is refused with `limit_exceeded`. 0 means no such limit.
    public var maxConnectionsPerUid: Int
    /// Most memory the tables one user (other than root and the daemon's own user) owns may
    /// hold, roughly; a change that adds rows or tables past it is refused. 0 means no such limit.
    public var maxMemoryPerUid: Int
    /// Most bytes one reply (a batch's reply with all its members) may hold; a request whose
    /// reply would be larger is refused before it is worked on. `export` streams past it.
    public var maxReplyBytes: Int
    /// Most bytes of events all subscribers together may leave unread; past it, subscribers
    /// behind get one `resync` event later instead of every event now.
    public var maxEventBytes: Int

    /// Limits as given; each one left out takes the daemon's default (protocol.md, "Limits").
    public init(
        maxLineBytes: Int = 1 << 20,
        maxConnections: Int = 1024,
        maxBatchSize: Int = 10_000,
        maxOutputBytes: Int = 32 << 20,
        maxTables: Int = 1000,
        maxRows: Int = 50_000_000,
        softOutputBytes: Int = 8 << 20,
        softOutputSeconds: Int = 60,
        maxMemoryBytes: Int = 0,
        maxConnectionsPerUid: Int = 256,
        maxMemoryPerUid: Int = 0,
        maxReplyBytes: Int = 64 << 20,
        maxEventBytes: Int = 128 << 20
    ) {
        self.maxEventBytes = maxEventBytes
        self.maxReplyBytes = maxReplyBytes
        self.maxConnectionsPerUid = maxConnectionsPerUid
        self.maxMemoryPerUid = maxMemoryPerUid
        self.maxLineBytes = maxLineBytes
        self.maxConnections = maxConnections
        self.maxBatchSize = maxBatchSize
        self.maxOutputBytes = maxOutputBytes
        self.softOutputBytes = softOutputBytes
        self.softOutputSeconds = softOutputSeconds
        self.maxMemoryBytes = maxMemoryBytes
        self.maxTables = maxTables
        self.maxRows = maxRows
    }
}
