import CHarfBuzz
import Synchronization

/// Why a font could not be found or opened.
public struct FontError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, one sentence for a person (naming the file or family when there is one).
    public var message: String
    /// The message.
    public var description: String { message }

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
}

/// One face of a font file, measured by shaping with HarfBuzz. Widths are in the font's design
/// units (``unitsPerEm`` to the em), so one face serves every size.
///
/// Printable ASCII, by far the most common text in a table, takes a fast path: the advance of
/// every character and the kerning of every pair are read once, by shaping them, when the face
/// opens, and a width is their sum. Pairs that do not shape as two glyphs (ligatures) and any
/// other text are shaped in full, and those widths are kept in a bounded cache.
///
/// Text with characters the face lacks is measured in runs, each by the face that has its
/// characters, and the runs (not the whole text) are what the faces cache: a column of
/// `ウィジェット 48271`, `ウィジェット 512`, … shapes the Japanese word once, and its numbers take
/// the ASCII path. The cache holds at most ``cacheLimit`` texts with their widths, about 100
/// bytes each (the text, its width and the dictionary's slot): some 6.5 MB a face at most,
/// emptied and started over when full.
public final class FontFace: TextMeasure, @unchecked Sendable {
    // @unchecked: the HarfBuzz font is set up in init and never changed after, and HarfBuzz
    // documents such fonts as safe to shape with from many threads at once; the cache has its
    // own lock.
    private let font: OpaquePointer
    /// The font file.
    public let path: String
    /// The face within the file (collections hold several).
    public let index: Int
    /// The family fontconfig matched when the face was found by name (the one asked for, up to case);
    /// `nil` when opened by file.
    public let family: String?
    /// fontconfig's style for the face when it was found by name ("Book", "Bold"; a style asked for
    /// that the family lacks gives the nearest, say "Bold" for "Semibold"); `nil` when opened by file.
    public let style: String?
    /// `path#index`: faces of equal identity measure alike.
    public let identity: String
    /// The face's design units per em, as HarfBuzz reads it from the font.
    public let unitsPerEm: Int
    /// Ascender − descender + line gap in design units; 1.2 em when the font gives no extents.
    public let lineHeightUnits: Int

    /// Advances of the printable ASCII characters, by `byte - 0x20`.
    private let advances: [Int32]
    /// Kerning of each printable ASCII pair, by `first * 95 + second`; `Int32.min` when the pair
    /// must be shaped with its neighbours (it does not come out as two glyphs).
    private let kerning: [Int32]
    private let cache = Mutex<[String: Int]>([:])
    /// Faces for the characters this one lacks; `nil` for a fallback face itself (one level).
    private let fallback: FontFallback?

    /// The faces characters this face lacks were measured with so far (for a layout to name).
    public var fallbacksUsed: [FontFace] { fallback?.used ?? [] }

    /// How many shaped widths are kept before the cache starts over.
    static let cacheLimit = 65_536

    /// Opens face `index` of the font file at `path`.
    public convenience init(path: String, index: Int = 0, family: String? = nil, style: String? = nil) throws(FontError)
    {
        try self.init(path: path, index: index, family: family, style: style, fallingBack: true)
    }

