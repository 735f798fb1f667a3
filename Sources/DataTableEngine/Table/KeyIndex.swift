/// Row ids of a key column → slots, without keeping a second copy of the ids: an
/// open-addressing hash table (linear probing, at most 70% full) of 32-bit slots, each id
/// hashed by ``SeededHash`` and read back from the key column (`idOf`, `holds`).
///
/// A bucket holds only a slot: four bytes, where ``HashSlots`` keeps eight to hold bits of
/// each hash too (4 MB less at a million rows at the least). A probe that meets another row's
/// slot reads that row's key to tell it apart: at most 70% full, a lookup that finds its row
/// reads about one key more than itself in two, and a growth or a removal hashes again the keys
/// it moves. A key's home is taken from the top bits of its hash, so that growing reads each
/// run of buckets in order.
struct KeyIndex: Sendable {
    /// A free bucket (no slot is `UInt32.max`).
    private static let empty = UInt32.max
    private var buckets = [UInt32](repeating: KeyIndex.empty, count: 16)
    /// 64 less the bits of a bucket's place: a hash shifted right by this is its home.
    private var shift = 60
    private(set) var count = 0

    init() {}

    private var mask: Int { buckets.count - 1 }

    /// The hash of `id`: its text's bytes or its number.
    static func hash(_ id: RowID) -> UInt64 {
        switch id {
        case .number(let number): return SeededHash.number(number)
        case .text(var text): return text.withUTF8 { SeededHash.bytes($0) }
        }
    }

    private func home(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash &>> UInt64(shift)) }

    /// The slot of the row with `id`, told by `holds` whether a slot's row has it.
    func find(_ id: RowID, holds: (UInt32) -> Bool) -> UInt32? {
        var index = home(Self.hash(id))
        return buckets.withUnsafeBufferPointer { buckets in
            while true {
                let slot = buckets[index]
                if slot == Self.empty { return nil }
                if holds(slot) { return slot }
                index = (index + 1) & mask
            }
        }
    }

    /// The slot of the row with `id`.
    func find(_ id: RowID, idOf: (UInt32) -> RowID) -> UInt32? {
        find(id) { idOf($0) == id }
    }

    /// Adds `slot`, whose row has `id` (not yet in the index).
    mutating func insert(_ slot: UInt32, id: RowID, idOf: (UInt32) -> RowID) {
        _ = insertUnlessPresent(slot, id: id, idOf: idOf)
    }

    /// Adds `slot`, whose row has `id`, unless a row with `id` is there already: then returns
    /// that row's slot and adds nothing. One probe does both.
    mutating func insertUnlessPresent(_ slot: UInt32, id: RowID, idOf: (UInt32) -> RowID) -> UInt32? {
        precondition(slot != Self.empty, "slot out of range")
        if (count + 1) * 10 > buckets.count * 7 { grow(to: buckets.count * 2, idOf: idOf) }
        var index = home(Self.hash(id))
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

    /// Makes room for `total` entries without growing again; the ids of the slots held are read
    /// (`idOf`) and hashed again when it grows.
    mutating func reserve(_ total: Int, idOf: (UInt32) -> RowID) {
        let size = Self.size(for: total)
        if size > buckets.count { grow(to: size, idOf: idOf) }
    }

    /// Whether `total` entries fit without growing.
    func hasRoom(forTotal total: Int) -> Bool { total * 10 <= buckets.count * 7 }

    /// The fewest buckets (a power of two) that hold `total` entries at most 70% full.
    private static func size(for total: Int) -> Int {
        var size = 16
        while total * 10 > size * 7 { size *= 2 }
        precondition(size <= 1 << 32, "too many rows for one table")
        return size
    }

    /// Removes the entry for `id`, if there is one.
    mutating func remove(_ id: RowID, idOf: (UInt32) -> RowID) {
        var hole = home(Self.hash(id))
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
            let wanted = home(Self.hash(idOf(slot)))
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
        shift = 64 - size.trailingZeroBitCount
        let mask = size - 1
        let shift = UInt64(shift)
        buckets.withUnsafeMutableBufferPointer { buckets in
            for slot in old where slot != Self.empty {
                var index = Int(truncatingIfNeeded: Self.hash(idOf(slot)) &>> shift)
                while buckets[index] != Self.empty { index = (index + 1) & mask }
                buckets[index] = slot
            }
        }
    }

    /// Below this many rows an empty index is filled one row after another.
    static let piecewiseMinimum = HashSlots.piecewiseMinimum

    /// Fills an empty index with `slots`, whose ids hash to `hashes` (``hash(_:)``), on every
    /// core; returns the positions in `slots` of the rows whose id an earlier one of `slots`
    /// has, in ascending order (those rows are left out).
    ///
    /// Filled as a ``HashSlots`` (``HashSlots/fill(_:hashes:same:)``), whose buckets keep bits
    /// of each hash and so tell most rows apart without reading their ids, then kept as its
    /// slots alone: the same buckets, half the bytes.
    mutating func fill(_ slots: [UInt32], hashes: [UInt64], idOf: @escaping @Sendable (UInt32) -> RowID) -> [Int] {
        precondition(count == 0, "fill takes an empty index")
        var filled = HashSlots()
        let twins = filled.fill(slots, hashes: hashes, same: { idOf($0) == idOf($1) })
        (buckets, shift) = filled.numbersByBucket
        count = filled.count
        return twins
    }
}
