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

    /// Column 2 (600) is capped at 50% = 500. Preferred 300 + 500 + 3 × 100 = 1100 > 1000, so
    /// columns start from their least widths (min(300, 25%) = 250, 250, 100, 100, 100 = 800)
    /// and share the 200 left by what they lack (50 and 250 of 300): 33 and 166, and the
    /// last unit goes to the first column: 284 and 416. Both are truncated.
    @Test func fiveColumnsShareTheContainerWhenTheyDoNotFit() {
        let result = Self.solve(
            [600, 100, 100, 100].reduce(into: [Column(natural: 300)]) { $0.append(Column(natural: $1)) }
        )
        #expect(result.widths == [284, 416, 100, 100, 100])
        #expect(result.xs == [0, 284, 700, 800, 900])
        #expect(result.truncated == [true, true, false, false, false])
        #expect(result.omitted == Array(repeating: false, count: 5))
    }

    /// Least widths 150, 250 (400 capped to 25% when truncated), 120, 250, 90, 200, 80, 60: the
    /// first five need 860, the sixth would make 1060, so columns 6 to 8 are omitted (in order:
    /// the 80 and 60 after it are not tried). Preferred 150 + 400 + 120 + 300 + 90 = 1060 > 1000:
    /// the 140 left goes 105 to column 2 (lacks 150) and 35 to column 4 (lacks 50).
    @Test func eightColumnsKeepAsManyAsFitInOrderAndOmitTheRest() {
        let naturals = [150, 400, 120, 300, 90, 200, 80, 60]
        let result = Self.solve(naturals.map { Column(natural: $0) })
        #expect(result.widths == [150, 355, 120, 285, 90, 0, 0, 0])
        #expect(result.xs == [0, 150, 505, 625, 910, nil, nil, nil])
        #expect(result.truncated == [false, true, false, true, false, false, false, false])
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

    /// Image columns keep their width: in 600, text columns of 600 are capped at 300 and share
    /// what the image (56) leaves: least 150 + 56 + 150 = 356, 244 more split evenly.
    @Test func imageColumnsKeepAFixedWidth() {
        let result = Self.solve(
            [Column(natural: 600), Column(natural: 0, isImage: true), Column(natural: 600)],
            container: 600
        )
        #expect(result.widths == [272, 56, 272])
        // An image first: the first text column is the one that fills.
        let leading = Self.solve([Column(natural: 0, isImage: true), Column(natural: 200), Column(natural: 100)])
        #expect(leading.widths == [56, 844, 100])
        let sized = Self.solve([Column(natural: 0, isImage: true, width: 80), Column(natural: 100, width: 100)])
        #expect(sized.widths == [80, 100])
    }

    /// maxWidth 0.7 lets column 1 prefer 700; minWidth 400 keeps column 2 from going under it.
    /// Least 250 + 400 = 650, 350 left shared by what they lack (450 and 100 of 550): 286 and
    /// 63, and the last unit to the first: 537 and 463.
    @Test func minAndMaxWidthOverrideTheShares() {
        let result = Self.solve([Column(natural: 800, maxWidth: 0.7), Column(natural: 800, minWidth: 400)])
        #expect(result.widths == [537, 463])
        let shares = Self.solve([Column(natural: 800), Column(natural: 800)]) { $0.maxShare = 0.6 }
        #expect(shares.widths == [500, 500])
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
}
