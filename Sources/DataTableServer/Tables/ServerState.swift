import DataTableEngine
import DataTableProtocol
import Synchronization
import TextMeasure

/// State every connection shares: the tables, the configured limits and the counters `stats`
/// reports.
public final class ServerState: Sendable {
    /// The configured limits, as `hello` reports them.
    public let limits: ServerLimits
    /// When the daemon started, for `stats`' uptime.
    public let startedAt: ContinuousClock.Instant
    /// The tables, each behind its own lock.
    public let tables: LiveTables
    /// Where long work on a table runs (see
    /// ``TableWriter/updateOffLock(_:by:ifVersion:work:install:)``).
    let heavyWork = HeavyWork.shared
    /// Fonts opened for layouts in points, kept for the next.
    let fonts = FontLibrary()
    /// Subscriptions, and the delivery of table events.
    let events = EventHub()
    /// Watches (`watch`), and the wake-up of their connections when a table changes.
    let watches = WatchHub()
    /// Unsent events of every connection together, against `maxEventBytes`.
    let eventBudget: OutputBudget
    /// Resident memory, for the memory budget.
    let memory = MemoryGauge()
    /// The log of changes in the state directory; `nil` when the tables live in memory only.
    public let journal: Journal?
    /// The sources tables may be attached to, by name (`--source`).
    public let sources: [String: any TableSource]
    /// The tables attached to them.
    let attached = AttachedTables()
    /// The attachments kept in the state directory; `nil` when the tables live in memory only.
    let savedAttachments: SavedAttachments?
    private let counters = Mutex(Counters())
    /// Permission refusals logged in the current second, and which second that is.
    private let permissionNotices = Mutex((second: 0, count: 0))

    /// Whether a permission refusal may be logged at notice level: at most
    /// ``permissionNoticesPerSecond`` a second, so a client cannot flood the journal.
    func mayLogPermissionRefusal() -> Bool {
        let second = Int(startedAt.duration(to: .now).components.seconds)
        return permissionNotices.withLock { notices in
            if notices.second != second { notices = (second, 0) }
            notices.count += 1
            return notices.count <= Self.permissionNoticesPerSecond
        }
    }

    static let permissionNoticesPerSecond = 10

    /// Connection and request counts.
    public struct Counters: Sendable, Hashable {
        /// Connections open now, of those admitted.
        public var currentConnections = 0
        /// Connections admitted since start.
        public var totalConnections = 0
        /// Connections turned away since start by `maxConnections` or `maxConnectionsPerUid` (not
        /// those refused for `--allow-uid` or `--allow-group`).
        public var refusedConnections = 0
        /// Requests read since start, refused ones and notifications included; each member of a batch
        /// counts (a batch that is empty, not JSON or past `maxBatchSize` counts once).
        public var requests = 0
        /// Open connections per user, for users the per-user limit applies to.
        var connectionsByUid: [UInt32: Int] = [:]
    }

    /// Which files clients may name by path.
    public let files: FilePolicy
    /// The mode a new table gets unless its request gives one (`--table-mode`).
    public let defaultTableMode: UInt16

    /// The mode of new tables unless configured: the owner and the owner's group read and
    /// write, others nothing.
    public static let standardTableMode: UInt16 = 0o660

    /// State holding `catalog`'s tables under `limits`; `journal` logs their changes (`nil`: memory
    /// only), `files` decides which paths clients may name, `tableMode` is the mode of new tables,
    /// `undoDepth` how many changes each table can take back. Without `accountingMemory` the
    /// memory each user's tables hold is not kept (a log replayed at start). `sources` are the
    /// databases tables may be attached to, `attachments` the attachments a state directory keeps.
    public init(
        limits: ServerLimits,
        catalog: TableCatalog = TableCatalog(),
        journal: Journal? = nil,
        files: FilePolicy = FilePolicy(),
        tableMode: UInt16 = standardTableMode,
        undoDepth: Int = Table.defaultUndoDepth,
        accountingMemory: Bool = true,
        sources: [any TableSource] = [],
        attachments: SavedAttachments? = nil
    ) {
        self.savedAttachments = attachments
        self.sources = Dictionary(sources.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.limits = limits
        self.eventBudget = OutputBudget(limit: limits.maxEventBytes)
        self.defaultTableMode = tableMode
        self.journal = journal
        self.files = files
        self.startedAt = .now
        self.tables = LiveTables(catalog, undoDepth: undoDepth, accountingMemory: accountingMemory)
    }

    /// The counters as they are now, for `stats`.
    public var snapshot: Counters { counters.withLock { $0 } }

    /// Why a connection was turned away.
    enum ConnectionRefusal: Error {
        /// The daemon has `maxConnections` open.
        case daemonFull
        /// The peer's user has `maxConnectionsPerUid` open.
        case userFull
    }

    /// Counts a connection from `peer` in if the connection limits allow it; throws (and counts
    /// a refusal) when they do not.
    func admitConnection(from peer: PeerCredentials?) throws(ConnectionRefusal) {
        let perUser = limits.maxConnectionsPerUid
        let counted = perUser > 0 && !Requester(peer: peer).isPrivileged ? peer?.uid : nil
        try counters.withLock { counters throws(ConnectionRefusal) in
            guard counters.currentConnections < limits.maxConnections else {
                counters.refusedConnections += 1
                throw .daemonFull
            }
            if let uid = counted {
                guard counters.connectionsByUid[uid, default: 0] < perUser else {
                    counters.refusedConnections += 1
                    throw .userFull
                }
                counters.connectionsByUid[uid, default: 0] += 1
            }
            counters.currentConnections += 1
            counters.totalConnections += 1
        }
    }

    /// Counts out a connection from `peer` that ``admitConnection(from:)`` counted in.
    func connectionClosed(from peer: PeerCredentials?) {
        let counted = limits.maxConnectionsPerUid > 0 && !Requester(peer: peer).isPrivileged ? peer?.uid : nil
        counters.withLock { counters in
            counters.currentConnections -= 1
            if let uid = counted {
                counters.connectionsByUid[uid, default: 1] -= 1
                if counters.connectionsByUid[uid] == 0 { counters.connectionsByUid[uid] = nil }
            }
        }
    }

    func countRequests(_ count: Int) {
        counters.withLock { $0.requests += count }
    }
}
