/// A stable sort of 64-bit keys that each carry a 32-bit payload: least significant digit first
/// (LSD radix), one pass a digit, each pass a counting scatter.
///
/// Only the bits where some keys differ are sorted on: one read of the keys finds them, and they
/// are cut into as few digits of at most ``widestDigit`` bits as cover them. Whole numbers below
/// 1,024 as doubles (their exponent and top mantissa bits, 20) take two passes, a coded column's
/// places below 2²⁰ two. The counts of each digit take one more read of the keys.
///
/// O(n) a pass where a comparison sort is O(n log n) with a closure call a comparison, and the
/// scatters write to at most 2¹⁰ places at a time.
enum RadixSort {
    /// The most bits a digit takes: up to 2¹⁰ places a scatter writes at a time cost about what 2⁶
    /// do; at 2¹¹ each pass is a third slower.
    static let widestDigit = 10

    /// `keys` and `payloads` (the same count) in key order; equal keys keep the order they came in.
    static func sorted(keys: [UInt64], payloads: [UInt32]) -> (keys: [UInt64], payloads: [UInt32]) {
        precondition(keys.count == payloads.count, "a payload per key")
        let count = keys.count
        guard count > 1 else { return (keys, payloads) }
        // The bits where some key differs from the first run from `low` up to `high`.
        let differing = keys.withUnsafeBufferPointer { keys in
            let first = keys[0]
            var differing: UInt64 = 0
            for key in keys { differing |= key ^ first }
            return differing
        }
        guard differing != 0 else { return (keys, payloads) }
        let low = differing.trailingZeroBitCount
        let span = 64 - differing.leadingZeroBitCount - low
        let digitCount = (span + widestDigit - 1) / widestDigit
        let width = (span + digitCount - 1) / digitCount
        let buckets = 1 << width
        let mask = UInt64(buckets - 1)
        // counts[digit * buckets + value]: how many keys have `value` in digit `digit`; a read
        // of the keys a digit (one loop over all digits compiles to a slower inner loop).
        var counts = [Int](repeating: 0, count: digitCount * buckets)
        counts.withUnsafeMutableBufferPointer { counts in
            keys.withUnsafeBufferPointer { keys in
                for digit in 0..<digitCount {
                    let shift = UInt64(low + digit * width)
                    let digitCounts = UnsafeMutableBufferPointer(
                        rebasing: counts[digit * buckets..<(digit + 1) * buckets]
                    )
                    for key in keys { digitCounts[Int((key >> shift) & mask)] &+= 1 }
                }
            }
        }
        // A digit every key has alike (possible between differing bits) costs no pass.
        let passes = (0..<digitCount).filter { digit in
            !counts[digit * buckets..<(digit + 1) * buckets].contains(count)
        }
        var fromKeys = keys
        var fromPayloads = payloads
        var toKeys = [UInt64](repeating: 0, count: count)
        var toPayloads = [UInt32](repeating: 0, count: count)
        var next = [Int](repeating: 0, count: buckets)
        for digit in passes {
            var start = 0
            for value in 0..<buckets {
                next[value] = start
                start += counts[digit * buckets + value]
            }
            let shift = UInt64(low + digit * width)
            fromKeys.withUnsafeBufferPointer { sourceKeys in
                fromPayloads.withUnsafeBufferPointer { sourcePayloads in
                    toKeys.withUnsafeMutableBufferPointer { targetKeys in
                        toPayloads.withUnsafeMutableBufferPointer { targetPayloads in
                            next.withUnsafeMutableBufferPointer { next in
                                for index in 0..<count {
                                    let key = sourceKeys[index]
                                    let value = Int((key >> shift) & mask)
                                    let place = next[value]
                                    next[value] = place &+ 1
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
