/// How many terminal cells text takes: East Asian Wide and Fullwidth characters and emoji shown
/// as emoji take 2, combining marks and other zero-width characters 0, everything else 1.
/// A grapheme cluster (a base character with its marks, an emoji sequence, a Hangul syllable
/// spelled in jamo) is counted once.
public enum DisplayWidth {
    /// Cells taken by `text` on one line.
    public static func cells(_ text: some StringProtocol) -> Int {
        var total = 0
        var asciiOnly = true
        for byte in text.utf8 where byte < 0x20 || byte >= 0x7F {
            asciiOnly = false
            break
        }
        if asciiOnly { return text.utf8.count }
        for character in text { total += cells(character) }
        return total
    }

    /// Cells taken by one grapheme cluster: 0, 1 or 2.
    public static func cells(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var width = 0
        for scalar in scalars {
            // An emoji variation selector asks for emoji presentation: two cells.
            if scalar.value == 0xFE0F { return 2 }
            if width == 0 { width = cells(scalar) }
        }
        return width
    }

    /// Cells taken by one code point on its own.
    public static func cells(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return 1 }
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return 0 }
        if isZeroWidth(scalar) { return 0 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        // Hangul medial vowels and final consonants join the syllable before them.
        case 0x1160...0x11FF, 0xD7B0...0xD7FF: return true
        // Zero width space, joiners, marks.
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFEFF: return true
        default: break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    private static func isWide(_ value: UInt32) -> Bool {
        let ranges = wideRanges
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < ranges.count && ranges[low].contains(value)
    }
}
