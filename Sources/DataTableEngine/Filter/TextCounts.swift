/// How many rows hold each different text of a text column, told apart by their UTF-8 bytes
/// (Swift's own string hashing normalises Unicode first, which costs more than the counting):
/// an open-addressing table of the slot first seen with each text.
struct TextCounts {
    /// For each different text, the first slot seen holding it, and how many rows hold it.
    private(set) var slots: [UInt32] = []
    private(set) var counts: [Int] = []
    private var hashes: [UInt64] = []
    /// Indices into ``slots`` plus one; 0 is a free bucket. Its size is a power of two.
    private var buckets: [Int32] = Array(repeating: 0, count: 1024)

    /// Counts the row in `slot`, whose text is `bytes`; `text(of:)` gives another slot's text.
    mutating func add(
        _ slot: UInt32,
        bytes: UnsafeBufferPointer<UInt8>,
        text: (UInt32) -> String
    ) {
        let hash = Self.hash(bytes)
        var bucket = Int(truncatingIfNeeded: hash) & (buckets.count - 1)
        while true {
            let entry = Int(buckets[bucket])
            if entry == 0 { break }
            if hashes[entry - 1] == hash {
                let same = text(slots[entry - 1]).utf8.withContiguousStorageIfAvailable { other in
                    other.count == bytes.count && TextKey.compare(other, bytes) == 0
                }
                if same ?? (Array(text(slots[entry - 1]).utf8) == Array(bytes)) {
                    counts[entry - 1] += 1
                    return
                }
            }
            bucket = (bucket + 1) & (buckets.count - 1)
        }
        slots.append(slot)
        counts.append(1)
        hashes.append(hash)
        buckets[bucket] = Int32(slots.count)
        if slots.count * 2 > buckets.count { grow() }
    }

    private mutating func grow() {
        buckets = Array(repeating: 0, count: buckets.count * 2)
        for (index, hash) in hashes.enumerated() {
            var bucket = Int(truncatingIfNeeded: hash) & (buckets.count - 1)
            while buckets[bucket] != 0 { bucket = (bucket + 1) & (buckets.count - 1) }
            buckets[bucket] = Int32(index + 1)
        }
    }

    /// FNV-1a over the bytes, mixed so that the low bits (the bucket) depend on all of them.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return (hash ^ (hash >> 29)) &* 0xbf58_476d_1ce4_e5b9
    }
}
