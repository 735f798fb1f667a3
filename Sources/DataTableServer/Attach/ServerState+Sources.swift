import DataTableEngine
import DataTableProtocol
import Foundation
import Logging

extension ServerState {
    /// Follows the changes others make in `source`'s relations, from now on (once per source):
    /// each is read back by key and made in every table attached to its relation.
    ///
    /// What is heard is merged as it arrives (``PendingChanges``) and read back by a second
    /// task, so a burst of notifications becomes a few reads of many keys, and hearing never
    /// waits for reading.
    func follow(_ source: any TableSource) {
        guard attached.startFollowing(source.name) else { return }
        let pending = PendingChanges()
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        Task.detached { [self] in
            for await signal in source.changes() {
                switch signal {
                case .changed(let relation, let keys):
                    pending.add(relation, keys: keys)
                case .listening:
                    attached.setHeard(source.name, true)
                    // Whatever changed while nobody listened is read again, every row.
                    if attached.setStale(source.name, false) { pending.addCatchUp() }
                case .lost(let reason):
                    attached.setHeard(source.name, false)
                    guard attached.setStale(source.name, true) else { continue }
                    for name in attached.tables(of: source.name) { tell(name, stale: true, reason) }
                }
                wake.yield()
            }
            wake.finish()
        }
        Task.detached { [self] in
            for await _ in wakes {
                while case let batch = pending.take(), !batch.isEmpty {
                    await readBack(batch, from: source)
                }
            }
        }
    }

    /// Keys read back in one query at most.
    static let readBackKeys = 10_000

    /// Reads back what `batch` says changed in `source`, table by table.
    private func readBack(_ batch: PendingChanges.Batch, from source: any TableSource) async {
        if batch.catchUp {
            for name in attached.tables(of: source.name) {
                await readBack(nil, into: name)
                tell(name, stale: false, "caught up with the source")
            }
            return
        }
        for (relation, keys) in batch.relations.sorted(by: { $0.key < $1.key }) {
            for name in attached.tables(of: source.name, relation: relation) {
                guard let keys else {
                    await readBack(nil, into: name)
                    continue
                }
                for start in stride(from: 0, to: keys.count, by: Self.readBackKeys) {
                    await readBack(Array(keys[start..<min(start + Self.readBackKeys, keys.count)]), into: name)
                }
            }
        }
    }

    /// Listens to `source` (``follow(_:)``) and waits, up to `patience`, until it is heard, so
    /// that a table loaded afterwards misses no change; `false` when it is not heard by then
    /// (the source is then marked out of reach, and read again once it is heard).
    func listen(to source: any TableSource, patience: Duration = .seconds(5)) async -> Bool {
        follow(source)
        let deadline = ContinuousClock.now + patience
        while !attached.isHeard(source.name) {
            guard ContinuousClock.now < deadline else {
                _ = attached.setStale(source.name, true)
                return false
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Publishes a `source` event for the table called `name`.
    private func tell(_ name: String, stale: Bool, _ reason: String) {
        try? tables.entry(name).read { table in
            publish(table, .source, from: table.version) { event in
                event.stale = stale
                event.change = reason
            }
        }
    }

    /// Reads the rows of `keys` from the table called `name`'s source and makes them the table's:
    /// rows there replace or join the table's, keys without a row leave it. Down the table's
    /// line, after any write that reached it first.
    func readBack(_ keys: [String]?, into name: String) async {
        guard let attachment = attached.attachment(name), keys?.isEmpty != true else { return }
        _ = try? await attachment.line.run {
            let rows = try await attachment.source.rows(of: attachment.shape, keys: keys)
            try self.make(rows, keys: keys, from: attachment.shape, in: name)
        }
    }

    /// Makes `rows` (read back for `keys`) the table's, as the daemon: an upsert of the rows there
    /// and a delete of the keys without one, each its own change and event, recorded in the log.
    private func make(_ rows: [[CellInput]], keys: [String]?, from shape: SourceRows.Shape, in name: String) throws {
        let names = shape.columns.map(\.name)
        let inputs = rows.map { RowInput(values: Dictionary(uniqueKeysWithValues: zip(names, $0))) }
        let keyIndex = names.firstIndex(of: shape.key) ?? 0
        let present = Set(rows.map { $0[keyIndex].draftText })
        // Not logged: the state directory keeps no attached table.
        let upsert = TableWriter(server: self, recording: nil)
        if !inputs.isEmpty {
            try upsert.update(name, by: .daemon, needing: .write) { table in
                // Rows that read back as the table holds them already (a change of another
                // column, or one made twice) change nothing.
                let inputs = inputs.filter { table.differs($0, keyColumn: shape.key) }
                guard !inputs.isEmpty else { return }
                let before = table.version
                guard
                    case .upserted(let result) = try upsert.make(.init(.upsert(inputs), by: nil), to: &table)
                else { return }
                var addedFrom = before
                if let replacedAt = result.versionAfterReplacing {
                    publish(table, .edited, from: before, at: replacedAt) { $0.list(result.changed) }
                    addedFrom = replacedAt
                }
                if !result.added.isEmpty {
                    publish(table, .added, from: addedFrom, thenDropped: table.droppedByLimit) {
                        $0.list(result.added.map(\.id))
                    }
                }
            }
        }
        let delete = TableWriter(server: self, recording: nil)
        try delete.update(name, by: .daemon, needing: .write) { table in
            // Keys read back without a row, or (everything read again) the table's rows the
            // source no longer has.
            let ids: [RowID]
            if let keys {
                ids = keys.filter { !present.contains($0) }.compactMap { table.rowID(forKey: $0) }
                    .filter { table.index(of: $0) != nil }
            } else {
                ids = table.ids(from: 0, limit: table.rowCount).filter { !present.contains($0.description) }
            }
            guard !ids.isEmpty else { return }
            let before = table.version
            if try delete.make(.init(.delete(ids), by: nil), to: &table).count > 0 {
                publish(table, .deleted, from: before) { $0.list(ids) }
            }
        }
    }
}

extension Table {
    /// Whether `input` would change the row with its key: a new key, or a value other than the
    /// row's in some column it names.
    func differs(_ input: RowInput, keyColumn key: String) -> Bool {
        guard let keyInput = input.values[key], let id = rowID(forKey: keyInput.draftText),
            let row = try? rows(ids: [id]).first
        else { return true }
        for (index, column) in columns.enumerated() {
            guard let given = input.values[column.key] else { continue }
            guard let value = try? column.rules.parse(given) else { return true }
            if value != row.values[index] { return true }
        }
        return false
    }

    /// The id of the row whose key column holds `key` (as text), for a table with a key column.
    func rowID(forKey key: String) -> RowID? {
        guard let column = keyColumn else { return nil }
        switch columns[column].type {
        case .number: return Int64(key).map(RowID.number)
        default: return .text(key)
        }
    }
}
