import Testing

@testable import DataTableEngine

/// The column solver, rule by rule, in a 1000-point container unless a test says otherwise.
/// Every expectation is worked out by hand in the comment above it.
@Suite struct ColumnSolverTests {
    typealias Column = ColumnSolver.Column

    static func solve(
        _ columns: [Column],
        container: Int = 1000,
        scroll: Bool = false,
        configure: (inout ColumnSolver.Settings) -> Void = { _ in }
    ) -> (widths: [Int], xs: [Int?], truncated: [Bool], omitted: [Bool]) {
        var settings = ColumnSolver.Settings(container: container)
        settings.horizontalScroll = scroll
        configure(&settings)
        let placements = ColumnSolver.solve(columns, settings)
        return (placements.map(\.width), placements.map(\.x), placements.map(\.truncated), placements.map(\.omitted))
    }

    /// Natural 200 + 100 + 150 = 450 fits; the first column takes the 550 left: 750.
    @Test func threeColumnsTakeTheirNaturalWidthsAndTheFirstFillsTheRest() {
        let result = Self.solve([Column(natural: 200), Column(natural: 100), Column(natural: 150)])
        #expect(result.widths == [750, 100, 150])
        #expect(result.xs == [0, 750, 850])
        #expect(result.truncated == [false, false, false])
    }

    /// Column 2 (600) is capped at 50% = 500. Preferred 300 + 500 + 3 × 100 = 1100 > 1000: 100
    /// too wide. The first column (the title, which fills) gives first, down to its least
    /// min(300, 25%) = 250: 50; then the widest other, column 2, the other 50: 450. The three
    /// short columns keep their 100.
    @Test func fiveColumnsShareTheContainerWhenTheyDoNotFit() {
        let result = Self.solve(
            [600, 100, 100, 100].reduce(into: [Column(natural: 300)]) { $0.append(Column(natural: $1)) }
        )
        #expect(result.widths == [250, 450, 100, 100, 100])
        #expect(result.xs == [0, 250, 700, 800, 900])
        #expect(result.truncated == [true, true, false, false, false])
        #expect(result.omitted == Array(repeating: false, count: 5))
    }

    /// Least widths 150, 250 (400 capped to 25% when truncated), 120, 250, 90, 200, 80, 60: the
    /// first five need 860, the sixth would make 1060, so columns 6 to 8 are omitted (in order:
    /// the 80 and 60 after it are not tried). Preferred 150 + 400 + 120 + 300 + 90 = 1060 > 1000:
    /// the title (150) is at its least already, so the widest, column 2, gives the 60: 340.
    @Test func eightColumnsKeepAsManyAsFitInOrderAndOmitTheRest() {
        let naturals = [150, 400, 120, 300, 90, 200, 80, 60]
        let result = Self.solve(naturals.map { Column(natural: $0) })
        #expect(result.widths == [150, 340, 120, 300, 90, 0, 0, 0])
        #expect(result.xs == [0, 150, 490, 610, 910, nil, nil, nil])
        #expect(result.truncated == [false, true, false, false, false, false, false, false])
        #expect(result.omitted == [false, false, false, false, false, true, true, true])
    }

    /// One column has no 50% cap: it takes the whole container.
    @Test func oneColumnTakesTheWholeContainer() {
        #expect(Self.solve([Column(natural: 300)]).widths == [1000])
        let wide = Self.solve([Column(natural: 2000)])
        #expect(wide.widths == [1000])
        #expect(wide.truncated == [true])
    }

    /// A 2000-wide text among three columns is capped at 500 and truncated; 500 + 100 + 100 =
    /// 700 leaves 300, which the first column takes. Scrolling sideways, it keeps all 2000.
    @Test func aVeryWideTextIsCappedAtHalfTheContainer() {
        let first = Self.solve([Column(natural: 2000), Column(natural: 100), Column(natural: 100)])
        #expect(first.widths == [800, 100, 100])
        #expect(first.truncated == [true, false, false])
        let second = Self.solve([Column(natural: 100), Column(natural: 2000), Column(natural: 100)])
        #expect(second.widths == [400, 500, 100])
        #expect(second.truncated == [false, true, false])
        let scrolled = Self.solve([Column(natural: 2000), Column(natural: 100), Column(natural: 100)], scroll: true)
        #expect(scrolled.widths == [2000, 100, 100])
        #expect(scrolled.xs == [0, 2000, 2100])
        #expect(scrolled.truncated == [false, false, false])
    }

