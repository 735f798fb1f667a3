import CFontconfig

/// Finds font files by family and style through fontconfig.
enum FontLocator {
    /// Where fontconfig finds a font.
    struct Located: Sendable, Hashable {
        var path: String
        var index: Int
        /// The family of the face found, which may differ from the one asked for.
        var family: String
        /// The style of the face found ("Book", "Bold"), which may differ from the one asked for.
        var style: String
    }

    /// fontconfig weights by the words styles use for them.
    static let weights: [String: Int32] = [
        "thin": 0, "extralight": 40, "ultralight": 40, "light": 50, "book": 75, "regular": 80, "normal": 80,
        "medium": 100, "semibold": 180, "demibold": 180, "bold": 200, "extrabold": 205, "ultrabold": 205,
        "black": 210, "heavy": 210,
    ]

    /// The face fontconfig picks for `family` in `style`. A style made of weight and slant
    /// words ("Regular", "Semibold", "Bold Italic") is matched by weight and slant, so the
    /// nearest weight wins (a family without a semibold face gives its bold one); any other
    /// style is matched by name. fontconfig always picks something; a face of another family
    /// counts as not found.
    static func locate(family: String, style: String) throws(FontError) -> Located {
        guard let pattern = FcPatternCreate() else { throw FontError("fontconfig cannot be used.") }
        defer { FcPatternDestroy(pattern) }
        _ = add(pattern, FC_FAMILY, family)
        let words = style.lowercased().split(separator: " ").map(String.init)
        let slants: [String: Int32] = ["italic": FC_SLANT_ITALIC, "oblique": FC_SLANT_OBLIQUE]
        if !words.isEmpty, words.allSatisfy({ weights[$0] != nil || slants[$0] != nil }) {
            _ = FcPatternAddInteger(pattern, FC_WEIGHT, words.compactMap { weights[$0] }.last ?? 80)
            _ = FcPatternAddInteger(pattern, FC_SLANT, words.compactMap { slants[$0] }.last ?? FC_SLANT_ROMAN)
        } else {
            _ = add(pattern, FC_STYLE, style)
        }
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, pattern, &result) else {
            throw FontError("No font is installed (fontconfig found none for \(family)).")
        }
        defer { FcPatternDestroy(match) }
        guard let path = string(match, FC_FILE) else { throw FontError("fontconfig found no file for \(family).") }
        let found = string(match, FC_FAMILY) ?? ""
        guard found.lowercased() == family.lowercased() else {
            throw FontError("No font of the family \(family) is installed (the closest is \(found)).")
        }
        var index: Int32 = 0
        _ = FcPatternGetInteger(match, FC_INDEX, 0, &index)
        return Located(path: path, index: Int(index), family: found, style: string(match, FC_STYLE) ?? style)
    }

    /// The faces fontconfig would draw `scalar` with, best first, when its usual fonts lack it:
    /// each one's charset holds the character. Empty when no installed font has it.
    static func covering(_ scalar: UInt32) -> [Located] {
        guard let pattern = FcPatternCreate(), let charset = FcCharSetCreate() else { return [] }
        defer {
            FcPatternDestroy(pattern)
            FcCharSetDestroy(charset)
        }
        _ = FcCharSetAddChar(charset, scalar)
        _ = FcPatternAddCharSet(pattern, FC_CHARSET, charset)
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let sorted = FcFontSort(nil, pattern, 1, nil, &result) else { return [] }
        defer { FcFontSetDestroy(sorted) }
        var found: [Located] = []
        for position in 0..<Int(sorted.pointee.nfont) {
            guard let font = sorted.pointee.fonts[position] else { continue }
            var fontCharset: OpaquePointer?
            guard FcPatternGetCharSet(font, FC_CHARSET, 0, &fontCharset) == FcResultMatch,
                FcCharSetHasChar(fontCharset, scalar) != 0, let path = string(font, FC_FILE)
            else { continue }
            var index: Int32 = 0
            _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
            found.append(
                Located(
                    path: path,
                    index: Int(index),
                    family: string(font, FC_FAMILY) ?? "",
                    style: string(font, FC_STYLE) ?? ""
                )
            )
            if found.count == 4 { break }
        }
        return found
    }

    private static func add(_ pattern: OpaquePointer, _ object: String, _ value: String) -> Bool {
        let bytes = Array(value.utf8) + [0]
        return bytes.withUnsafeBufferPointer { FcPatternAddString(pattern, object, $0.baseAddress) != 0 }
    }

    private static func string(_ pattern: OpaquePointer, _ object: String) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, 0, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }
}