    /// Opens face `index` of `path`; with `fallingBack`, characters it lacks are measured with
    /// the faces fontconfig finds for them (``FontFallback``).
    init(path: String, index: Int, family: String?, style: String?, fallingBack: Bool) throws(FontError) {
        guard index >= 0, index <= Int(UInt16.max) else {
            throw FontError(
                "The face index must be from 0 to \(UInt16.max) (a collection's faces are numbered from 0)."
            )
        }
        let bytes = try FontFile.read(path)
        guard !bytes.isEmpty else { throw FontError("\(path) is empty, not a font file.") }
        let blob = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                hb_blob_create($0, UInt32(buffer.count), HB_MEMORY_MODE_DUPLICATE, nil, nil)
            }
        }
        defer { hb_blob_destroy(blob) }
        let face = hb_face_create(blob, UInt32(index))
        defer { hb_face_destroy(face) }
        guard hb_face_get_glyph_count(face) > 0 else {
            throw FontError("\(path) is not a font file HarfBuzz can read (or has no face \(index)).")
        }
        guard let font = hb_font_create(face) else { throw FontError("HarfBuzz cannot open \(path).") }
        self.font = font
        fallback = fallingBack ? FontFallback() : nil
        self.path = path
        self.index = index
        self.family = family
        self.style = style
        identity = "\(path)#\(index)"
        let upem = Int(hb_face_get_upem(face))
        unitsPerEm = upem
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        var extents = hb_font_extents_t()
        if hb_font_get_h_extents(font, &extents) != 0 {
            lineHeightUnits = Int(extents.ascender - extents.descender + extents.line_gap)
        } else {
            lineHeightUnits = upem * 6 / 5
        }
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let printable = (0x20...0x7E).map { UInt8($0) }
        var advances: [Int32] = []
        for byte in printable {
            advances.append(Int32(clamping: Self.shape([byte], font: font, buffer: buffer).advance))
        }
        var kerning = [Int32](repeating: 0, count: 95 * 95)
        for first in printable {
            for second in printable {
                let shaped = Self.shape([first, second], font: font, buffer: buffer)
                let pair = Int(first - 0x20) * 95 + Int(second - 0x20)
                let kern = shaped.advance - Int(advances[Int(first - 0x20)]) - Int(advances[Int(second - 0x20)])
                // `.min` marks a pair that does not shape as two glyphs (or kerns past 32 bits).
                kerning[pair] =
                    shaped.glyphs == 2 && kern > Int(Int32.min) && kern <= Int(Int32.max) ? Int32(kern) : .min
            }
        }
        self.advances = advances
        self.kerning = kerning
    }

    deinit { hb_font_destroy(font) }

    /// Width of `text` shaped on one line, in design units (the ASCII fast path, else shaped and cached).
    public func units(_ text: String) -> Int {
        let text = OneLine.text(text)
        if let units = asciiUnits(text) { return units }
        if let units = cache.withLock({ $0[text] }) { return units }
        // Text measured in runs is not kept whole: its runs are (see withFallback).
        if let units = withFallback(text) { return units }
        let units = shapedUnits(text)
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[text] = units
        }
        return units
    }

    /// The width of `text` shaped in full, without the fast path or the cache.
    public func shapedUnits(_ text: String) -> Int {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        return Int(Self.shape(Array(text.utf8), font: font, buffer: buffer).advance)
    }

    /// Whether the face has a glyph for `scalar`.
    func has(_ scalar: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0
    }

    /// The width of `text` when some of its characters are measured with fallback faces: runs
    /// of characters go to the face that has them (a combining mark, joiner or variation
    /// selector stays with the character before it), each run shaped by its face and scaled to
    /// this face's units per em. `nil` when this face has every character (or no face has
    /// those it lacks): shape it whole then.
    private func withFallback(_ text: String) -> Int? {
        guard let fallback else { return nil }
        var runs: [(face: FontFace?, text: String)] = []
        var fellBack = false
        for scalar in text.unicodeScalars {
            let joins =
                scalar.value >= 0x80
                && (scalar.properties.isGraphemeExtend || scalar.properties.isVariationSelector
                    || scalar.value == 0x200D)
            var face: FontFace?
            if joins, let last = runs.last {
                face = last.face
            } else if !(0x20...0x7E).contains(scalar.value) || advances.isEmpty, !has(scalar.value),
                let other = fallback.face(for: scalar.value)
            {
                face = other
                fellBack = true
            }
            if let last = runs.last, last.face === face {
                runs[runs.count - 1].text.unicodeScalars.append(scalar)
            } else {
                runs.append((face, String(scalar)))
            }
        }
        guard fellBack else { return nil }
        // Each run through its face's fast path and cache: the runs of a column's values repeat
        // (a CJK word and an ASCII number after it), so a run is shaped once, not each value.
        var total = 0.0
        for run in runs {
            if let face = run.face {
                total += Double(face.units(run.text)) * Double(unitsPerEm) / Double(face.unitsPerEm)
            } else {
                total += Double(units(run.text))
            }
        }
        return Int(total.rounded(.up))
    }

    /// The sum of the nominal advances of `text`'s characters, read from the font's metrics
    /// without shaping (no kerning, no ligatures); `nil` when a character has no glyph.
    public func nominalUnits(_ text: String) -> Int? {
        var total = 0
        for scalar in text.unicodeScalars {
            var glyph: hb_codepoint_t = 0
            guard hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 else { return nil }
            total += Int(hb_font_get_glyph_h_advance(font, glyph))
        }
        return total
    }

    /// The fast path: printable ASCII whose every pair shapes as two glyphs.
    private func asciiUnits(_ text: String) -> Int? {
        // 64 bits: a cell of a few million characters passes 32.
        var total = 0
        var previous: Int?
        for byte in text.utf8 {
            guard byte >= 0x20 && byte <= 0x7E else { return nil }
            let current = Int(byte - 0x20)
            if let previous {
                let kern = kerning[previous * 95 + current]
                if kern == .min { return nil }
                total += Int(kern)
            }
            total += Int(advances[current])
            previous = current
        }
        return total
    }

    private static func shape(_ utf8: [UInt8], font: OpaquePointer, buffer: OpaquePointer?) -> (
        advance: Int, glyphs: Int
    ) {
        hb_buffer_clear_contents(buffer)
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                let count = Int32(clamping: chars.count)
                hb_buffer_add_utf8(buffer, chars.baseAddress, count, 0, count)
            }
        }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return (0, 0) }
        var advance = 0
        for position in UnsafeBufferPointer(start: positions, count: Int(count)) { advance += Int(position.x_advance) }
        return (advance, Int(count))
    }
}
