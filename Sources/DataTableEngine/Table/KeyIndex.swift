/// Row ids of a key column → slots, without keeping a second copy of the ids.
///
/// An open-addressing hash table (linear probing) of slots only: a lookup hashes the id, walks
/// the probe sequence and compares against the id each candidate slot's row has (read from the
/// key column through `idOf`). Four bytes per bucket, at most 70% full. Removal shifts later
/// entries back instead of leaving tombstones, so lookups never slow down with churn.
struct KeyIndex: Sendable {
    private static let empty = UInt32.max
    private var buckets: [UInt32] = Array(repeating: KeyIndex.empty, count: 16)
    private(set) var count = 0

    private var mask: Int { buckets.count - 1 }

    private func home(_ id: RowID) -> Int { id.hashValue & mask }

    /// The slot of the row with `id`.
    func find(_ id: RowID, idOf: (UInt32) -> RowID) -> UInt32? {
        var index = home(id)
        while true {
            let slot = buckets[index]
            if slot == Self.empty { return nil }
            if idOf(slot) == id { return slot }
            index = (index + 1) & mask
        }
    }

    /// Adds `slot`, whose row has `id` (not yet in the index).
    mutating func insert(_ slot: UInt32, id: RowID, idOf: (UInt32) -> RowID) {
        if (count + 1) * 10 > buckets.count * 7 { grow(to: buckets.count * 2, idOf: idOf) }
        var index = home(id)
        while buckets[index] != Self.empty { index = (index + 1) & mask }
        buckets[index] = slot
        count += 1
    }

    /// Adds `slot`, whose row has `id`, unless a row with `id` is there already: then returns
    /// that row's slot and adds nothing. One probe does both.
    mutating func insertUnlessPresent(_ slot: UInt32, id: RowID, idOf: (UInt32) -> RowID) -> UInt32? {
        if (count + 1) * 10 > buckets.count * 7 { grow(to: buckets.count * 2, idOf: idOf) }
        var index = home(id)
        while true {
            let present = buckets[index]
            if present == Self.empty { break }
            if idOf(present) == id { return present }
            index = (index + 1) & mask
        }
        buckets[index] = slot
        count += 1
        return nil
    }

    /// Makes room for `total` entries without growing again.
    mutating func reserve(_ total: Int, idOf: (UInt32) -> RowID) {
        var size = buckets.count
        while total * 10 > size * 7 { size *= 2 }
        if size > buckets.count { grow(to: size, idOf: idOf) }
    }

    /// Removes the entry for `id`, if there is one.
    mutating func remove(_ id: RowID, idOf: (UInt32) -> RowID) {
        var hole = home(id)
        while true {
            let slot = buckets[hole]
            if slot == Self.empty { return }
            if idOf(slot) == id { break }
            hole = (hole + 1) & mask
        }
        // Shift back every later entry of the run whose home is not between the hole and it.
        var next = hole
        while true {
            next = (next + 1) & mask
            let slot = buckets[next]
            if slot == Self.empty { break }
            let wanted = home(idOf(slot))
            let movable = hole <= next ? (wanted <= hole || wanted > next) : (wanted <= hole && wanted > next)
            if movable {
                buckets[hole] = slot
                hole = next
            }
        }
        buckets[hole] = Self.empty
        count -= 1
    }

    private mutating func grow(to size: Int, idOf: (UInt32) -> RowID) {
        let old = buckets
        buckets = Array(repeating: Self.empty, count: size)
        count = 0
        for slot in old where slot != Self.empty {
            var index = home(idOf(slot))
            while buckets[index] != Self.empty { index = (index + 1) & mask }
            buckets[index] = slot
            count += 1
        }
    }
}
