/// How many terminal cells text takes, by the rule of Python's `wcwidth` (0.7), which follows
/// what terminals draw:
///
/// - Each code point on its own: East Asian Wide and Fullwidth characters 2; marks, format
///   characters (but the soft hyphen) and Hangul's medial and final jamo 0; anything else 1.
/// - Indic scripts: the first spacing vowel sign after a letter takes a cell of its own; a
///   consonant joined to the one before by a virama (a conjunct) takes one cell, given once
///   the conjunct ends, unless a spacing vowel sign follows it and takes the cell. So `नमस्ते`,
///   `हिन्दी` and `বাংলা` are 4, `क्षत्रिय` 5.
/// - Emoji: a ZWJ sequence is as wide as its first emoji (a family is 2), a pair of regional
///   indicators is one flag (2), a skin tone adds nothing to the emoji before it, and the emoji
///   variation selector makes a narrow emoji character 2 (`❤️`).
public enum DisplayWidth {
    /// Cells taken by `text` on one line.
    public static func cells(_ text: some StringProtocol) -> Int {
        var asciiOnly = true
        for byte in text.utf8 where byte < 0x20 || byte >= 0x7F {
            asciiOnly = false
            break
        }
        if asciiOnly { return text.utf8.count }
        return cells(scalars: Array(text.unicodeScalars))
    }

    /// Cells taken by one grapheme cluster (the rule above, on its code points).
    public static func cells(_ character: Character) -> Int {
        cells(scalars: Array(character.unicodeScalars))
    }

    /// The rule above, over code points in order.
    private static func cells(scalars: [Unicode.Scalar]) -> Int {
        var total = 0
        // The last code point that took cells (`nil` once a mark or selector has used it up).
        var lastMeasured: Unicode.Scalar?
        // The last one that took cells, or the first of a flag's pair, for a skin tone.
        var lastBase: Unicode.Scalar?
        var afterVirama = false
        var conjunctPending = false
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let value = scalar.value
            defer { index += 1 }
            // A zero-width joiner after a virama is part of the conjunct; after anything else
            // it joins the next code point into the picture before it.
            if value == 0x200D {
                if !afterVirama, index + 1 < scalars.count { index += 1 }
                afterVirama = false
                continue
            }
            if value == 0xFE0F, let measured = lastMeasured {
                if cells(measured) == 1 && measured.properties.isEmoji { total += 1 }
                lastMeasured = nil
                continue
            }
            if (0x1F1E6...0x1F1FF).contains(value) {
                var before = 0
                while index - before - 1 >= 0, (0x1F1E6...0x1F1FF).contains(scalars[index - before - 1].value) {
                    before += 1
                }
                if before % 2 == 1 {
                    lastBase = scalar
                    continue
                }
            } else if (0x1F3FB...0x1F3FF).contains(value), lastBase?.properties.isEmojiModifierBase == true {
                continue
            }
            if afterVirama && isConsonant(scalar) {
                lastMeasured = scalar
                lastBase = scalar
                afterVirama = false
                conjunctPending = true
                continue
            }
            let width = cells(scalar)
            if width > 0 {
                if conjunctPending {
                    total += 1
                    conjunctPending = false
                }
                total += width
                lastMeasured = scalar
                lastBase = scalar
                afterVirama = false
            } else if lastMeasured != nil && scalar.properties.generalCategory == .spacingMark {
                total += 1
                lastMeasured = nil
                afterVirama = false
                conjunctPending = false
            } else {
                afterVirama = isVirama(scalar)
            }
        }
        if conjunctPending { total += 1 }
        return total
    }

    /// A virama that joins consonants into a conjunct: a killer of class 9 in the Indic blocks
    /// (Myanmar's asat and Khmer's coeng, also of class 9, stack or kill without joining).
    private static func isVirama(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.properties.canonicalCombiningClass == .virama else { return false }
        switch scalar.value {
        case 0x1000...0x109F, 0x1780...0x17FF: return false
        default: return true
        }
    }

    /// A letter of a Brahmic script (Devanagari to Sinhala, Myanmar, Khmer and their kin), as
    /// the consonants joined by a virama are.
    private static func isConsonant(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.properties.generalCategory == .otherLetter else { return false }
        switch scalar.value {
        case 0x0900...0x0DFF, 0x1000...0x109F, 0x1780...0x17FF, 0x1900...0x1AAF, 0x1B00...0x1C4F, 0xA800...0xA8FF,
            0xA980...0xAAFF, 0x11000...0x11FFF:
            return true
        default: return false
        }
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
        // The soft hyphen is a format character that takes a cell.
        case 0xAD: return false
        default: break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: return true
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
