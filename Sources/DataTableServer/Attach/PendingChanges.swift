import Synchronization

/// The changes heard from one source and not read back yet, merged as they arrive: by relation,
/// the keys changed (each once, in the order first heard) or every row. A burst of
/// notifications — a bulk `UPDATE` told row by row, or while a read-back is under way — becomes
/// one read of many keys instead of one read each.
final class PendingChanges: Sendable {
    /// What is to be read back, taken at once by ``take()``.
    struct Batch: Sendable, Equatable {
        /// By relation: the keys changed, or `nil` for every row.
        var relations: [String: [String]?] = [:]
        /// Every row of every table of the source is to be read again (after a time it was not
        /// heard), and then told caught up.
        var catchUp = false

        var isEmpty: Bool { relations.isEmpty && !catchUp }
    }

    private struct State {
        var batch = Batch()
        /// The keys in `batch`, by relation, to keep each once.
        var seen: [String: Set<String>] = [:]
    }

    private let state = Mutex(State())

    /// Adds a change of `relation`: `keys`, or every row when `nil`.
    func add(_ relation: String, keys: [String]?) {
        state.withLock { state in
            guard let keys else {
                state.batch.relations[relation] = .some(nil)
                state.seen[relation] = nil
                return
            }
            // Already every row: nothing to add.
            if case .some(.none) = state.batch.relations[relation] { return }
            var listed = state.batch.relations[relation].flatMap { $0 } ?? []
            for key in keys where state.seen[relation, default: []].insert(key).inserted { listed.append(key) }
            state.batch.relations[relation] = .some(listed)
        }
    }

    /// Asks for every row of every table to be read again.
    func addCatchUp() {
        state.withLock { $0.batch.catchUp = true }
    }

    /// Everything pending, which is then no longer pending.
    func take() -> Batch {
        state.withLock { state in
            defer { state = State() }
            return state.batch
        }
    }
}
