import Synchronization

/// Which connections watch which tables (`watch`), and the wake-up of each when its table
/// changes.
///
/// A change only wakes the connection (its handler hops to its own event loop and marks its
/// watches of the table out of date); the window is worked out there, at the watch's rate and
/// only while the client reads, so a change costs the writer nothing per watcher but the wake.
final class WatchHub: Sendable {
    /// Table name → connection id → its wake-up.
    private let tables = Mutex([String: [Int: @Sendable (String) -> Void]]())

    /// Wakes `connection` with the table's name whenever `table` changes, from now on.
    func watch(_ table: String, connection: Int, wake: @escaping @Sendable (String) -> Void) {
        tables.withLock { $0[table, default: [:]][connection] = wake }
    }

    /// Stops waking `connection` for `table`.
    func unwatch(_ table: String, connection: Int) {
        tables.withLock { tables in
            tables[table]?.removeValue(forKey: connection)
            if tables[table]?.isEmpty == true { tables[table] = nil }
        }
    }

    /// Forgets every watch of `connection` (it closed).
    func unwatchAll(connection: Int) {
        tables.withLock { tables in
            for table in Array(tables.keys) {
                tables[table]?.removeValue(forKey: connection)
                if tables[table]?.isEmpty == true { tables[table] = nil }
            }
        }
    }

    /// Wakes every connection that watches `table`.
    func changed(_ table: String) {
        let wakes = tables.withLock { $0[table].map { Array($0.values) } ?? [] }
        for wake in wakes { wake(table) }
    }
}

/// A connection's wake-ups, merged: a table's change wakes the connection only when no wake of
/// that table is waiting to be looked at. A wake waits from the change that made it until the
/// connection next reads the table for its watches (``looking(at:)``, before it reads), so
/// whatever changes in between is in that read, and a writer making hundreds of changes a
/// second costs each watching connection one wake per delta, not one per change.
final class WatchWakes: Sendable {
    private let waiting = Mutex(Set<String>())

    /// Whether a change of `table` must wake the connection (no wake of it waits).
    func shouldWake(_ table: String) -> Bool {
        waiting.withLock { $0.insert(table).inserted }
    }

    /// The connection is about to read `table` for its watches: a change from now on wakes it.
    func looking(at table: String) {
        _ = waiting.withLock { $0.remove(table) }
    }
}
