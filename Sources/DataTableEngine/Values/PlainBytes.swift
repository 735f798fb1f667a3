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
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let below20 = (word &- ones &* 0x20) & ~word & highs != 0
        return below20 || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
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
