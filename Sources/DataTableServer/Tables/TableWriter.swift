import DataTableEngine
import DataTableProtocol

/// What a request changes tables through: the daemon's state, and the log record of the
/// request when its changes are recorded (``ChangeRecording``). Made from the request's
/// context (``RequestContext/writer``) and passed to whatever changes a table for it, so that
/// every change it makes claims room in the log first and is recorded inside the table's lock.
///
/// Reading a table needs no writer: ``ServerState/read(_:by:_:)``, ``ServerState/snapshot(_:by:)``,
/// ``ServerState/readKeeping(_:by:_:)`` and ``ServerState/measure(_:for:by:)`` record nothing.
struct TableWriter: Sendable {
    /// The daemon's state: its tables, events and limits.
    let server: ServerState
    /// The request's log record; `nil` when its changes are not recorded (no state directory,
    /// a change replayed at start-up, a watch worked out again between requests).
    let recording: ChangeRecording?

    /// Whether the changes made through this writer are recorded in the log.
    var isRecording: Bool { recording != nil }

    /// Changes the table called `name` in place, holding that table's lock (and no other), once
    /// its owner and mode let `requester` do `right` (write, or own) to it. A change (a new
    /// version) is recorded in the state directory's log even if `body` published no event for it.
    ///
    /// Room for the change's log record is claimed first: when the log has none, the request is
    /// refused `not_saved` and `body` does not run. (A request that only reads, keeping what it
    /// worked out, uses ``ServerState/readKeeping(_:by:_:)``.)
    func update<Result: Sendable>(
        _ name: String,
        by requester: Requester,
        needing right: TableRight,
        ifVersion: Int? = nil,
        _ body: (inout Table) throws -> Result
    ) throws -> Result {
        precondition(right != .read, "a read goes through ServerState.read or readKeeping")
        return try server.tables.entry(name).update { table in
            try requester.check(right, table)
            try ServerState.checkVersion(of: table, is: ifVersion)
            try claimRoom(forChangeTo: name)
            defer { releaseRoom() }
            return try recordingChange(of: &table, body)
        }
    }

    /// Long work on the table called `name` that holds no lock while it runs, once its owner and
    /// mode let `requester` change it.
    ///
    /// `work` changes a copy of the table on a thread of ``HeavyWork`` (the copy shares the
    /// table's storage until it writes, so the O(n) copying happens there too). Then, under the
    /// table's lock and only if the table is still at the version the copy was taken at, the
    /// copy takes the table's place and `install` publishes the result (events, the log record,
    /// the reply) in O(1). When other changes landed meanwhile the work is done again on a new
    /// copy; after ``optimisticAttempts`` tries it runs under the lock, so it always ends.
    ///
    /// The result is exactly what running `work` under the lock would have given: the table it
    /// ran on was the table at the moment it is installed.
    func updateOffLock<Outcome: Sendable, Result: Sendable>(
        _ name: String,
        by requester: Requester,
        ifVersion: Int? = nil,
        work: @escaping @Sendable (inout Table) throws -> Outcome,
        install: (inout Table, Outcome, _ before: UInt64) throws -> Result
    ) async throws -> Result {
        let entry = try server.tables.entry(name)
        let rows = try entry.update { table in
            try requester.check(.write, table)
            try ServerState.checkVersion(of: table, is: ifVersion)
            return table.rowCount
        }
        for _ in 0..<(rows < ServerState.offLockRows ? 0 : ServerState.optimisticAttempts) {
            let original = try entry.copy()
            let started = ContinuousClock.now
            let (changed, outcome) = try await server.heavyWork.run {
                var copy = original
                let outcome = try work(&copy)
                return (copy, outcome)
            }
            let worked = ContinuousClock.now - started
            let installed: Result? = try entry.update { table in
                // (A view's filter set or dropped meanwhile changes no version, but the copy
                // would lose or bring back its rows.)
                guard table.version == original.version, table.filterGeneration == original.filterGeneration
                else { return nil }
                // The owner or mode may have changed since the first look, and the version since
                // it was checked (the copy is of the table as it is now).
                try requester.check(.write, table)
                try ServerState.checkVersion(of: table, is: ifVersion)
                try claimRoom(forChangeTo: name)
                defer { releaseRoom() }
                recording?.addWork(worked)
                return try recordingChange(of: &table) { table in
                    let before = table.version
                    table = changed
                    return try install(&table, outcome, before)
                }
            }
            // `original` goes here, after the lock: storage only it still holds is freed off the lock.
            if let installed { return installed }
        }
        return try update(name, by: requester, needing: .write, ifVersion: ifVersion) { table in
            let before = table.version
            let outcome = try work(&table)
            return try install(&table, outcome, before)
        }
    }

