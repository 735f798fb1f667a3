/// UTF-8 that quoted forms (a JSON string, a terminal line) carry as it is: no control
/// character, no quote, no backslash.
///
/// Checked eight bytes at a time, since most text is plain and the check runs on every cell
/// shown and every byte of an export.
public enum PlainBytes {
    /// Whether any of the eight bytes in `word` is below 0x20, a quote or a backslash (exact:
    /// the usual bit tricks for "has a zero byte" and "has a byte below n").
    @inlinable @inline(__always)
    public static func mayHoldSpecial(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below20 = (word &- ones &* 0x20) & ~word & highs != 0
        return below20 || zeroBytes(in: word ^ (ones &* 0x22)) != 0 || zeroBytes(in: word ^ (ones &* 0x5C)) != 0
    }

    /// The high bit of each zero byte of `word` set, and perhaps of bytes above a zero byte
    /// that are 0x01 (a borrow passes through them): non-zero exactly when a byte is zero, and
    /// the lowest bit set is always a zero byte's. XORed first with a byte repeated, a word
    /// shows where that byte is.
    @inlinable @inline(__always)
    public static func zeroBytes(in word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// Whether `byte` is plain.
    @inlinable @inline(__always)
    public static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != 0x22 && byte != 0x5C
    }

    /// Whether every byte of `bytes` is plain.
    @inlinable
    public static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        var index = 0
        while bytes.count - index >= 8 {
            if mayHoldSpecial(UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)) { return false }
            index += 8
        }
        while index < bytes.count {
            if !isPlain(bytes[index]) { return false }
            index += 1
        }
        return true
    }
}
