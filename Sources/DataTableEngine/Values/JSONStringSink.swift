/// Where JSON strings are written: a reply's buffer (``GrowingBytes``) or an export's bytes.
///
/// Every JSON string the daemon writes itself is escaped by ``appendJSONString(utf8:)``, as
/// `JSONSerialization` writes it with `.withoutEscapingSlashes` (so text already exported, and
/// replies compared with `JSONEncoder`'s, read the same): `"` and `\` after a backslash;
/// backspace, form feed, line feed, carriage return and tab as `\b` `\f` `\n` `\r` `\t`; other
/// controls below U+0020 as `\u00XX` in lower-case hex; everything else (`/`, DEL, U+2028, all
/// non-ASCII) as it is.
public protocol JSONStringSink: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Room for `extra` more bytes, if the sink can make it ahead.
    mutating func reserve(_ extra: Int)
}

extension JSONStringSink where Self: ~Copyable {
    /// A JSON string from its UTF-8 bytes (valid UTF-8, as a Swift string's are), in quotes.
    @inlinable
    public mutating func appendJSONString(utf8: UnsafeBufferPointer<UInt8>) {
        // The common string needs no escape: its bytes go in with one copy, while they are
        // checked.
        reserve(utf8.count + 2)
        append(UInt8(ascii: "\""))
        appendJSONStringContents(utf8: utf8)
        append(UInt8(ascii: "\""))
    }

    /// The escaped bytes of a string, without its quotes. Eight bytes are checked at a time
    /// where there are eight (an export's text is tens of megabytes); the runs between escapes
    /// are copied whole.
    @inlinable
    public mutating func appendJSONStringContents(utf8: UnsafeBufferPointer<UInt8>) {
        guard let bytes = utf8.baseAddress else { return }
        var start = 0
        var index = 0
        while index < utf8.count {
            if utf8.count - index >= 8,
                !PlainBytes.mayHoldSpecial(UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
            }
            let byte = utf8[index]
            if !PlainBytes.isPlain(byte) {
                if index > start { append(UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                appendJSONEscape(byte)
                start = index + 1
            }
            index += 1
        }
        if utf8.count > start { append(UnsafeBufferPointer(rebasing: utf8[start...])) }
    }

    @inlinable
    mutating func appendJSONEscape(_ byte: UInt8) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22, 0x5C: append(byte)
        case 0x08: append(UInt8(ascii: "b"))
        case 0x0C: append(UInt8(ascii: "f"))
        case 0x0A: append(UInt8(ascii: "n"))
        case 0x0D: append(UInt8(ascii: "r"))
        case 0x09: append(UInt8(ascii: "t"))
        default:
            append(UInt8(ascii: "u"))
            append(UInt8(ascii: "0"))
            append(UInt8(ascii: "0"))
            append(Self.hexDigit(byte >> 4))
            append(Self.hexDigit(byte & 0xF))
        }
    }

    @inlinable @inline(__always)
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
