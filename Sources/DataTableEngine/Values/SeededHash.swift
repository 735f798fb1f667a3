/// A fast 64-bit hash of bytes and of whole numbers, for the engine's own hash tables (the
/// load's text codes, the key index).
///
/// Bytes are read eight at a time, each word mixed in by multiplication. The seed is drawn
/// once per process, so that no input can be written to make every value land in one place.
enum SeededHash {
    static let seed = UInt64.random(in: .min ... .max)

    /// The hash of `bytes`.
    static func bytes(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 { self.bytes(bytes, seed: seed) }

    /// The hash of `bytes` under ``seed``, given as `seed`: a loop that hashes many fields
    /// reads the seed once, not through its lazy global for each one.
    @inline(__always)
    static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        let count = bytes.count
        var hash = seed ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { return finish(hash) }
        var offset = 0
        while offset + 8 <= count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        return finish(hash ^ tail(base, from: offset, count: count))
    }

    /// The bytes from `offset` to `count` (fewer than eight) as one little-endian word, read in
    /// at most three loads whatever their number: a word that ends at `count` when there are
    /// eight bytes before it, else two 32-bit words or three single bytes that overlap.
    @inline(__always)
    private static func tail(_ base: UnsafeRawPointer, from offset: Int, count: Int) -> UInt64 {
        let left = count - offset
        if left == 0 { return 0 }
        if count >= 8 {
            return base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) &>> UInt64(64 - 8 * left)
        }
        if left >= 4 {
            let low = UInt64(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let high = UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return low | high &<< UInt64(8 * (left - 4))
        }
        let first = UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
        let middle = UInt64(base.load(fromByteOffset: offset + left / 2, as: UInt8.self))
        let last = UInt64(base.load(fromByteOffset: count - 1, as: UInt8.self))
        return first | middle &<< UInt64(8 * (left / 2)) | last &<< UInt64(8 * (left - 1))
    }

    /// The hash of a whole number (one that no text's hash is meant to equal).
    static func number(_ value: Int64) -> UInt64 {
        finish(seed ^ 0xD6E8_FEB8_6659_FD93 ^ UInt64(bitPattern: value))
    }

    /// Mixes every bit of `hash` into every other.
    private static func finish(_ hash: UInt64) -> UInt64 {
        var hash = hash &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 29
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        return hash ^ (hash >> 32)
    }
}
