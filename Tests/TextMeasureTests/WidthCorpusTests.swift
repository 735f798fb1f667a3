import Foundation
import Testing

@testable import TextMeasure

/// Widths on a corpus of hard strings against the tools a renderer's text stack agrees with:
/// terminal cells against Python's `wcwidth` (the version `scripts/install-dependencies` puts
/// in `.build/wcwidth`), points against HarfBuzz's own `hb-shape` on the same font file.
@Suite struct WidthCorpusTests {
    /// CJK, emoji sequences, flags, combining marks, Hangul jamo, Thai and Indic scripts.
    static let cellCorpus = [
        "Stock", "日本語テキスト", "재고 현황", "ＡＢＣ", "中文字符", "😀", "👍🏽", "👩‍👩‍👧", "👨‍💻", "🇯🇵", "🇩🇪🇫🇷",
        "❤️", "❤", "1️⃣", "é", "e\u{301}\u{302}", "Größe", "\u{1100}\u{1161}\u{11A8}", "ก่อน", "สวัสดี",
        "नमस्ते", "हिन्दी", "क्षत्रिय", "தமிழ்", "বাংলা", "ಕನ್ನಡ", "Ελληνικά", "Кириллица", "עברית", "العربية",
        "a\u{200B}b", "tab\u{AD}soft", "½ ¼", "Ω≈ç√", "↑↓", "…", "👩🏽‍💻", "🏳️‍🌈", "#️⃣", "☀️ ok", "✔", "✔️",
        "ශ්‍රී ලංකා", "မြန်မာ", "ខ្មែរ", "ગુજરાતી", "ਪੰਜਾਬੀ", "ଓଡ଼ିଆ", "తెలుగు", "മലയാളം", "Tiếng Việt", "ﾊﾝｶｸ",
    ]

    /// Strings the data font (DejaVu Sans) has every character of.
    static let pointCorpus = [
        "Stock", "Servo Motor SM-400", "AVATAR Wave", "Größe ½", "Ελληνικά", "Кириллица", "עברית", "العربية",
        "e\u{301}\u{302}", "ﬁ office", "1,234.50 €",
    ]

    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static let python = packageRoot.appendingPathComponent(".build/wcwidth/bin/python3").path
    static let inCI = ProcessInfo.processInfo.environment["CI"] != nil

    /// Runs `executable` with `arguments`, `input` on its standard input; its standard output.
    static func run(_ executable: String, _ arguments: [String], input: String = "") throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    /// `tool` on the PATH.
    static func which(_ tool: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(
        .enabled(
            if: inCI || FileManager.default.isExecutableFile(atPath: python),
            "no .build/wcwidth (scripts/install-dependencies makes it)"
        )
    )
    func cellWidthsAreWcwidths() throws {
        let script = """
            import json, sys, wcwidth
            assert wcwidth.__version__ == "0.7.0", wcwidth.__version__
            print(json.dumps([wcwidth.wcswidth(text) for text in json.load(sys.stdin)]))
            """
        let input = String(decoding: try JSONEncoder().encode(Self.cellCorpus), as: UTF8.self)
        let output = try Self.run(Self.python, ["-c", script], input: input)
        let expected = try JSONDecoder().decode([Int].self, from: Data(output.utf8))
        #expect(expected.count == Self.cellCorpus.count)
        for (text, cells) in zip(Self.cellCorpus, expected) {
            #expect(
                DisplayWidth.cells(text) == cells,
                "\(text) \(text.unicodeScalars.map { String($0.value, radix: 16) })"
            )
        }
    }

    @Test(.enabled(if: inCI || which("hb-shape") != nil, "no hb-shape (apt install libharfbuzz-bin)"))
    func pointWidthsAreHarfBuzzsAdvances() throws {
        let hbShape = try #require(Self.which("hb-shape"))
        let fonts = FontLibrary()
        let faces = [
            (try fonts.face(family: "DejaVu Sans", style: "Regular"), Self.pointCorpus),
            (try fonts.face(family: "VL Gothic", style: "Regular"), ["日本語テキスト", "カタカナ ひらがな", "漢字と ASCII"]),
        ]
        for (face, corpus) in faces {
            for text in corpus {
                // Advances in font units (no size given: the font's own scale).
                let output = try Self.run(hbShape, ["--output-format=json", "--no-glyph-names", face.path, text])
                let glyphs = try JSONDecoder().decode([[String: Int]].self, from: Data(output.utf8))
                #expect(face.units(text) == glyphs.reduce(0) { $0 + ($1["ax"] ?? 0) }, "\(face.path): \(text)")
            }
        }
    }
}
