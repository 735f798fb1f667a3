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
        /// By relation: the keys heard, each once, in the order first heard.
        var keys: [String: [String]] = [:]
        /// The keys in `keys`, by relation, to keep each once.
        var seen: [String: Set<String>] = [:]
        /// Relations whose every row is to be read again.
        var everyRow: Set<String> = []
        var catchUp = false
    }

    private let state = Mutex(State())

    /// Adds a change of `relation`: `keys`, or every row when `nil`.
    func add(_ relation: String, keys: [String]?) {
        state.withLock { state in
            guard let keys else {
                state.everyRow.insert(relation)
                state.keys[relation] = nil
                state.seen[relation] = nil
                return
            }
            // Already every row: nothing to add.
            guard !state.everyRow.contains(relation) else { return }
            // In place: the lists of a burst grow by what is new, never copied whole.
            for key in keys where state.seen[relation, default: []].insert(key).inserted {
                state.keys[relation, default: []].append(key)
            }
        }
    }

    /// Asks for every row of every table to be read again.
    func addCatchUp() {
        state.withLock { $0.catchUp = true }
    }

    /// Everything pending, which is then no longer pending.
    func take() -> Batch {
        let taken = state.withLock { state in
            defer { state = State() }
            return state
        }
        var batch = Batch(catchUp: taken.catchUp)
        for (relation, keys) in taken.keys { batch.relations[relation] = .some(keys) }
        for relation in taken.everyRow { batch.relations[relation] = .some(nil) }
        return batch
    }
}
