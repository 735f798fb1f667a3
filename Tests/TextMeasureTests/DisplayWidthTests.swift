import Testing

@testable import TextMeasure

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("Stock", 5),
        ("재고 현황", 9),  // four Hangul syllables (2 each) and a space
        ("데이터 테이블", 13),
        ("日本語", 6),
        ("ＡＢ", 4),  // fullwidth Latin
        ("😀", 2),
        ("👍🏽", 2),  // emoji with a skin-tone modifier: one cluster
        ("👩‍👩‍👧", 2),  // a family joined by zero-width joiners: one cluster
        ("❤️", 2),  // a text-style heart asked to look like an emoji
        ("❤", 1),
        ("é", 1),  // e + combining acute accent
        ("e\u{301}\u{302}", 1),
        ("\u{200B}", 0),
        ("\u{1100}\u{1161}\u{11A8}", 2),  // 각 spelled in jamo
        ("Größe", 5),
        ("", 0),
    ])
    func cellsCountsDisplayWidth(text: String, cells: Int) {
        #expect(DisplayWidth.cells(text) == cells)
    }

    @Test func everyWideRangeIsSortedAndApart() {
        let ranges = DisplayWidth.wideRanges
        for (first, second) in zip(ranges, ranges.dropFirst()) {
            #expect(first.upperBound + 1 < second.lowerBound)
        }
    }
}
