import DataTableEngine
import Synchronization

/// Roughly how much memory each user's tables hold, for `--max-memory-per-uid`: every table's
/// ``Table/memoryUse`` (rows, undo history, drafts, column states, views) as of its last change,
/// summed by owner, part by part.
///
/// Noted under each table's lock as it changes, read without any table's lock: a request that
/// holds one table's lock can ask what its owner's other tables hold without taking theirs.
final class MemoryLedger: Sendable {
    private struct Books {
        var tables: [String: (owner: UInt32, use: MemoryUse)] = [:]
        var owners: [UInt32: MemoryUse] = [:]
    }

    private let books = Mutex(Books())
    /// Whether tables are noted at all: not while a log is replayed at start, where nobody asks
    /// (the server that serves the tables afterwards notes them anew), and where noting a table
    /// after each change would cost O(columns) per change of a wide one.
    private let keeping: Bool

    /// A ledger; with `keeping` false it notes nothing and every owner holds 0 bytes.
    init(keeping: Bool = true) {
        self.keeping = keeping
    }

    /// Notes `table` as it is now (its owner may have changed).
    func note(_ table: borrowing Table) {
        guard keeping else { return }
        let (name, owner, use) = (table.name, table.access.owner, table.memoryUse)
        books.withLock { books in
            if let old = books.tables[name] { books.owners[old.owner, default: MemoryUse()] -= old.use }
            books.tables[name] = (owner, use)
            books.owners[owner, default: MemoryUse()] += use
        }
    }

    /// Forgets the table called `name` (it was dropped).
    func forget(_ name: String) {
        books.withLock { books in
            guard let old = books.tables.removeValue(forKey: name) else { return }
            books.owners[old.owner, default: MemoryUse()] -= old.use
        }
    }

    /// Roughly the memory the tables owned by `uid` hold.
    func bytes(ownedBy uid: UInt32) -> Int {
        use(ownedBy: uid).total
    }

    /// Roughly the memory the tables owned by `uid` hold, part by part.
    func use(ownedBy uid: UInt32) -> MemoryUse {
        books.withLock { $0.owners[uid] ?? MemoryUse() }
    }
}
