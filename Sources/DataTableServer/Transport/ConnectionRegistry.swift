import NIOCore
import Synchronization

/// Every connection the server has accepted and not yet let go of.
///
/// A connection's `NIOAsyncChannel` is made in the child-channel initializer (so no byte can
/// arrive before it is there to take it) and handed to the accept loop through the listener's
/// stream. A connection accepted just as a listener closes can be dropped from that stream, and
/// an `NIOAsyncChannel` dropped without `executeThenClose` is a fatal error. So the initializer
/// parks each new connection here as *unclaimed*; the accept loop claims it; whatever is left
/// unclaimed when the server stops is closed properly by ``takeUnclaimed()``.
final class ConnectionRegistry<Connection: Sendable>: Sendable {
    private struct Entries {
        var unclaimed: [ObjectIdentifier: Connection] = [:]
        var live: [ObjectIdentifier: any Channel] = [:]
    }

    private let entries = Mutex(Entries())

    /// A connection was just accepted (called from the child-channel initializer).
    func park(_ connection: Connection, channel: any Channel) {
        entries.withLock { $0.unclaimed[ObjectIdentifier(channel)] = connection }
    }

    /// The accept loop took the connection on `channel`; it is live until ``remove(_:)``.
    func claim(_ channel: any Channel) {
        entries.withLock {
            $0.unclaimed[ObjectIdentifier(channel)] = nil
            $0.live[ObjectIdentifier(channel)] = channel
        }
    }

    /// The connection on `channel` is finished.
    func remove(_ channel: any Channel) {
        entries.withLock { _ = $0.live.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Channels being served now.
    var live: [any Channel] {
        entries.withLock { Array($0.live.values) }
    }

    /// Connections accepted but never claimed; the registry forgets them.
    func takeUnclaimed() -> [Connection] {
        entries.withLock { entries in
            defer { entries.unclaimed.removeAll() }
            return Array(entries.unclaimed.values)
        }
    }
}
