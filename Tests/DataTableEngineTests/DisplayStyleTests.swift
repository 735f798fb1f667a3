import Foundation
import TestSupport
import Testing

@testable import DataTableEngine

/// A column's `format`: numbers grouped, as percents, with a prefix and suffix, in a locale's
/// separators; dates in a locale's order. What is shown changes; what is stored and what a
/// person may type in the plain form do not.
@Suite struct DisplayStyleTests {
    static func number(decimals: Int? = nil, _ style: DisplayStyle) throws -> ColumnRules {
        try ColumnRules(type: .number, decimals: decimals, style: style)
    }

    @Test(
        arguments: [
            (1234567.5, nil, DisplayStyle(grouping: true), "1,234,567.5"),
            (-1234.5, 2, DisplayStyle(grouping: true, prefix: "$"), "-$1,234.50"),
            (999, nil, DisplayStyle(grouping: true), "999"),
            (1234.5, 2, DisplayStyle(grouping: true, locale: .deDE), "1.234,50"),
            (1234.5, nil, DisplayStyle(grouping: true, locale: .frFR), "1\u{202F}234,5"),
            (0.25, nil, DisplayStyle(percent: true), "25%"),
            (0.07, nil, DisplayStyle(percent: true), "7%"),
            (0.1234, 1, DisplayStyle(percent: true, locale: .deDE), "12,3%"),
            (12.5, nil, DisplayStyle(suffix: " kg"), "12.5 kg"),
            (1e20, nil, DisplayStyle(grouping: true), "100,000,000,000,000,000,000"),
        ] as [(Double, Int?, DisplayStyle, String)]
    )
    func numbersShowInTheirStyle(value: Double, decimals: Int?, style: DisplayStyle, shown: String) throws {
        let rules = try Self.number(decimals: decimals, style)
        #expect(rules.displayText(.number(value)) == shown)
        // The scroll's path writes the same text.
        var text = WindowText(capacity: 1)
        rules.displayFormat.append(.number(value), to: &text)
        text.endCell()
        #expect(text[0] == shown)
    }

    /// What a person types in the column's form reads as the stored value; the plain form reads too.
    @Test(
        arguments: [
            ("$1,234.50", DisplayStyle(grouping: true, prefix: "$"), 1234.5),
            ("-$1,234.50", DisplayStyle(grouping: true, prefix: "$"), -1234.5),
            ("1234.5", DisplayStyle(grouping: true, prefix: "$"), 1234.5),
            ("1.234,5", DisplayStyle(grouping: true, locale: .deDE), 1234.5),
            ("12,5", DisplayStyle(locale: .deDE), 12.5),
            ("25%", DisplayStyle(percent: true), 0.25),
            ("0.25", DisplayStyle(percent: true), 0.25),
            ("12.5 kg", DisplayStyle(suffix: " kg"), 12.5),
        ] as [(String, DisplayStyle, Double)]
    )
    func typedFormsReadAsTheValue(typed: String, style: DisplayStyle, value: Double) throws {
        #expect(try Self.number(style).parse(.text(typed)) == .number(value))
    }

