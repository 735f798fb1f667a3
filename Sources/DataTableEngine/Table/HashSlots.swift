import CMemoryHints
import Foundation

/// An open-addressing hash table (linear probing) of 32-bit numbers (a row's slot, a text's
/// code) that keeps no keys of its own: what a number stands for is read, where it lies, by the
/// caller's closures.
///
/// A bucket holds the number in its low 32 bits and the high 32 bits of its key's hash above
/// them, so that a probe passes over the numbers of other keys without reading them; only a
/// number whose bits match is looked at (`matches`). Eight bytes per bucket, at most 70% full.
///
/// A key's home bucket is taken from the top bits of its hash, which its bucket keeps: growing
/// and removal place entries again without hashing any key, and growing reads the old buckets
/// and writes the new ones in order (a bucket's entries go to the bucket at twice its place or
/// the one after). Removal shifts later entries back instead of leaving tombstones, so lookups
/// never slow down with churn.
struct HashSlots: Sendable {
    /// A free bucket (no number is `UInt32.max`).
    private static let empty = UInt64.max
    /// The most buckets: a home is read from the 32 bits of the hash a bucket keeps.
    private static let maximumSize = 1 << 32
    private var buckets: [UInt64] = Array(repeating: HashSlots.empty, count: 16)
    /// 64 less the bits of a bucket's place: a hash shifted right by this is its home.
    private var shift = 60
    private(set) var count = 0

    private var mask: Int { buckets.count - 1 }

    private static func entry(_ number: UInt32, _ hash: UInt64) -> UInt64 {
        hash & 0xFFFF_FFFF_0000_0000 | UInt64(number)
    }

    private static func number(_ entry: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: entry) }

    /// The home bucket of a key with `hash`, or of the key whose bucket holds the entry `hash`.
    private func home(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: hash &>> UInt64(shift)) }

    /// The shift that takes a hash to its home among `size` buckets (a power of two).
    private static func shift(for size: Int) -> Int { 64 - size.trailingZeroBitCount }

    /// Whether `entry` may be the number of a key with `hash` (its high bits match).
    private static func mayMatch(_ entry: UInt64, _ hash: UInt64) -> Bool {
        (entry ^ hash) & 0xFFFF_FFFF_0000_0000 == 0
    }

    /// The number of the key with `hash` that `matches` it.
    func find(_ hash: UInt64, matches: (UInt32) -> Bool) -> UInt32? {
        var index = home(hash)
        while true {
            let entry = buckets[index]
            if entry == Self.empty { return nil }
            if Self.mayMatch(entry, hash), matches(Self.number(entry)) { return Self.number(entry) }
            index = (index + 1) & mask
        }
    }

    /// Brings into the cache the bucket where a lookup of `hash` starts (only a hint to the
    /// processor: nothing changes).
    func prefetch(_ hash: UInt64) {
        buckets.withUnsafeBufferPointer { datatable_prefetch($0.baseAddress! + home(hash)) }
    }

    /// Adds `number`, whose key has `hash` (not yet in the table).
    mutating func insert(_ number: UInt32, hash: UInt64) {
        precondition(number != .max, "number out of range")
        if (count + 1) * 10 > buckets.count * 7 { grow(to: buckets.count * 2) }
        var index = home(hash)
        while buckets[index] != Self.empty { index = (index + 1) & mask }
        buckets[index] = Self.entry(number, hash)
        count += 1
    }

    /// Adds `number`, whose key has `hash`, unless a number whose key `matches` is there
    /// already: then returns that number and adds nothing. One probe does both.
    mutating func insertUnlessPresent(_ number: UInt32, hash: UInt64, matches: (UInt32) -> Bool) -> UInt32? {
        precondition(number != .max, "number out of range")
        if (count + 1) * 10 > buckets.count * 7 { grow(to: buckets.count * 2) }
        var index = home(hash)
        while true {
            let entry = buckets[index]
            if entry == Self.empty { break }
            if Self.mayMatch(entry, hash), matches(Self.number(entry)) { return Self.number(entry) }
            index = (index + 1) & mask
        }
        buckets[index] = Self.entry(number, hash)
        count += 1
        return nil
    }

    /// Makes room for `total` entries without growing again.
    mutating func reserve(_ total: Int) {
        let size = Self.size(for: total)
        if size > buckets.count { grow(to: size) }
    }

    /// Whether `total` entries fit without growing.
    func hasRoom(forTotal total: Int) -> Bool { total * 10 <= buckets.count * 7 }

    /// The fewest buckets (a power of two) that hold `total` entries at most 70% full.
    private static func size(for total: Int) -> Int {
        var size = 16
        while total * 10 > size * 7 { size *= 2 }
        precondition(size <= maximumSize, "too many entries for one table")
        return size
    }

    /// Removes the number of the key with `hash` that `matches` it, if there is one.
    mutating func remove(_ hash: UInt64, matches: (UInt32) -> Bool) {
        var hole = home(hash)
        while true {
            let entry = buckets[hole]
            if entry == Self.empty { return }
            if Self.mayMatch(entry, hash), matches(Self.number(entry)) { break }
            hole = (hole + 1) & mask
        }
        // Shift back every later entry of the run whose home is not between the hole and it.
        var next = hole
        while true {
            next = (next + 1) & mask
            let entry = buckets[next]
            if entry == Self.empty { break }
            let wanted = home(entry)
            let movable = hole <= next ? (wanted <= hole || wanted > next) : (wanted <= hole && wanted > next)
            if movable {
                buckets[hole] = entry
                hole = next
            }
        }
        buckets[hole] = Self.empty
        count -= 1
    }

    /// How many buckets the table has (a power of two).
    var size: Int { buckets.count }

    /// The bits a hash is shifted right by to give its home bucket.
    var bucketShift: Int { shift }

    /// Each bucket made into a 32-bit entry by `make`, in bucket order: given its number
    /// (`UInt32.max` for a free bucket) and a hash whose top 32 bits are those the bucket
    /// keeps (``KeyIndex``).
    func entries(_ make: (UInt32, UInt64) -> UInt32) -> [UInt32] {
        buckets.map { make(Self.number($0), $0 & 0xFFFF_FFFF_0000_0000) }
    }

    private mutating func grow(to size: Int) {
        precondition(size <= Self.maximumSize, "too many entries for one table")
        let old = buckets
        buckets = Array(repeating: Self.empty, count: size)
        shift = Self.shift(for: size)
        let mask = size - 1
        let shift = UInt64(shift)
        buckets.withUnsafeMutableBufferPointer { buckets in
            for entry in old where entry != Self.empty {
                var index = Int(truncatingIfNeeded: entry &>> shift)
                while buckets[index] != Self.empty { index = (index + 1) & mask }
                buckets[index] = entry
            }
        }
    }
}

