import CFontconfig

/// Finds font files by family and style through fontconfig.
enum FontLocator {
    /// Where fontconfig finds a font.
    struct Located: Sendable, Hashable {
        var path: String
        var index: Int
        /// The family of the face found, which may differ from the one asked for.
        var family: String
    }

    /// The face fontconfig picks for `family` in `style` ("Regular", "Bold", …). fontconfig
    /// always picks something; a face of another family counts as not found.
    static func locate(family: String, style: String) throws(FontError) -> Located {
        guard let pattern = FcPatternCreate() else { throw FontError("fontconfig cannot be used.") }
        defer { FcPatternDestroy(pattern) }
        _ = add(pattern, FC_FAMILY, family)
        _ = add(pattern, FC_STYLE, style)
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
        return Located(path: path, index: Int(index), family: found)
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