    @Test func decimalsCountTheDigitsShown() throws {
        let percent = try Self.number(decimals: 1, DisplayStyle(percent: true))
        #expect(try percent.parse(.text("12.5%")) == .number(0.125))
        #expect(try percent.parse(.number(0.125)) == .number(0.125))
        #expect(throws: ValidationFailure.self) { try percent.parse(.text("12.25%")) }
        let money = try Self.number(decimals: 2, DisplayStyle(grouping: true, prefix: "$"))
        #expect(throws: ValidationFailure.self) { try money.parse(.text("$1,234.567")) }
        // A bad number says what the column's form looks like.
        #expect(throws: ValidationFailure("Enter a number, like $1,234.50 or 42.")) {
            try money.parse(.text("lots"))
        }
    }

    @Test(arguments: [
        (DisplayLocale.enUS, "11/24/2026"), (.enGB, "24/11/2026"), (.deDE, "24.11.2026"), (.frFR, "24/11/2026"),
        (.jaJP, "2026/11/24"), (.plain, "2026-11-24"),
    ])
    func datesShowInTheLocalesOrder(locale: DisplayLocale, shown: String) throws {
        let rules = try ColumnRules(type: .date, style: DisplayStyle(locale: locale))
        let stored = try rules.parse(.text("2026-11-24"))
        #expect(rules.displayText(stored) == shown)
        #expect(try rules.parse(.text(shown)) == stored)
        var text = WindowText(capacity: 1)
        rules.displayFormat.append(stored, to: &text)
        text.endCell()
        #expect(text[0] == shown)
    }

    @Test func aStyleThatDoesNotFitTheTypeIsRefused() throws {
        #expect(throws: ValidationFailure("grouping, percent, prefix and suffix apply to number columns only.")) {
            try ColumnRules(type: .date, style: DisplayStyle(grouping: true))
        }
        #expect(throws: ValidationFailure("locale applies to number and date columns only.")) {
            try ColumnRules(type: .text, style: DisplayStyle(locale: .deDE))
        }
        #expect(throws: ValidationFailure("prefix may not hold digits, a minus sign or a line break.")) {
            try ColumnRules(type: .number, style: DisplayStyle(prefix: "1"))
        }
        #expect(throws: ValidationFailure("suffix may have at most 8 characters.")) {
            try ColumnRules(type: .number, style: DisplayStyle(suffix: " kilograms"))
        }
    }

    @Test func localesAreNamedByTagOrLanguage() {
        #expect(DisplayLocale(named: "de") == .deDE)
        #expect(DisplayLocale(named: "EN_gb") == .enGB)
        #expect(DisplayLocale(named: "en") == .enUS)
        #expect(DisplayLocale(named: "xx") == nil)
    }

    /// Fixed decimals are written without `printf` where that cannot differ from it, and by it
    /// where it might: the text is `printf`'s either way, ties to even and negative zeros too.
    @Test func fixedDecimalsAreWhatPrintfWrites() {
        var random = SeededRandom(seed: 18)
        var cases: [(Double, Int)] = [
            (0.125, 2), (0.375, 2), (2.5, 0), (3.5, 0), (-0.001, 2), (-0.0, 1), (0, 0), (1.005, 2), (999_999.995, 2),
            (1e12, 0), (123_456_789.123_456, 12), (-40.42, 2), (0.5, 0),
        ]
        for _ in 0..<20_000 {
            let magnitude = pow(10, Double(Int.random(in: -6...14, using: &random)))
            let value = Double.random(in: -1...1, using: &random) * magnitude
            cases.append((value, Int.random(in: 0...12, using: &random)))
            // Halfway cases, written with few digits.
            let decimals = Int.random(in: 0...4, using: &random)
            let half = (Double(Int.random(in: -99_999...99_999, using: &random)) + 0.5) / pow(10, Double(decimals))
            cases.append((half, decimals))
        }
        for (value, decimals) in cases {
            #expect(NumberText.fixed(value, decimals: decimals) == String(format: "%.\(decimals)f", value), "\(value)")
        }
    }

    /// A loaded number column whose values all have the same decimal places keeps them.
    @Test func loadedNumbersKeepTheirDecimalPlaces() throws {
        let loaded = try TableLoader.parse(
            "price,weight,mixed,count\n57.00,1.5,1.50,3\n45.30,2.25,2,4\n",
            format: .csv,
            columns: nil
        )
        #expect(loaded.columns.map(\.rules.decimals) == [2, nil, nil, nil])
        var table = try Table(name: "t", columns: loaded.columns)
        _ = try table.append(loaded)
        #expect(table.column("price") == ["57.00", "45.30"])
    }
}
