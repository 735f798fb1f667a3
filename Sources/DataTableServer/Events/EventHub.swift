import DataTableEngine
import DataTableProtocol
import Synchronization

/// Who subscribed to which table, and the delivery of each table's events to them.
///
/// Handlers publish while they still hold the table's lock, so events of one table are queued
/// in version order; queuing only appends to each subscriber's ``EventOutbox``.
final class EventHub: Sendable {
    private struct Subscription {
        var outbox: EventOutbox
        var kinds: Set<TableEvent.Kind>
        /// Who subscribed: events go only where the table's owner and mode still let it read.
        var requester: Requester
    }

    /// Table name → connection id → subscription.
    private let tables = Mutex([String: [Int: Subscription]]())

    /// Sends `connection` the `kinds` of events of `table` from now on.
    func subscribe(
        _ table: String,
        connection: Int,
        requester: Requester,
        outbox: EventOutbox,
        kinds: Set<TableEvent.Kind>
    ) {
        tables.withLock {
            $0[table, default: [:]][connection] = Subscription(outbox: outbox, kinds: kinds, requester: requester)
        }
    }

    /// Stops sending `table`'s events to `connection`; returns whether it was subscribed.
    @discardableResult
    func unsubscribe(_ table: String, connection: Int) -> Bool {
        tables.withLock { tables in
            let removed = tables[table]?.removeValue(forKey: connection) != nil
            if tables[table]?.isEmpty == true { tables[table] = nil }
            return removed
        }
    }

    /// Forgets every subscription of `connection` (it closed).
    func unsubscribeAll(connection: Int) {
        tables.withLock { tables in
            for table in Array(tables.keys) {
                tables[table]?.removeValue(forKey: connection)
                if tables[table]?.isEmpty == true { tables[table] = nil }
            }
        }
    }

    /// Whether anyone listens to `table`.
    func hasSubscribers(_ table: String) -> Bool {
        tables.withLock { $0[table] != nil }
    }

    /// Queues the event `make` builds for every subscriber of `table` that wants its kind and
    /// may read a table with `access`; the event is only built when someone does.
    func publish(_ table: String, access: TableAccess, _ kind: TableEvent.Kind, _ make: () -> TableEvent) {
        let outboxes = tables.withLock { tables in
            tables[table].map { subscriptions in
                subscriptions.values.filter { $0.kinds.contains(kind) && $0.requester.may(.read, access) }
                    .map(\.outbox)
            } ?? []
        }
        guard !outboxes.isEmpty else { return }
        let event = make()
        for outbox in outboxes { outbox.send(event) }
    }
}
