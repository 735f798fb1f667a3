import TestSupport
import Testing

@testable import DataTableEngine

/// The hash table under the key index and the coded texts' dictionaries: whatever the order of
/// adds and removes, through growth and runs of entries that wrap past the last bucket, every
/// number added and not removed is found, and no other.
@Suite struct HashSlotsTests {
    /// A hash that crowds numbers together: a third share the top bits of the last buckets
    /// (their runs wrap to the first), a third share a few homes, the rest spread out.
    static func hash(_ number: UInt32) -> UInt64 {
        let mixed = UInt64(number) &* 0x9E37_79B9_7F4A_7C15
        switch number % 3 {
        case 0: return 0xFFF0_0000_0000_0000 | (mixed & 0x000F_FFFF_FFFF_FFFF)
        case 1: return UInt64(number % 4) << 62 | (mixed & 0x0000_0000_FFFF_FFFF)
        default: return mixed
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func numbersAddedAndNotRemovedAreFoundThroughGrowthAndWraps(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var table = HashSlots()
        var present = Set<UInt32>()
        for step in 0..<6000 {
            let number = UInt32.random(in: 0..<1500, using: &random)
            let hash = Self.hash(number)
            if Int.random(in: 0..<3, using: &random) == 0 {
                table.remove(hash, matches: { $0 == number })
                present.remove(number)
            } else {
                let found = table.insertUnlessPresent(number, hash: hash, matches: { $0 == number })
                #expect((found != nil) == present.contains(number), "step \(step)")
                present.insert(number)
            }
            if step % 500 == 0 { table.reserve(table.count + Int.random(in: 0..<3000, using: &random)) }
            #expect(table.count == present.count)
        }
        for number in UInt32(0)..<1500 {
            let found = table.find(Self.hash(number)) { $0 == number }
            #expect(found == (present.contains(number) ? number : nil), "\(number)")
        }
    }

    /// Filled on every core from numbers whose keys repeat: each key's first number is kept
    /// and found, and the positions of its repeats are returned in order.
    @Test func aFillKeepsEachKeysFirstNumberAndNamesTheRepeats() {
        let count = HashSlots.piecewiseMinimum * 2 + 17
        let keys = (0..<count).map { UInt32($0 % 7 == 3 ? $0 - 1 : $0) }
        let numbers = (0..<count).map { UInt32($0) }
        let hashes = keys.map { Self.hash($0) }
        var table = HashSlots()
        let repeats = table.fill(numbers, hashes: hashes) { keys[Int($0)] == keys[Int($1)] }
        #expect(repeats == (0..<count).filter { $0 % 7 == 3 })
        #expect(table.count == count - repeats.count)
        for position in stride(from: 0, to: count, by: 97) {
            let key = keys[position]
            let found = table.find(Self.hash(key)) { keys[Int($0)] == key }
            #expect(found == (position % 7 == 3 ? UInt32(position - 1) : UInt32(position)))
        }
    }
}
