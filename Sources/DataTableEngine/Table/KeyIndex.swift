import Foundation

/// Row ids of a key column → slots, without keeping a second copy of the ids.
///
/// An open-addressing hash table (linear probing). A bucket holds a slot in its low 32 bits and
/// the high 32 bits of its id's hash (``SeededHash``) above them, so that a probe passes over
/// the rows of other ids without reading them; only a row whose bits match is read (from the
/// key column, through `idOf`) and compared. Eight bytes per bucket, at most 70% full. Removal
/// shifts later entries back instead of leaving tombstones, so lookups never slow down with
/// churn.
struct KeyIndex: Sendable {
    /// A free bucket (no slot is `UInt32.max`).
    private static let empty = UInt64.max
    private var buckets: [UInt64] = Array(repeating: KeyIndex.empty, count: 16)
    private(set) var count = 0

    private var mask: Int { buckets.count - 1 }

    /// The hash of `id`: its text's bytes or its number.
    static func hash(_ id: RowID) -> UInt64 {
        switch id {
        case .number(let number): return SeededHash.number(number)
        case .text(var text): return text.withUTF8 { SeededHash.bytes($0) }
        }
    }

    private static func entry(_ slot: UInt32, _ hash: UInt64) -> UInt64 {
        hash & 0xFFFF_FFFF_0000_0000 | UInt64(slot)
    }

    private static func slot(_ entry: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: entry) }

    private func home(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash) & mask }

    /// Whether `entry` may be the row of an id with `hash` (its high bits match).
    private static func matches(_ entry: UInt64, _ hash: UInt64) -> Bool {
        (entry ^ hash) & 0xFFFF_FFFF_0000_0000 == 0
    }

    /// The slot of the row with `id`.
    func find(_ id: RowID, idOf: (UInt32) -> RowID) -> UInt32? {
        let hash = Self.hash(id)
        var index = home(hash)
        while true {
            let entry = buckets[index]
            if entry == Self.empty { return nil }
            if Self.matches(entry, hash), idOf(Self.slot(entry)) == id { return Self.slot(entry) }
            index = (index + 1) & mask
        }
    }

    /// Adds `slot`, whose row has `id` (not yet in the index).
    mutating func insert(_ slot: UInt32, id: RowID, idOf: (UInt32) -> RowID) {
        precondition(slot != .max, "slot out of range")
        if (count + 1) * 10 > buckets.count * 7 { grow(to: buckets.count * 2, idOf: idOf) }
        let hash = Self.hash(id)
        var index = home(hash)
        while buckets[index] != Self.empty { index = (index + 1) & mask }
        buckets[index] = Self.entry(slot, hash)
        count += 1
    }

    /// Adds `slot`, whose row has `id`, unless a row with `id` is there already: then returns
    /// that row's slot and adds nothing. One probe does both.
    mutating func insertUnlessPresent(_ slot: UInt32, id: RowID, idOf: (UInt32) -> RowID) -> UInt32? {
        precondition(slot != .max, "slot out of range")
        if (count + 1) * 10 > buckets.count * 7 { grow(to: buckets.count * 2, idOf: idOf) }
        let hash = Self.hash(id)
        var index = home(hash)
        while true {
            let entry = buckets[index]
            if entry == Self.empty { break }
            if Self.matches(entry, hash), idOf(Self.slot(entry)) == id { return Self.slot(entry) }
            index = (index + 1) & mask
        }
        buckets[index] = Self.entry(slot, hash)
        count += 1
        return nil
    }

    /// Makes room for `total` entries without growing again.
    mutating func reserve(_ total: Int, idOf: (UInt32) -> RowID) {
        let size = Self.size(for: total)
        if size > buckets.count { grow(to: size, idOf: idOf) }
    }

    /// The fewest buckets (a power of two) that hold `total` entries at most 70% full.
    private static func size(for total: Int) -> Int {
        var size = 16
        while total * 10 > size * 7 { size *= 2 }
        return size
    }

    /// Removes the entry for `id`, if there is one.
    mutating func remove(_ id: RowID, idOf: (UInt32) -> RowID) {
        let hash = Self.hash(id)
        var hole = home(hash)
        while true {
            let entry = buckets[hole]
            if entry == Self.empty { return }
            if Self.matches(entry, hash), idOf(Self.slot(entry)) == id { break }
            hole = (hole + 1) & mask
        }
        // Shift back every later entry of the run whose home is not between the hole and it.
        var next = hole
        while true {
            next = (next + 1) & mask
            let entry = buckets[next]
            if entry == Self.empty { break }
            let wanted = home(Self.hash(idOf(Self.slot(entry))))
            let movable = hole <= next ? (wanted <= hole || wanted > next) : (wanted <= hole && wanted > next)
            if movable {
                buckets[hole] = entry
                hole = next
            }
        }
        buckets[hole] = Self.empty
        count -= 1
    }

    private mutating func grow(to size: Int, idOf: (UInt32) -> RowID) {
        let old = buckets
        buckets = Array(repeating: Self.empty, count: size)
        for entry in old where entry != Self.empty {
            let slot = Self.slot(entry)
            let hash = Self.hash(idOf(slot))
            var index = home(hash)
            while buckets[index] != Self.empty { index = (index + 1) & mask }
            buckets[index] = Self.entry(slot, hash)
        }
    }
}