    /// FUIGridTableViewCell's example: [0.2, -1, 0.4] → 200, the rest (400), 400.
    @Test func fractionsAndTheFlexibleColumn() {
        let fiori = Self.solve([
            Column(natural: 100, width: 0.2), Column(natural: 100, width: -1), Column(natural: 100, width: 0.4),
        ])
        #expect(fiori.widths == [200, 400, 400])
        // Points and fractions together: 200 + 100 (natural) + 300 + 150 = 750; the flexible
        // column takes the 250 left.
        let mixed = Self.solve([
            Column(natural: 80, width: 0.2), Column(natural: 100, width: -1), Column(natural: 500, width: 0.3),
            Column(natural: 90, width: 150),
        ])
        #expect(mixed.widths == [200, 350, 300, 150])
        #expect(mixed.truncated == [false, false, true, false])
    }

    /// Image columns keep their width: in 600, text columns of 600 are capped at 300; 300 + 56 +
    /// 300 = 656 is 56 too wide, and the title (the first text column) gives it: 244.
    @Test func imageColumnsKeepAFixedWidth() {
        let result = Self.solve(
            [Column(natural: 600), Column(natural: 0, isImage: true), Column(natural: 600)],
            container: 600
        )
        #expect(result.widths == [244, 56, 300])
        // An image first: the first text column is the one that fills.
        let leading = Self.solve([Column(natural: 0, isImage: true), Column(natural: 200), Column(natural: 100)])
        #expect(leading.widths == [56, 844, 100])
        let sized = Self.solve([Column(natural: 0, isImage: true, width: 80), Column(natural: 100, width: 100)])
        #expect(sized.widths == [80, 100])
    }

    /// maxWidth 0.7 lets column 1 prefer 700; column 2 prefers 500 (50%) and keeps at least its
    /// minWidth 400. 700 + 500 is 200 too wide: the title gives it all (700 → 500, above its
    /// least 250). With a 60% share both prefer 600 and the title gives the 200: 400 and 600.
    @Test func minAndMaxWidthOverrideTheShares() {
        let result = Self.solve([Column(natural: 800, maxWidth: 0.7), Column(natural: 800, minWidth: 400)])
        #expect(result.widths == [500, 500])
        let shares = Self.solve([Column(natural: 800), Column(natural: 800)]) { $0.maxShare = 0.6 }
        #expect(shares.widths == [400, 600])
    }

    /// Accessories of 44 on both sides and 8 between columns leave 1000 − 88 − 8 = 904 for
    /// 100 + 100: the first column grows to 804.
    @Test func accessoriesAndSpacingComeOffTheContainer() {
        let result = Self.solve([Column(natural: 100), Column(natural: 100)]) {
            $0.leftAccessory = 44
            $0.rightAccessory = 44
            $0.spacing = 8
        }
        #expect(result.widths == [804, 100])
        #expect(result.xs == [44, 856])
    }

    /// Scrolling sideways: natural widths, no 50% cap (only an explicit maxWidth), the total
    /// past the container; a narrower total still fills.
    @Test func horizontalScrollKeepsNaturalWidths() {
        let result = Self.solve(
            [Column(natural: 300), Column(natural: 700), Column(natural: 400), Column(natural: 900, maxWidth: 500)],
            scroll: true
        )
        #expect(result.widths == [300, 700, 400, 500])
        #expect(result.xs == [0, 300, 1000, 1400])
        #expect(result.truncated == [false, false, false, true])
        #expect(Self.solve([Column(natural: 300), Column(natural: 200)], scroll: true).widths == [800, 200])
    }