extension HashSlots {
    /// Below this many numbers an empty table is filled one number after another.
    static let piecewiseMinimum = 32_768

    /// Fills an empty table with `numbers`, whose keys hash to `hashes`, on every core; returns
    /// the positions in `numbers` of those whose key an earlier one of `numbers` has (`same`),
    /// in ascending order (those are left out).
    ///
    /// The buckets are cut into ranges, one piece each. A piece goes through every number in
    /// order and places those whose home is in its range, probing no further than the range's
    /// end; a number whose probe would go past it is set aside. The numbers set aside are
    /// placed after, one by one, probing on into the next range. A key's earlier twin has the
    /// same home, so it is met in the same piece, or set aside before it.
    mutating func fill(
        _ numbers: [UInt32],
        hashes: [UInt64],
        same: @escaping @Sendable (UInt32, UInt32) -> Bool
    ) -> [Int] {
        precondition(count == 0 && numbers.count == hashes.count, "fill takes an empty table and a hash per number")
        let size = Self.size(for: numbers.count)
        buckets = Array(repeating: Self.empty, count: size)
        shift = Self.shift(for: size)
        let shift = UInt64(shift)
        // Every piece reads every hash: two a core keeps the reading small and the cores busy.
        let pieces =
            numbers.count < Self.piecewiseMinimum ? 1 : min(64, 2 * ProcessInfo.processInfo.activeProcessorCount)
        let results = buckets.withUnsafeMutableBufferPointer { buckets in
            let shared = UnsafeMutableSendableBuffer(buckets)
            return ConcurrentPieces.map(pieces) { piece -> (twins: [Int], aside: [Int]) in
                let start = piece * size / pieces
                let end = (piece + 1) * size / pieces
                let buckets = shared.buffer
                var twins: [Int] = []
                var aside: [Int] = []
                for position in numbers.indices {
                    let hash = hashes[position]
                    var index = Int(truncatingIfNeeded: hash &>> shift)
                    guard index >= start, index < end else { continue }
                    var placed = false
                    while index < end {
                        let entry = buckets[index]
                        if entry == Self.empty {
                            precondition(numbers[position] != .max, "number out of range")
                            buckets[index] = Self.entry(numbers[position], hash)
                            placed = true
                            break
                        }
                        if Self.mayMatch(entry, hash), same(Self.number(entry), numbers[position]) {
                            twins.append(position)
                            placed = true
                            break
                        }
                        index += 1
                    }
                    if !placed { aside.append(position) }
                }
                return (twins, aside)
            }
        }
        var twins = results.flatMap(\.twins)
        count = numbers.count - twins.count - results.reduce(0) { $0 + $1.aside.count }
        for position in results.flatMap(\.aside) {
            let number = numbers[position]
            let present = insertUnlessPresent(
                number,
                hash: hashes[position],
                matches: { same($0, number) }
            )
            if present != nil { twins.append(position) }
        }
        return twins.sorted()
    }
}