    /// Runs `body` on `table` and records a change it made in the log, with the time `body`
    /// took (a measure of what replaying the change will take, for compaction).
    private func recordingChange<Result>(of table: inout Table, _ body: (inout Table) throws -> Result) rethrows
        -> Result
    {
        let before = table.version
        let started = ContinuousClock.now
        defer {
            if table.version != before {
                recording?.addWork(ContinuousClock.now - started)
                recordChange(of: table)
            }
        }
        return try body(&table)
    }
}

extension ServerState {
    /// Refuses a change asked for at `ifVersion` (when given) once the table has moved on:
    /// `conflict`, naming the version it is at; call it under the table's lock.
    static func checkVersion(of table: Table, is ifVersion: Int?) throws(ResponseError) {
        guard let ifVersion, Int(table.version) != ifVersion else { return }
        throw .versionConflict(table: table.name, expected: ifVersion, current: Int(table.version))
    }

    /// Runs `body` on the table called `name` without changing it, holding its lock alongside
    /// other readers, once its owner and mode let `requester` read it.
    func read<Result: Sendable>(
        _ name: String,
        by requester: Requester,
        _ body: (borrowing Table) throws -> Result
    ) throws -> Result {
        try tables.entry(name).reading { table in
            try requester.check(.read, table)
            return try body(table)
        }
    }

    /// Runs `body` on the table called `name` for a request that only reads it but keeps what it
    /// works out there (a view's column plan and row offsets, its filtered rows or sections),
    /// once its owner and mode let `requester` read it. That is no change to the rows: no new
    /// version, nothing recorded; but the table's own state changes, so the lock is held alone.
    func readKeeping<Result: Sendable>(
        _ name: String,
        by requester: Requester,
        _ body: (inout Table) throws -> Result
    ) throws -> Result {
        try tables.entry(name).update { table in
            try requester.check(.read, table)
            let version = table.version
            defer { assert(table.version == version, "a read changed the table's version") }
            return try body(&table)
        }
    }

    /// A copy of the table called `name` as it is now, taken in O(1) under its lock, once its
    /// owner and mode let `requester` read it: for reading at length (an export) without holding
    /// anyone up.
    func snapshot(_ name: String, by requester: Requester) throws -> Table {
        let table = try tables.entry(name).copy()
        try requester.check(.read, table)
        return table
    }

    /// How many times ``TableWriter/updateOffLock(_:by:ifVersion:work:install:)`` works on a copy
    /// before it works under the lock.
    static let optimisticAttempts = 3

    /// Tables smaller than this are worked on under their lock: the work is shorter than
    /// handing it to another thread.
    static let offLockRows = 20_000

    /// Makes sure a layout or scroll of the table called `name` in `options` finds every row
    /// measured, measuring on a copy off the lock when it does not: the request itself then
    /// answers from kept widths under the lock, in microseconds. Widths are no change to the
    /// table (no new version): nothing is recorded.
    func measure(_ name: String, for options: LayoutOptions, by requester: Requester) async throws {
        guard try !isMeasured(name, for: options) else { return }
        let entry = try tables.entry(name)
        let original = try entry.copy()
        try requester.check(.read, original)
        let measured = try await heavyWork.run {
            var copy = original
            // Options the layout refuses are refused by the request itself, with its error.
            try? copy.measure(for: options)
            return copy
        }
        _ = try entry.update { table in table.adoptMeasures(of: measured) }
    }

    /// Whether a layout or scroll of the table called `name` in `options` finds every row
    /// measured (or the table is small enough to measure under its lock).
    func isMeasured(_ name: String, for options: LayoutOptions) throws -> Bool {
        // Asked under the lock, without a copy: a copy held while someone writes makes the
        // writer copy the table's storage.
        try tables.entry(name).reading { Self.isMeasured($0, for: options) }
    }

    /// Whether `table` is measured for `options`, or small enough to measure under its lock.
    static func isMeasured(_ table: Table, for options: LayoutOptions) -> Bool {
        table.isMeasured(for: options) || table.rowCount < offLockRows
    }
}