extension KeyIndex {
    /// Below this many rows an empty index is filled one row after another.
    static let piecewiseMinimum = 32_768

    /// Fills an empty index with `slots`, whose ids hash to `hashes` (``hash(_:)``), on every
    /// core; returns the positions in `slots` of the rows whose id an earlier one of `slots`
    /// has, in ascending order (those rows are left out).
    ///
    /// The buckets are cut into ranges, one piece each. A piece goes through every row in order
    /// and places those whose home is in its range, probing no further than the range's end;
    /// a row whose probe would go past it is set aside. The rows set aside are placed after,
    /// one by one, probing on into the next range. A row's earlier twin has the same home, so
    /// it is met in the same piece, or set aside before it.
    mutating func fill(_ slots: [UInt32], hashes: [UInt64], idOf: @escaping @Sendable (UInt32) -> RowID) -> [Int] {
        precondition(count == 0 && slots.count == hashes.count, "fill takes an empty index and a hash per slot")
        let size = Self.size(for: slots.count)
        buckets = Array(repeating: Self.empty, count: size)
        // Every piece reads every hash: two a core keeps the reading small and the cores busy.
        let pieces = slots.count < Self.piecewiseMinimum ? 1 : min(64, 2 * ProcessInfo.processInfo.activeProcessorCount)
        let mask = size - 1
        let results = buckets.withUnsafeMutableBufferPointer { buckets in
            let shared = UnsafeMutableSendableBuffer(buckets)
            return ConcurrentPieces.map(pieces) { piece -> (twins: [Int], aside: [Int]) in
                let start = piece * size / pieces
                let end = (piece + 1) * size / pieces
                let buckets = shared.buffer
                var twins: [Int] = []
                var aside: [Int] = []
                for row in slots.indices {
                    let hash = hashes[row]
                    var index = Int(truncatingIfNeeded: hash) & mask
                    guard index >= start, index < end else { continue }
                    var placed = false
                    while index < end {
                        let entry = buckets[index]
                        if entry == Self.empty {
                            buckets[index] = Self.entry(slots[row], hash)
                            placed = true
                            break
                        }
                        if Self.matches(entry, hash), idOf(Self.slot(entry)) == idOf(slots[row]) {
                            twins.append(row)
                            placed = true
                            break
                        }
                        index += 1
                    }
                    if !placed { aside.append(row) }
                }
                return (twins, aside)
            }
        }
        var twins = results.flatMap(\.twins)
        count = slots.count - twins.count - results.reduce(0) { $0 + $1.aside.count }
        for row in results.flatMap(\.aside) {
            if insertUnlessPresent(slots[row], id: idOf(slots[row]), idOf: idOf) != nil { twins.append(row) }
        }
        return twins.sorted()
    }
}
