import DataTableEngine
import DataTableProtocol

extension ServerState {
    /// Whether an `add` of `count` rows to the table called `name` (at `index` of its own
    /// order) is small work under its lock: the table is small, or every array it keeps per
    /// slot has room (``Table/hasRoom(forAdding:at:)``). `true` when the table cannot be read:
    /// the add itself then refuses, with its own error.
    func addIsSmall(_ name: String, count: Int, at index: Int?, by requester: Requester) -> Bool {
        let small = try? tables.entry(name).reading { table in
            try requester.check(.write, table)
            return table.rowCount < Self.offLockRows || table.hasRoom(forAdding: count, at: index)
        }
        return small ?? true
    }

    /// Grows the arrays of the table called `name` for `count` more rows (and as many again as
    /// it has), on a copy on a ``HeavyWork`` thread, and puts the copy in the table's place
    /// under its lock in O(1) if the table did not change meanwhile (else tries again, a few
    /// times). Nothing a client sees changes: no row, no version, nothing recorded. A table
    /// that cannot be changed by `requester` is left alone (the add refuses on its own), and so
    /// is a small one. With no rows at index 0 it builds the tree of an order kept in sequence,
    /// as a `delete` needs before it takes rows out.
    func makeRoom(_ name: String, forAdding count: Int, at index: Int?, by requester: Requester) async {
        guard let entry = try? tables.entry(name) else { return }
        for _ in 0..<Self.optimisticAttempts {
            guard let original = try? entry.copy(), (try? requester.check(.write, original)) != nil,
                original.rowCount >= Self.offLockRows, !original.hasRoom(forAdding: count, at: index)
            else { return }
            guard
                let grown = try? await heavyWork.run({
                    var copy = original
                    copy.makeRoom(forAdding: count, at: index)
                    return copy
                })
            else { return }
            let installed =
                (try? entry.update { table in
                    guard table.version == original.version, table.filterGeneration == original.filterGeneration
                    else { return false }
                    table = grown
                    return true
                }) ?? false
            // `original` goes here, after the lock: the arrays only it still holds are freed off the lock.
            if installed { return }
        }
    }
}
