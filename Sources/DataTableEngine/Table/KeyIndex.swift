/// Row ids of a key column → slots, without keeping a second copy of the ids: an
/// open-addressing hash table (linear probing, at most 70% full) of 32-bit entries, each id
/// hashed by ``SeededHash`` and read back from the key column (`idOf`, `holds`).
///
/// An entry is four bytes, where ``HashSlots`` keeps eight: a slot in its low bits and, in the
/// bits the slots leave free, a *fingerprint* of the key's hash (bits just below those that
/// give the home bucket). A probe passes over entries whose fingerprint differs without reading
/// their keys; at a million rows in 2²¹ buckets a fingerprint has 11 bits, so a lookup reads
/// about one key more than its own in four thousand. The more slots a table has, the fewer bits
/// are left; past 2³¹ buckets none, and each probe reads a key. Growth, removal and a table
/// whose slots outgrow their bits hash again the keys they move.
struct KeyIndex: Sendable {
    /// A free bucket (no entry is `UInt32.max`: no slot is all ones in its bits).
    private static let empty = UInt32.max
    private var buckets = [UInt32](repeating: KeyIndex.empty, count: 16)
    /// 64 less the bits of a bucket's place: a hash shifted right by this is its home.
    private var shift = 60
    /// The bits of an entry that hold its slot; those above hold the fingerprint.
    private var slotBits = 16
    private(set) var count = 0

    init() {}

    private var mask: Int { buckets.count - 1 }

    /// The bits a table of `size` buckets gives its slots: at least as many as its home takes
    /// (so that the fingerprint, the hash bits just below the home's, and the home never
    /// overlap) and enough for every slot below `slotLimit`.
    private static func slotBits(size: Int, slotLimit: Int) -> Int {
        max(size.trailingZeroBitCount, 64 - UInt64(slotLimit).leadingZeroBitCount, 1)
    }

    /// The entry for `slot`, whose key has `hash`.
    private func entry(_ slot: UInt32, _ hash: UInt64) -> UInt32 {
        slotBits >= 32 ? slot : UInt32(truncatingIfNeeded: hash &>> 32) &<< UInt32(slotBits) | slot
    }

    /// The fingerprint bits of an entry for a key with `hash` (the slot's bits cleared).
    private func fingerprint(_ hash: UInt64) -> UInt32 {
        slotBits >= 32 ? 0 : UInt32(truncatingIfNeeded: hash &>> 32) &<< UInt32(slotBits)
    }

    /// The slot of `entry`.
    private func slot(_ entry: UInt32) -> UInt32 {
        slotBits >= 32 ? entry : entry & ((1 &<< UInt32(slotBits)) &- 1)
    }

