import Foundation
import Testing

@testable import TextMeasure

@Suite struct FontFaceTests {
    static let library = FontLibrary()

    static func dejaVu(_ style: String = "Regular") throws -> FontFace {
        try library.face(family: "DejaVu Sans", style: style)
    }

    @Test func fontconfigFindsDejaVuSansByFamilyAndStyle() throws {
        let regular = try Self.dejaVu()
        let bold = try Self.dejaVu("Bold")
        #expect(regular.path.hasSuffix("DejaVuSans.ttf"))
        #expect(bold.path.hasSuffix("DejaVuSans-Bold.ttf"))
        #expect(try Self.library.face(family: "dejavu sans", style: "book") === regular)
        // No semibold face: the nearest weight is bold.
        #expect(try Self.library.face(family: "DejaVu Sans", style: "Semibold") === bold)
        #expect(
            try Self.library.face(family: "DejaVu Sans", style: "Bold Oblique").path.hasSuffix(
                "DejaVuSans-BoldOblique.ttf"
            )
        )
    }

    /// A face reports the family and style fontconfig gives it, whichever request (by file, or
    /// by another style of the same file) opened the file first.
    @Test func aFaceReportsItsOwnFamilyAndStyleWhoeverOpenedItFirst() throws {
        let library = FontLibrary()
        let located = try FontLocator.locate(family: "DejaVu Sans", style: "Bold")
        let byFile = try library.face(path: located.path, index: located.index)
        #expect(byFile.family == nil && byFile.style == nil)
        let bold = try library.face(family: "DejaVu Sans", style: "Bold")
        #expect(bold.family == "DejaVu Sans" && bold.style == "Bold")
        let semibold = try library.face(family: "DejaVu Sans", style: "Semibold")
        #expect(semibold.style == "Bold")
        #expect(try library.face(path: located.path, index: located.index) === byFile)
    }

    /// Whether a font with Japanese is installed (`scripts/install-dependencies` installs VL
    /// Gothic); in CI the test runs regardless, and fails without one.
    static let hasJapaneseFont =
        ProcessInfo.processInfo.environment["CI"] == "true" || !FontLocator.covering(0x65E5).isEmpty

    /// Characters DejaVu Sans lacks are measured with a font fontconfig finds for them, not as
    /// DejaVu's "missing glyph" boxes (which made "日本語テキスト" 64 points at 15): seven
    /// full-width characters are about seven em, and the face names the font it fell back to.
    @Test(.enabled(if: hasJapaneseFont, "no font with Japanese is installed (apt install fonts-vlgothic)"))
    func charactersTheFontLacksAreMeasuredWithAFallback() throws {
        let face = try FontLibrary().face(family: "DejaVu Sans", style: "Regular")
        let width = TextStyle(measure: face, size: 15).width("日本語テキスト")
        #expect(width > 90 && width < 115, "\(width)")
        let fallback = try #require(face.fallbacksUsed.first)
        #expect(fallback.has(0x65E5))
        #expect(!face.has(0x65E5))
        // Latin around it is still DejaVu's: the mixed text is the sum of its parts.
        let mixed = TextStyle(measure: face, size: 15).width("Box 日本")
        let parts = TextStyle(measure: face, size: 15).width("Box ") + TextStyle(measure: face, size: 15).width("日本")
        #expect(abs(mixed - parts) < 1, "\(mixed) vs \(parts)")
    }

    @Test func aFamilyThatIsNotInstalledIsAnError() {
        #expect(throws: FontError.self) { try Self.library.face(family: "No Such Family 42", style: "Regular") }
        #expect(throws: FontError.self) { try Self.library.face(path: "/nonexistent/font.ttf") }
        #expect(throws: FontError.self) { try Self.library.face(path: "/etc/hostname") }
    }

    /// Digits carry no kerning, so shaping them gives the sum of the advances the font's
    /// metrics hold for each digit's glyph.
    @Test func aShapedWidthIsTheSumOfTheFontsAdvances() throws {
        let face = try Self.dejaVu()
        let digits = "0123456789"
        let nominal = try #require(face.nominalUnits(digits))
        #expect(face.shapedUnits(digits) == nominal)
        #expect(face.units(digits) == nominal)
        // DejaVu Sans draws every digit 1303 units wide on a 2048-unit em: at 15 pt,
        // ten digits are 10 × 1303 × 15 ÷ 2048 = 95.43 pt.
        let style = TextStyle(measure: face, size: 15)
        #expect(face.unitsPerEm == 2048)
        #expect(abs(style.width(digits) - 95.43) < 0.01)
        #expect(style.wholeWidth(units: nominal) == 96)
    }

    @Test func kernedPairsAreNarrowerThanTheirAdvances() throws {
        let face = try Self.dejaVu()
        let nominal = try #require(face.nominalUnits("AV"))
        #expect(face.shapedUnits("AV") < nominal)
        #expect(face.units("AV") == face.shapedUnits("AV"))
    }

    @Test(arguments: [
        "Stock Summary", "AVATAR Tower", "Wolf & Yacht", "fi fl ffi", "Price ($)", "2024-06-24",
        "1h 30m", "The quick brown fox jumps over the lazy dog.", "a", "", "  spaced  ",
    ])
    func theASCIIFastPathMeasuresLikeShaping(text: String) throws {
        let face = try Self.dejaVu()
        #expect(face.units(text) == face.shapedUnits(text))
        #expect(try Self.dejaVu("Bold").units(text) == Self.dejaVu("Bold").shapedUnits(text))
    }

    @Test func textBeyondASCIIIsShaped() throws {
        let face = try Self.dejaVu()
        for text in ["Größe", "Café ☕", "Ελληνικά", "Ünïcödé"] {
            #expect(face.units(text) == face.shapedUnits(text))
            #expect(face.units(text) > 0)
        }
    }

    @Test func lineHeightComesFromTheFontsMetrics() throws {
        // DejaVu Sans: ascender 1901, descender −483, no line gap: 2384 units, 17.46 pt at 15 pt.
        let face = try Self.dejaVu()
        #expect(face.lineHeightUnits == 2384)
        #expect(TextStyle(measure: face, size: 15).lineHeight == 18)
        #expect(TextStyle(measure: try Self.dejaVu("Bold"), size: 13).lineHeight == 16)
    }
}
