/// A fast 64-bit hash of bytes and of whole numbers, for the engine's own hash tables (the
/// load's text codes, the key index).
///
/// Bytes are read eight at a time, each word mixed in by multiplication. The seed is drawn
/// once per process, so that no input can be written to make every value land in one place.
enum SeededHash {
    static let seed = UInt64.random(in: .min ... .max)

    /// The hash of `bytes`.
    static func bytes(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        var hash = seed ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { return finish(hash) }
        var offset = 0
        while offset + 8 <= count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        return finish(hash ^ tail)
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
