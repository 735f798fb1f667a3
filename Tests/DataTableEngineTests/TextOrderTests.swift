import TestSupport
import Testing

@testable import DataTableEngine

/// Text order and distinct values against references written plainly here: the comparison that
/// folds ASCII as it goes orders exactly as folding both texts whole and comparing bytes does,
/// and a column's distinct values, counts, prefix, order and limit are what counting the rows
/// one by one gives.
@Suite struct TextOrderTests {
    /// Pieces texts are made of: ASCII in both cases, letters that fold to ASCII (U+0130 İ,
    /// U+212A Kelvin sign), other non-ASCII letters, combining marks, kana and CJK (no case),
    /// and letters with case just outside the caseless block (circled, fullwidth).
    static let pieces = [
        "a", "A", "b", "Z", "k", "K", "i", "İ", "\u{212A}", "é", "É", "ß", "ウ", "ィ", " ", "1", "e\u{301}", "",
        "漢", "\u{3000}", "\u{24B6}", "\u{FF21}", "Σ",
    ]

    static func randomText(_ random: inout SeededRandom) -> String {
        (0..<Int(random.next() % 5)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }

    /// The order as defined: folded bytes, then the original bytes.
    static func reference(_ left: String, _ right: String) -> Int {
        let byFold = Array(left.lowercased().utf8).lexicographicallyPrecedes(Array(right.lowercased().utf8))
        let foldEqual = Array(left.lowercased().utf8) == Array(right.lowercased().utf8)
        if !foldEqual { return byFold ? -1 : 1 }
        if Array(left.utf8) == Array(right.utf8) { return 0 }
        return Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8)) ? -1 : 1
    }

    @Test func foldingAsItGoesOrdersAsFoldingWholeDoes() {
        var random = SeededRandom(seed: 31)
        for _ in 0..<20_000 {
            let left = Self.randomText(&random)
            let right = Self.randomText(&random)
            #expect(TextKey.compare(left, right) == Self.reference(left, right), "\(left) vs \(right)")
        }
    }

    /// Folding is lowercasing, whichever way a text is folded: whole, into bytes, or into its
    /// order key.
    @Test func foldingIsLowercasing() {
        var random = SeededRandom(seed: 32)
        for _ in 0..<20_000 {
            let text = Self.randomText(&random)
            let lowered = text.lowercased()
            #expect(TextKey.folded(text) == lowered, "\(text)")
            var bytes: [UInt8] = [9]
            TextKey.appendFolded(text, to: &bytes)
            #expect(bytes == [9] + Array(lowered.utf8), "\(text)")
            let first = Array(lowered.utf8.prefix(7))
            let key =
                lowered.isEmpty ? 0 : first.reduce(UInt64(1)) { $0 << 8 | UInt64($1) } << (8 * UInt64(7 - first.count))
            #expect(TextKey.prefix(text) == key, "\(text)")
        }
    }

    /// A sort by one text column, up and down, over texts that share long beginnings (past the
    /// fifteen bytes the sort packs beside each row): the reference order, equal texts in the
    /// order they were added.
    @Test(arguments: [false, true], [false, true])
    func aSortByOneTextColumnOrdersAsTheReference(descending: Bool, coded: Bool) throws {
        var random = SeededRandom(seed: 5)
        let beginnings = ["", "widget part ", "Widget Part ", "wIdGeT pArT ñ", "widget part number 1"]
        var table = try Table(name: "t", columns: [Column(key: "name", rules: try ColumnRules(type: .text))])
        let texts = (0..<3000).map { _ in
            beginnings[Int(random.next() % UInt64(beginnings.count))] + Self.randomText(&random)
        }
        _ = try table.add(texts.map { RowInput(values: ["name": .text($0)]) }, now: 0)
        if coded { table.codeTexts(all: true) }
        try table.sort(by: [SortKey(column: "name", descending: descending)])
        let expected = texts.indices.sorted { left, right in
            let order = Self.reference(texts[left], texts[right])
            if order != 0 { return descending ? order > 0 : order < 0 }
            return left < right
        }
        #expect(table.column("name") == expected.map { texts[$0] })
        #expect(table.ids == expected.map { RowID.number(Int64($0 + 1)) })
    }

    /// Each text's place from the radix ranking is its place in the reference order (equal
    /// texts by index), over texts that tie in their first 15, 23, 31 and more folded bytes, in
    /// runs long and short, with NUL characters, empty texts and cases that fold alike.
    @Test(arguments: [7, 40, 3000])
    func textsAreRankedAsTheReferenceOrdersThem(count: Int) {
        var random = SeededRandom(seed: UInt64(count))
        let beginnings = [
            "", "A", "widget part ", "Widget Part ", "widget part number 1", "widget part number 12345 ",
            "WIDGET PART NUMBER 12345 and more", "ウィジェット ", "nul\u{0}", "nul",
        ]
        let texts = (0..<count).map { _ in
            beginnings[Int(random.next() % UInt64(beginnings.count))] + Self.randomText(&random)
        }
        let expected = texts.indices.sorted { left, right in
            let order = Self.reference(texts[left], texts[right])
            return order != 0 ? order < 0 : left < right
        }
        var places = [UInt64](repeating: 0, count: count)
        for (place, index) in expected.enumerated() { places[index] = UInt64(place) }
        #expect(TextRanking.places(of: texts) == places)
    }

    @Test(arguments: [(false, 5, false), (true, 5, true), (false, 1000, true), (true, 1000, false)])
    func distinctValuesAreWhatCountingRowByRowGives(byCount: Bool, limit: Int, coded: Bool) throws {
        var random = SeededRandom(seed: 77)
        var table = try Table(
            name: "t",
            columns: [
                Column(key: "name", rules: try ColumnRules(type: .text)),
                Column(key: "n", rules: try ColumnRules(type: .number)),
            ]
        )
        let texts = (0..<40).map { _ in Self.randomText(&random) }
        _ = try table.add(
            (0..<600).map { _ in
                RowInput(values: [
                    "name": .text(texts[Int(random.next() % 40)]), "n": .number(Double(random.next() % 30)),
                ])
            },
            now: 0
        )
        if coded {
            table.codeTexts()
            #expect(table.stores[0].isCoded)
        }
        for prefix in ["", "a", "K", "i", "ウ", "é"] {
            let found = table.distinctValues(of: 0, admitting: nil, prefix: prefix, byCount: byCount, limit: limit)
            var counts: [String: Int] = [:]
            for slot in table.orderSlots(from: 0, limit: table.rowCount) {
                guard case .text(let text) = table.stores[0][slot] else {
                    if prefix.isEmpty { counts["", default: 0] += 1 }
                    continue
                }
                if text.lowercased().utf8.starts(with: prefix.lowercased().utf8) { counts[text, default: 0] += 1 }
            }
            let expected = counts.sorted { left, right in
                if byCount, left.value != right.value { return left.value > right.value }
                return Self.reference(left.key, right.key) < 0
            }
            #expect(found.distinct == expected.count, "prefix \(prefix)")
            #expect(found.values.map(\.text) == expected.prefix(limit).map(\.key), "prefix \(prefix)")
            #expect(found.values.map(\.count) == expected.prefix(limit).map(\.value), "prefix \(prefix)")
            #expect(found.rows == 600)
        }
    }
}
