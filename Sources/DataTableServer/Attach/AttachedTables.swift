import DataTableEngine
import Synchronization

/// The tables attached to sources, by name: where each one's rows come from, and the one line
/// its changes take. A change written through to the source and a change read back from it go
/// down that line one at a time, in the order they reach the table, so the table always ends
/// as the source committed last.
final class AttachedTables: Sendable {
    /// One attached table.
    struct Attachment: Sendable {
        /// The source its rows come from.
        let source: any TableSource
        /// Its relation or query, columns and key.
        let shape: SourceRows.Shape
        /// Its changes, one at a time.
        let line: SerialLine
    }

    private let byName = Mutex<[String: Attachment]>([:])
    private let following = Mutex<Set<String>>([])
    private let stale = Mutex<Set<String>>([])
    private let heard = Mutex<Set<String>>([])
    /// Tables kept in the state directory and not attached again yet, by source name.
    private let waiting = Mutex<[String: Set<String>]>([:])

    /// The attachment of the table called `name`, if it is attached.
    func attachment(_ name: String) -> Attachment? {
        byName.withLock { $0[name] }
    }

    /// The names of the attached tables.
    var names: [String] {
        byName.withLock { Array($0.keys) }
    }

    /// Whether the table called `name` is attached.
    func isAttached(_ name: String) -> Bool {
        byName.withLock { $0[name] != nil }
    }

    /// Records that the table called `name` is attached as `attachment`.
    func add(_ name: String, _ attachment: Attachment) {
        byName.withLock { $0[name] = attachment }
    }

    /// Forgets the attachment of the table called `name` (dropped).
    func remove(_ name: String) {
        _ = byName.withLock { $0.removeValue(forKey: name) }
    }

    /// The tables attached to `relation` of the source called `source`.
    func tables(of source: String, relation: String) -> [String] {
        byName.withLock { tables in
            tables.compactMap { name, attachment in
                attachment.source.name == source && attachment.shape.relation == relation ? name : nil
            }
        }
    }

    /// The tables attached to the source called `source`.
    func tables(of source: String) -> [String] {
        byName.withLock { tables in tables.compactMap { $1.source.name == source ? $0 : nil } }
    }

    /// Whether the source called `name` is out of reach (its changes are not heard).
    func isStale(_ name: String) -> Bool {
        stale.withLock { $0.contains(name) }
    }

    /// Whether the daemon listens to the source called `name` now.
    func isHeard(_ name: String) -> Bool {
        heard.withLock { $0.contains(name) }
    }

    /// Records whether the daemon listens to the source called `name` now.
    func setHeard(_ name: String, _ isHeard: Bool) {
        _ = heard.withLock { isHeard ? $0.insert(name).inserted : $0.remove(name) != nil }
    }

    /// Records whether the source called `name` is out of reach; `true` when that is news.
    func setStale(_ name: String, _ isStale: Bool) -> Bool {
        stale.withLock { isStale ? $0.insert(name).inserted : $0.remove(name) != nil }
    }

    /// Records whether the table called `table`, kept in the state directory, waits to be
    /// attached to the source called `source` again.
    func setWaiting(_ table: String, for source: String, _ isWaiting: Bool) {
        waiting.withLock { waiting in
            if isWaiting {
                waiting[source, default: []].insert(table)
            } else {
                waiting[source]?.remove(table)
            }
        }
    }

    /// The tables waiting to be attached to the source called `source` again.
    func waiting(for source: String) -> [String] {
        waiting.withLock { $0[source].map { $0.sorted() } ?? [] }
    }

    /// `true` the first time it is asked for the source called `name`: its changes are then
    /// followed from there on.
    func startFollowing(_ name: String) -> Bool {
        following.withLock { $0.insert(name).inserted }
    }
}