    /// A sticky first column of 400 shrinks as the content scrolls until it is 25% (250) wide;
    /// one narrower than that never shrinks.
    @Test(arguments: [(0, 400), (100, 300), (150, 250), (500, 250), (-20, 400)])
    func aStickyColumnShrinksToThePanelWidth(offset: Int, width: Int) {
        let sticky = LayoutPlan.StickyColumn(key: "item", width: 400, minWidth: 250)
        #expect(sticky.width(atOffset: offset) == width)
        #expect(LayoutPlan.StickyColumn(key: "item", width: 200, minWidth: 200).width(atOffset: offset) == 200)
    }

    /// The seed's rule at 200 points: item (natural 150), qty (63) and rack (56) are 69 too wide.
    /// The title, item, gives it all (150 → 81, above its least 50): qty and rack stay whole and
    /// only the item is cut.
    @Test func theTitleGivesBeforeANumberIsCut() {
        let result = Self.solve([Column(natural: 150), Column(natural: 63), Column(natural: 56)], container: 200)
        #expect(result.widths == [81, 63, 56])
        #expect(result.truncated == [true, false, false])
        // With the title at its least (50), the widest other gives next, level with the next
        // widest: 130 + 100 + 60 in 200 → 50, then 100 → 90: 50 + 90 + 60.
        let levelled = Self.solve([Column(natural: 130), Column(natural: 100), Column(natural: 60)], container: 200)
        #expect(levelled.widths == [50, 90, 60])
        #expect(levelled.truncated == [true, true, false])
    }

    /// A header word is cut only when nothing else can give. At 230 points, item (natural 200,
    /// the title, capped at 115), notes (110) and qty, whose natural 90 is its header
    /// "Quantity", are 85 too wide. The title gives 58 (down to its least, 57). Without the
    /// rule notes comes level with qty (90) and the 7 left come off both: 86 and 87, cutting
    /// the header. With it notes gives all 27 (110 → 83) and qty keeps its 90.
    @Test func aHeaderWordIsCutOnlyWhenNothingElseCanGive() {
        let columns = [
            Column(natural: 200, headerWord: 40), Column(natural: 110, headerWord: 50),
            Column(natural: 90, headerWord: 90),
        ]
        let result = Self.solve(columns, container: 230)
        #expect(result.widths == [57, 83, 90])
        #expect(result.truncated == [true, true, false])
        let withoutWords = Self.solve(columns.map { Column(natural: $0.natural) }, container: 230)
        #expect(withoutWords.widths == [57, 86, 87])
        // When nothing else can give, words are cut after all. At 200 with a fourth column,
        // rack (natural 60, all header word), the four are 150 too wide (item and notes capped
        // at 100): item and notes give 50 each, down to their least (50); the 50 left come off
        // qty (90 → level with rack at 60), then 10 off each: all four at 50.
        let tight = Self.solve(columns + [Column(natural: 60, headerWord: 60)], container: 200)
        #expect(tight.widths == [50, 50, 50, 50])
    }

    /// FUIGridTableViewCell's example with the flexible column an image: [-1, 0.2, 0.1, 0.1,
    /// 0.1, 0.1] at 1000 → 200 + 4 × 100 = 600, and the image takes the 400 left: the columns
    /// span the container exactly.
    @Test func aFlexibleImageColumnTakesTheRest() {
        let columns =
            [Column(natural: 0, isImage: true, width: -1), Column(natural: 100, width: 0.2)]
            + Array(repeating: Column(natural: 100, width: 0.1), count: 4)
        let result = Self.solve(columns)
        #expect(result.widths == [400, 200, 100, 100, 100, 100])
        #expect(result.widths.reduce(0, +) == 1000)
    }

    /// A filling column keeps to its maxWidth: the space it may not take goes to the next text
    /// column without a width, and what none may take stays empty at the end.
    @Test func theFillingColumnKeepsToItsMaxWidth() {
        let result = Self.solve([
            Column(natural: 100, maxWidth: 100), Column(natural: 100), Column(natural: 50, width: 50),
        ])
        #expect(result.widths == [100, 850, 50])
        let capped = Self.solve([Column(natural: 100, maxWidth: 100), Column(natural: 100, maxWidth: 300)])
        #expect(capped.widths == [100, 300])
    }
}
