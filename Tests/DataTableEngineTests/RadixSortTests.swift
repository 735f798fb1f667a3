import TestSupport
import Testing

@testable import DataTableEngine

@Suite struct RadixSortTests {
    /// Keys drawn so that some bits are alike in every key (digits not sorted on), some vary,
    /// some digits between varying bits are alike (passes skipped), and many keys repeat: the
    /// result is a stable sort's, payload for payload.
    @Test(arguments: [UInt64(1), 7, 99])
    func ordersAsAStableSort(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        for shape in 0..<5 {
            let count = Int.random(in: 0..<5000, using: &random)
            let keys = (0..<count).map { _ -> UInt64 in
                let small = UInt64.random(in: 0..<300, using: &random)
                switch shape {
                case 0: return small
                case 1: return small << 40 | 0xAB
                case 2: return UInt64.random(in: 0...UInt64.max, using: &random) | (small << 56)
                case 3: return [0, .max, 1 << 63][Int(small % 3)]
                default: return (small & 7) | (small >> 3) << 59
                }
            }
            let payloads = (0..<UInt32(count)).map { $0 * 7 + 3 }
            let sorted = RadixSort.sorted(keys: keys, payloads: payloads)
            let expected = zip(keys, payloads).enumerated()
                .sorted { $0.element.0 != $1.element.0 ? $0.element.0 < $1.element.0 : $0.offset < $1.offset }
            #expect(sorted.keys == expected.map(\.element.0))
            #expect(sorted.payloads == expected.map(\.element.1))
        }
    }
}
