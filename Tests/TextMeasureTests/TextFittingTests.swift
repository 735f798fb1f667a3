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
}
