import DataTableEngine
import Synchronization

/// The tables the daemon serves, each behind a lock of its own, so that no request on one table
/// ever waits for work on another.
///
/// Two kinds of lock, always taken in this order when both are needed:
/// 1. the directory (names → entries): held only to find, add or remove a table, never while a
///    table's lock is held;
/// 2. one ``LiveTable``'s lock per table: held for a request's work on that table and the
///    publishing of its event and log record, which keeps each table's events and records in
///    version order.
///
/// Long work (a sort, a load's insert, a first measuring layout, an export) does not hold a
/// table's lock: it works on a copy taken under the lock in O(1) (the table's storage is
/// copy-on-write) and publishes its result under the lock afterwards (see
/// ``TableWriter/updateOffLock(_:by:ifVersion:work:install:)``).
public final class LiveTables: Sendable {
    private struct Directory {
        /// Names in the order the tables were created.
        var names: [String] = []
        var entries: [String: LiveTable] = [:]
    }

    private let directory: Mutex<Directory>
    /// What each user's tables hold, kept as they change.
    let ledger: MemoryLedger
    /// How many changes each table can take back (`--undo-depth`).
    var undoDepth: Int { depth.load(ordering: .relaxed) }
    private let depth: Atomic<Int>

    /// Serves the tables of `catalog`, each keeping `undoDepth` changes to undo; without
    /// `accountingMemory`, nobody asks what they hold (a log replayed at start).
    public init(
        _ catalog: TableCatalog = TableCatalog(),
        undoDepth: Int = Table.defaultUndoDepth,
        accountingMemory: Bool = true
    ) {
        depth = Atomic(undoDepth)
        ledger = MemoryLedger(keeping: accountingMemory)
        var directory = Directory()
        for name in catalog.tableNames {
            var table = catalog[name]!
            table.undoDepth = undoDepth
            table.recountMemory()
            directory.names.append(name)
            directory.entries[name] = LiveTable(table, ledger: ledger)
            ledger.note(table)
        }
        self.directory = Mutex(directory)
    }

    /// The table called `name`, or ``CatalogError/noSuchTable(_:)``.
    func entry(_ name: String) throws(CatalogError) -> LiveTable {
        guard let entry = directory.withLock({ $0.entries[name] }) else { throw .noSuchTable(name) }
        return entry
    }

    /// Whether a table called `name` exists.
    func contains(_ name: String) -> Bool {
        directory.withLock { $0.entries[name] != nil }
    }

    /// Every table, in the order they were created.
    var all: [LiveTable] {
        directory.withLock { directory in directory.names.map { directory.entries[$0]! } }
    }

    /// How many tables there are.
    public var count: Int { directory.withLock { $0.names.count } }

    /// Rows across every table (each table's count read under its own lock).
    public var rowCount: Int { all.reduce(0) { $0 + $1.read(\.rowCount) } }

    /// Adds `table` unless `check` throws (given how many tables there are), a table of its
    /// name exists, or `then` throws; `then` runs just before the table goes in, while nobody can
    /// find it yet (to log and publish its creation in order).
    func insert(
        _ table: Table,
        check: (_ tableCount: Int) throws -> Void,
        then: (Table) throws -> Void = { _ in }
    ) throws {
        var table = table
        table.undoDepth = undoDepth
        table.recountMemory()
        try directory.withLock { directory in
            guard directory.entries[table.name] == nil else { throw CatalogError.alreadyExists(table.name) }
            try TableCatalog.checkName(table.name)
            try check(directory.names.count)
            try then(table)
            directory.entries[table.name] = LiveTable(table, ledger: ledger)
            directory.names.append(table.name)
            ledger.note(table)
        }
    }

    /// Removes the table called `name` once whoever works on it now is done, unless `check`
    /// throws (given the table as it is then); `then` runs on the table as it was last, before
    /// anyone can find the name free again. Returns that table.
    @discardableResult
    func remove(
        _ name: String,
        if check: (Table) throws -> Void = { _ in },
        then: (Table) -> Void = { _ in }
    ) throws -> Table {
        try directory.withLock { directory in
            guard let entry = directory.entries[name] else { throw CatalogError.noSuchTable(name) }
            let table = try entry.retire(if: check, then)
            directory.entries[name] = nil
            directory.names.removeAll { $0 == name }
            ledger.forget(name)
            return table
        }
    }

