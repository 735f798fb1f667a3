import TestSupport
import Testing

@testable import TextMeasure

@Suite struct TextFittingTests {
    /// "데이터 테이블" is 13 cells. In 8: "데이터" (6) + "…" (1); the space before the cut goes.
    @Test func truncationInCellsKeepsWholeCharacters() {
        let fitted = TextStyle.cells.truncate("데이터 테이블", toWidth: 8)
        #expect(fitted == FittedText(text: "데이터…", kept: 3, truncated: true))
        #expect(TextStyle.cells.truncate("데이터 테이블", toWidth: 13).truncated == false)
        #expect(TextStyle.cells.truncate("😀😀😀", toWidth: 4).text == "😀…")
        #expect(TextStyle.cells.truncate("abc", toWidth: 0).text == "")
    }

    /// In points the cut index tells a renderer where the shown text ends.
    @Test func truncationInPointsGivesTheCutIndex() throws {
        let face = try FontLibrary().face(family: "DejaVu Sans", style: "Regular")
        let style = TextStyle(measure: face, size: 15)
        let text = "Hydraulic Pump HP-20"
        let width = style.width("Hydraulic") + style.width("…")
        let fitted = style.truncate(text, toWidth: width)
        #expect(fitted.text == "Hydraulic…")
        #expect(fitted.kept == 9)
        #expect(style.width(fitted.text) <= width)
    }

    @Test func greedyWordWrapToTwoLines() {
        let cells = TextStyle.cells
        #expect(cells.wrap("Weight in kilograms", toWidth: 10, maxLines: 2) == ["Weight in", "kilograms"])
        #expect(cells.wrap("Received date and time", toWidth: 10, maxLines: 2) == ["Received", "date and…"])
        #expect(cells.wrap("Qty", toWidth: 10, maxLines: 2) == ["Qty"])
        #expect(cells.wrap("Extraordinarily", toWidth: 10, maxLines: 2) == ["Extraordin", "arily"])
        #expect(cells.wrap("Weight in kilograms", toWidth: 10, maxLines: 1) == ["Weight in…"])
    }

    /// Headers wrap at spaces only: a word too wide for the column is cut with "…", never
    /// broken in two ("Rack" at 3 cells is "Ra…", not "Rac" over "k").
    @Test func headersKeepTheirWordsWhole() {
        let cells = TextStyle.cells
        #expect(cells.wrap("Rack", toWidth: 3, maxLines: 2, breakingWords: false) == ["Ra…"])
        #expect(cells.wrap("Rack", toWidth: 3, maxLines: 2) == ["Rac", "k"])
        #expect(
            cells.wrap("Extraordinarily long", toWidth: 10, maxLines: 2, breakingWords: false) == [
                "Extraordi…", "long",
            ]
        )
        #expect(
            cells.wrap("Weight in kilograms", toWidth: 10, maxLines: 2, breakingWords: false) == [
                "Weight in", "kilograms",
            ]
        )
    }

    /// The greedy rule spelled out the plain way: every space tried in turn, every prefix
    /// measured whole.
    static func plainWrap(_ style: TextStyle, _ text: String, width: Double, maxLines: Int) -> [String] {
        var lines: [String] = []
        var rest = Substring(text).drop { $0 == " " }
        while lines.count < maxLines - 1, !rest.isEmpty, style.width(String(rest)) > width + 1e-9 {
            var fit: Substring.Index?
            var search = rest.startIndex
            while let space = rest[search...].firstIndex(of: " ") {
                if style.width(String(rest[..<space])) > width + 1e-9 { break }
                fit = space
                search = rest.index(after: space)
            }
            if let fit {
                lines.append(String(rest[..<fit]))
                rest = rest[fit...].drop { $0 == " " }
            } else {
                let word = rest.firstIndex(of: " ").map { rest[..<$0] } ?? rest
                var end = word.index(after: word.startIndex)
                while end < word.endIndex, style.width(String(word[...end])) <= width + 1e-9 {
                    end = word.index(after: end)
                }
                lines.append(String(word[..<end]))
                rest = rest[end...].drop { $0 == " " }
            }
        }
        if !rest.isEmpty || lines.isEmpty { lines.append(style.truncate(String(rest), toWidth: width).text) }
        return lines
    }

    /// Wrapping and truncating find their cuts by doubling and halving; they cut exactly where
    /// trying every place in turn does, for words of every length, wide characters included.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func cutsMatchTryingEveryPlace(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let points = TextStyle(measure: try FontLibrary().face(family: "DejaVu Sans", style: "Regular"), size: 13)
        let pieces = ["a", "Wide", "kilograms", "데이터", "😀", "Extraordinarily", "x", "M-400", "ǅ"]
        for _ in 0..<300 {
            let words = (0..<Int.random(in: 1...30, using: &random)).map { _ in
                (0..<Int.random(in: 1...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            }
            let text = words.joined(separator: " ")
            for style in [TextStyle.cells, points] {
                let width = Double(Int.random(in: 1...60, using: &random)) * (style == .cells ? 1 : 7)
                let lines = Int.random(in: 1...3, using: &random)
                #expect(
                    style.wrap(text, toWidth: width, maxLines: lines)
                        == Self.plainWrap(style, text, width: width, maxLines: lines),
                    "\(text) in \(width)"
                )
            }
        }
    }

    /// A cell of a megabyte is cut by measuring about what is shown, not the whole of it at every
    /// place it could be cut: it answers at once, the same as a short one.
    @Test func aHugeTextIsCutLikeAShortOne() {
        let huge = String(repeating: "word ", count: 200_000)
        #expect(TextStyle.cells.wrap(huge, toWidth: 12, maxLines: 2) == ["word word", "word word w…"])
        #expect(TextStyle.cells.truncate(huge, toWidth: 12).text == "word word w…")
        let oneWord = String(repeating: "W", count: 1_000_000)
        #expect(TextStyle.cells.wrap(oneWord, toWidth: 5, maxLines: 2) == ["WWWWW", "WWWW…"])
    }
}
