/// A stable sort of 64-bit keys that each carry a 32-bit payload: least significant byte first
/// (LSD radix), one pass a byte, each pass a counting scatter. The counts of all eight bytes are
/// taken in one read of the keys, and a byte that every key has alike costs no pass: keys below
/// 2¹⁷ (a coded column's places) take three passes, small whole numbers as doubles about four.
///
/// O(n) a pass where a comparison sort is O(n log n) with a closure call a comparison, and the
/// scatters read and write memory in runs the cache keeps up with.
enum RadixSort {
    /// `keys` and `payloads` (the same count) in key order; equal keys keep the order they came in.
    static func sorted(keys: [UInt64], payloads: [UInt32]) -> (keys: [UInt64], payloads: [UInt32]) {
        precondition(keys.count == payloads.count, "a payload per key")
        let count = keys.count
        guard count > 1 else { return (keys, payloads) }
        // counts[byte * 256 + digit]: how many keys have `digit` in byte `byte`.
        var counts = [Int](repeating: 0, count: 8 * 256)
        counts.withUnsafeMutableBufferPointer { counts in
            keys.withUnsafeBufferPointer { keys in
                for key in keys {
                    var rest = key
                    for byte in 0..<8 {
                        counts[byte &* 256 &+ Int(rest & 0xFF)] &+= 1
                        rest >>= 8
                    }
                }
            }
        }
        let passes = (0..<8).filter { byte in !counts[byte * 256..<(byte + 1) * 256].contains(count) }
        guard !passes.isEmpty else { return (keys, payloads) }
        var fromKeys = keys
        var fromPayloads = payloads
        var toKeys = [UInt64](repeating: 0, count: count)
        var toPayloads = [UInt32](repeating: 0, count: count)
        var next = [Int](repeating: 0, count: 256)
        for byte in passes {
            var start = 0
            for digit in 0..<256 {
                next[digit] = start
                start += counts[byte * 256 + digit]
            }
            let shift = UInt64(byte * 8)
            fromKeys.withUnsafeBufferPointer { sourceKeys in
                fromPayloads.withUnsafeBufferPointer { sourcePayloads in
                    toKeys.withUnsafeMutableBufferPointer { targetKeys in
                        toPayloads.withUnsafeMutableBufferPointer { targetPayloads in
                            next.withUnsafeMutableBufferPointer { next in
                                for index in 0..<count {
                                    let key = sourceKeys[index]
                                    let digit = Int((key >> shift) & 0xFF)
                                    let place = next[digit]
                                    next[digit] = place &+ 1
                                    targetKeys[place] = key
                                    targetPayloads[place] = sourcePayloads[index]
                                }
                            }
                        }
                    }
                }
            }
            swap(&fromKeys, &toKeys)
            swap(&fromPayloads, &toPayloads)
        }
        return (fromKeys, fromPayloads)
    }
}