    /// Whether `slot` fits in the bits entries give slots (and is not all ones there).
    private func fits(_ slot: UInt32) -> Bool {
        slotBits >= 32 ? slot != .max : UInt64(slot) < (1 << UInt64(slotBits)) - 1
    }

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
        let hash = Self.hash(id)
        var index = home(hash)
        let print = fingerprint(hash)
        let printMask = fingerprint(.max)
        return buckets.withUnsafeBufferPointer { buckets in
            while true {
                let entry = buckets[index]
                if entry == Self.empty { return nil }
                if entry & printMask == print, holds(slot(entry)) { return slot(entry) }
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
        precondition(slot != .max, "slot out of range")
        if (count + 1) * 10 > buckets.count * 7 {
            rebuild(size: buckets.count * 2, slotLimit: Int(slot) + 1, idOf: idOf)
        } else if !fits(slot) {
            rebuild(size: buckets.count, slotLimit: Int(slot) + 1, idOf: idOf)
        }
        let hash = Self.hash(id)
        var index = home(hash)
        let print = fingerprint(hash)
        let printMask = fingerprint(.max)
        while true {
            let present = buckets[index]
            if present == Self.empty { break }
            if present & printMask == print, idOf(self.slot(present)) == id { return self.slot(present) }
            index = (index + 1) & mask
        }
        buckets[index] = entry(slot, hash)
        count += 1
        return nil
    }

    /// Makes room for `total` entries without growing again; the ids of the slots held are read
    /// (`idOf`) and hashed again when it grows.
    mutating func reserve(_ total: Int, slotsBelow slotLimit: Int, idOf: (UInt32) -> RowID) {
        let size = max(Self.size(for: total), buckets.count)
        if size > buckets.count || Self.slotBits(size: size, slotLimit: slotLimit) > slotBits {
            rebuild(size: size, slotLimit: slotLimit, idOf: idOf)
        }
    }

    /// Whether `total` entries, their slots below `slotLimit`, fit without growing.
    func hasRoom(forTotal total: Int, slotsBelow slotLimit: Int) -> Bool {
        total * 10 <= buckets.count * 7 && (slotLimit == 0 || fits(UInt32(clamping: slotLimit - 1)))
    }

    /// The fewest buckets (a power of two) that hold `total` entries at most 70% full.
    private static func size(for total: Int) -> Int {
        var size = 16
        while total * 10 > size * 7 { size *= 2 }
        precondition(size <= 1 << 32, "too many rows for one table")
        return size
    }

    /// Removes the entry for `id`, if there is one.
    mutating func remove(_ id: RowID, idOf: (UInt32) -> RowID) {
        let hash = Self.hash(id)
        var hole = home(hash)
        let print = fingerprint(hash)
        let printMask = fingerprint(.max)
        while true {
            let entry = buckets[hole]
            if entry == Self.empty { return }
            if entry & printMask == print, idOf(slot(entry)) == id { break }
            hole = (hole + 1) & mask
        }
        // Shift back every later entry of the run whose home is not between the hole and it.
        var next = hole
        while true {
            next = (next + 1) & mask
            let entry = buckets[next]
            if entry == Self.empty { break }
            let wanted = home(Self.hash(idOf(slot(entry))))
            let movable = hole <= next ? (wanted <= hole || wanted > next) : (wanted <= hole && wanted > next)
            if movable {
                buckets[hole] = entry
                hole = next
            }
        }
        buckets[hole] = Self.empty
        count -= 1
    }

    /// Places every entry again among `size` buckets, with room in their bits for slots below
    /// `slotLimit` (and every slot held): each key read (`idOf`) and hashed again.
    private mutating func rebuild(size: Int, slotLimit: Int, idOf: (UInt32) -> RowID) {
        let old = buckets
        let oldSlotBits = slotBits
        let held = old.lazy.filter { $0 != Self.empty }.map {
            oldSlotBits >= 32 ? $0 : $0 & ((1 &<< UInt32(oldSlotBits)) &- 1)
        }
        let largest = held.max().map { Int($0) + 1 } ?? 0
        buckets = Array(repeating: Self.empty, count: size)
        shift = 64 - size.trailingZeroBitCount
        slotBits = Self.slotBits(size: size, slotLimit: max(slotLimit, largest) + 1)
        let mask = size - 1
        for slot in held {
            let hash = Self.hash(idOf(slot))
            var index = home(hash)
            while buckets[index] != Self.empty { index = (index + 1) & mask }
            buckets[index] = entry(slot, hash)
        }
    }

    /// Below this many rows an empty index is filled one row after another.
    static let piecewiseMinimum = HashSlots.piecewiseMinimum

    /// Fills an empty index with `slots`, whose ids hash to `hashes` (``hash(_:)``), on every
    /// core; returns the positions in `slots` of the rows whose id an earlier one of `slots`
    /// has, in ascending order (those rows are left out).
    ///
    /// Filled as a ``HashSlots`` (``HashSlots/fill(_:hashes:same:)``), whose buckets keep the
    /// top 32 bits of each hash, then kept as its slots with a fingerprint from those bits: the
    /// same buckets, half the bytes.
    mutating func fill(_ slots: [UInt32], hashes: [UInt64], idOf: @escaping @Sendable (UInt32) -> RowID) -> [Int] {
        precondition(count == 0, "fill takes an empty index")
        var filled = HashSlots()
        let twins = filled.fill(slots, hashes: hashes, same: { idOf($0) == idOf($1) })
        let (size, hashSlotsShift) = (filled.size, filled.bucketShift)
        shift = hashSlotsShift
        slotBits = Self.slotBits(size: size, slotLimit: Int(slots.max() ?? 0) + 2)
        buckets = filled.entries { slot, hash in slot == .max ? Self.empty : entry(slot, hash) }
        count = filled.count
        return twins
    }
}
