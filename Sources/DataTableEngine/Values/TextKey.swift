/// Case-insensitive text order, byte-based so that it is fast and total.
///
/// Text is folded to lower case (ASCII directly, anything else through `lowercased()`) and the
/// folded UTF-8 bytes are compared; equal folds are ordered by their original bytes. UTF-8 byte
/// order is Unicode scalar order, so the result does not depend on the locale.
enum TextKey {
    /// `text` in lower case; returns `text` itself when it has no upper-case ASCII and no
    /// non-ASCII bytes.
    static func folded(_ text: String) -> String {
        var needsWork = false
        for byte in text.utf8 {
            if byte >= 0x80 { return text.lowercased() }
            if byte >= 0x41 && byte <= 0x5A { needsWork = true }
        }
        guard needsWork else { return text }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// 0 for empty text; otherwise a marker byte then the first seven folded bytes, so that keys
    /// order like ``compare(_:_:)`` wherever they differ.
    static func prefix(_ text: String) -> UInt64 {
        if text.isEmpty { return 0 }
        var key: UInt64 = 1
        var taken = 0
        func take(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                key = key << 8 | UInt64(byte)
                taken += 1
                if taken == 7 { return }
            }
        }
        if text.utf8.contains(where: { $0 >= 0x80 }) {
            take(text.lowercased().utf8)
        } else {
            take(text.utf8.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
        }
        return key << (8 * UInt64(7 - taken))
    }

    /// Negative, zero or positive as `left` sorts before, with or after `right`.
    static func compare(_ left: String, _ right: String) -> Int {
        let byFold = compareBytes(folded(left), folded(right))
        return byFold != 0 ? byFold : compareBytes(left, right)
    }

    /// Lexicographic order of the UTF-8 bytes; a prefix sorts first.
    static func compareBytes(_ left: String, _ right: String) -> Int {
        var leftBytes = left.utf8.makeIterator()
        var rightBytes = right.utf8.makeIterator()
        while true {
            switch (leftBytes.next(), rightBytes.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let a?, let b?): if a != b { return a < b ? -1 : 1 }
            }
        }
    }
}
