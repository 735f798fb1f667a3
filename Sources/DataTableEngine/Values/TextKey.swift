/// Case-insensitive text order, byte-based so that it is fast and total.
///
/// Text is folded to lower case (ASCII directly, anything else through `lowercased()`) and the
/// folded UTF-8 bytes are compared; equal folds are ordered by their original bytes. UTF-8 byte
/// order is Unicode scalar order, so the result does not depend on the locale.
enum TextKey {
    /// `text` in lower case; returns `text` itself when it has no upper-case ASCII and nothing
    /// else that lowercasing could change.
    static func folded(_ text: String) -> String {
        guard foldsAsASCII(text.utf8) else { return text.lowercased() }
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Appends the bytes of ``folded(_:)`` of `text` to `bytes`, with no string made for text
    /// that folds as ASCII.
    static func appendFolded(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        guard text.withUTF8({ foldsAsASCII($0) }) else {
            bytes.append(contentsOf: text.lowercased().utf8)
            return
        }
        // Copied whole, then its capitals lowered where they now lie.
        let start = bytes.count
        text.withUTF8 { bytes.append(contentsOf: $0) }
        bytes.withUnsafeMutableBufferPointer { bytes in
            for index in start..<bytes.count where bytes[index] &- 0x41 < 26 { bytes[index] |= 0x20 }
        }
    }

    /// Whether lowercasing the text whose UTF-8 is `bytes` can change only its ASCII letters:
    /// every other character is of a script without case (U+3000 to U+9FFF: kana, CJK
    /// ideographs and their symbols), told apart by its lead byte (E3 to E9) without decoding.
    /// (`String.lowercased()` is a Unicode table lookup a character.)
    @inline(__always)
    static func foldsAsASCII(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes where byte >= 0xC0 && (byte < 0xE3 || byte > 0xE9) { return false }
        return true
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
        if foldsAsASCII(text.utf8) {
            take(text.utf8.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
        } else {
            take(text.lowercased().utf8)
        }
        return key << (8 * UInt64(7 - taken))
    }

    /// Negative, zero or positive as `left` sorts before, with or after `right`.
    static func compare(_ left: String, _ right: String) -> Int {
        // ASCII is folded byte by byte as it is compared, with nothing allocated; other text is
        // folded whole first.
        let lent = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in compareFoldedASCII(leftBytes, rightBytes) }
        }
        if let lent, let result = lent, let result { return result }
        let byFold = compareBytes(folded(left), folded(right))
        return byFold != 0 ? byFold : compareBytes(left, right)
    }

    /// ``compare(_:_:)`` of two texts' bytes, folding ASCII as it goes; `nil` when the order
    /// depends on folding other characters (then the texts are folded whole).
    @inline(__always)
    static func compareFoldedASCII(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int? {
        let common = min(left.count, right.count)
        var index = 0
        var exact = 0
        while index < common {
            let a = left[index]
            let b = right[index]
            if a >= 0x80 || b >= 0x80 {
                // Both at the start of a character: ASCII folds below any character that does
                // not fold to ASCII, and only U+0130 and U+212A (lead bytes C4 and E2) do.
                if a >= 0x80 && b >= 0x80 { return nil }
                let other = a >= 0x80 ? a : b
                if other == 0xC4 || other == 0xE2 { return nil }
                return a < 0x80 ? -1 : 1
            }
            if a != b {
                let foldedA = a >= 0x41 && a <= 0x5A ? a | 0x20 : a
                let foldedB = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
                if foldedA != foldedB { return foldedA < foldedB ? -1 : 1 }
                if exact == 0 { exact = a < b ? -1 : 1 }
            }
            index += 1
        }
        // A text that is a folded prefix of the other comes first, unless what follows it could
        // fold to nothing (no character does).
        if left.count != right.count { return left.count < right.count ? -1 : 1 }
        return exact
    }

    /// Lexicographic order of the UTF-8 bytes; a prefix sorts first.
    static func compareBytes(_ left: String, _ right: String) -> Int {
        // Native strings (inline ones too) lend their bytes: compared where they lie.
        let lent = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in compare(leftBytes, rightBytes) }
        }
        if let lent, let result = lent { return result }
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

    /// Lexicographic order of two runs of bytes; a prefix sorts first.
    @inline(__always)
    static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(left.count, right.count)
        var index = 0
        while index < common {
            let a = left[index]
            let b = right[index]
            if a != b { return a < b ? -1 : 1 }
            index += 1
        }
        return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
    }
}