    /// Puts `table` in place of the table of its name (keeping its place), or adds it.
    /// Gives every table, and every table to come, `undoDepth` changes to undo (the oldest
    /// beyond it are forgotten): what a replayed log says the daemon that wrote it did.
    func setUndoDepth(_ undoDepth: Int) {
        depth.store(undoDepth, ordering: .relaxed)
        for entry in all { _ = try? entry.update { table in table.undoDepth = undoDepth } }
    }

    func replace(_ table: Table) {
        var table = table
        table.undoDepth = undoDepth
        table.recountMemory()
        directory.withLock { directory in
            if let entry = directory.entries[table.name] {
                entry.swap(table)
            } else {
                directory.entries[table.name] = LiveTable(table, ledger: ledger)
                directory.names.append(table.name)
            }
            ledger.note(table)
        }
    }

    /// Every table as it is at one instant, with `cut` run at that instant (the log's rotation,
    /// for a snapshot): the directory and then every table are locked together, briefly, and
    /// each table is copied in O(1).
    func consistentCopy<Cut: Sendable>(_ cut: () -> Cut) -> (TableCatalog, Cut) {
        directory.withLock { directory in
            var catalog = TableCatalog()
            let entries = directory.names.map { directory.entries[$0]! }
            func lockAll(_ index: Int) -> Cut {
                guard index < entries.count else { return cut() }
                return entries[index].holding { table in
                    try! catalog.insert(table)
                    return lockAll(index + 1)
                }
            }
            let result = lockAll(0)
            return (catalog, result)
        }
    }

    /// Every table copied, for tests and tools that want them as a value.
    public func catalog() -> TableCatalog {
        consistentCopy {}.0
    }
}

/// One table and its lock: requests that only read it (`get`, a measured `scroll`,
/// `describe`) hold it together; a change holds it alone.
final class LiveTable: Sendable {
    private struct Slot: Sendable {
        var table: Table
        /// Set when the table was dropped: whoever found the entry before reads it as gone.
        var retired = false
    }

    let name: String
    private let slot: ReadWriteLocked<Slot>
    private let ledger: MemoryLedger

    init(_ table: Table, ledger: MemoryLedger) {
        name = table.name
        slot = ReadWriteLocked(Slot(table: table))
        self.ledger = ledger
    }

    /// Runs `body` on the table in place, holding its lock alone.
    func update<Result: Sendable>(_ body: (inout Table) throws -> Result) throws -> Result {
        try slot.withWriteLock { slot in
            guard !slot.retired else { throw CatalogError.noSuchTable(name) }
            let before = slot.table.version
            defer { if slot.table.version != before { ledger.note(slot.table) } }
            return try body(&slot.table)
        }
    }

    /// Runs `body` with the table, holding its lock alongside other readers.
    func reading<Result: Sendable>(_ body: (borrowing Table) throws -> Result) throws -> Result {
        try slot.withReadLock { slot in
            guard !slot.retired else { throw CatalogError.noSuchTable(name) }
            return try body(slot.table)
        }
    }

    /// A copy of the table as it is now (O(1): its storage is shared until either side changes).
    func copy() throws(CatalogError) -> Table {
        let copy = slot.withReadLock { $0.retired ? nil : $0.table }
        guard let copy else { throw .noSuchTable(name) }
        return copy
    }

    /// One property of the table, read under the lock (a dropped table reads as it was last).
    func read<Value: Sendable>(_ property: (Table) -> Value) -> Value {
        slot.withReadLock { property($0.table) }
    }

    /// Runs `body` with the table while holding the lock, whether or not it was dropped.
    fileprivate func holding<Result: Sendable>(_ body: (Table) -> Result) -> Result {
        slot.withReadLock { body($0.table) }
    }

    /// Marks the table dropped and runs `body` on it, under the lock, unless `check` throws.
    fileprivate func retire(if check: (Table) throws -> Void, _ body: (Table) -> Void) throws -> Table {
        try slot.withWriteLock { slot in
            try check(slot.table)
            slot.retired = true
            body(slot.table)
            return slot.table
        }
    }

    /// Puts `table` in place of this one.
    fileprivate func swap(_ table: Table) {
        slot.withWriteLock { $0 = Slot(table: table) }
    }
}
