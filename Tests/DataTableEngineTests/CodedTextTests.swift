import TestSupport
import Testing

@testable import DataTableEngine

/// Text columns kept coded (each different text once, slots holding codes) hold exactly what a
/// plain column would through every change, free the texts no slot holds, and are chosen by a
/// load for the columns whose texts repeat.
@Suite struct CodedTextTests {
    private static let texts = ["", "Low", "Medium", "High", "low", "ウィジェット 12", "caf\u{E9}", "cafe\u{301}"]

    private static func value(_ text: String) -> CellValue { text.isEmpty ? .empty : .text(text) }

    /// What the store holds, slot by slot, as bytes (two spellings of one character differ).
    private static func contents(_ store: ColumnStore) -> [[UInt8]] {
        (0..<UInt32(store.count)).map { Array(store.text(at: $0).utf8) }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aCodedStoreHoldsWhatAPlainOneDoes(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        func text() -> String {
            random.next() % 4 == 0
                ? "text \(random.next() % 30)" : Self.texts[Int(random.next() % UInt64(Self.texts.count))]
        }
        var plain = ColumnStore(type: .text)
        for _ in 0..<200 {
            plain.appendEmpty()
            plain[UInt32(plain.count - 1)] = Self.value(text())
        }
        var coded = plain.coded(always: true)
        #expect(coded.isCoded)
        for step in 0..<2000 {
            // The places of the texts, once asked for, are kept: a copy made before a change
            // keeps those of its texts, and the changed store has those of its own, whether
            // or not a copy was there.
            let before: ColumnStore? = step % 3 == 0 ? coded : nil
            if step % 2 == 0 { _ = coded.dictionary.places }
            switch random.next() % 6 {
            case 0, 1, 2:
                let slot = UInt32(random.next() % UInt64(plain.count))
                let value = Self.value(text())
                plain[slot] = value
                coded[slot] = value
            case 3:
                plain.appendEmpty()
                coded.appendEmpty()
            case 4:
                // Rows from elsewhere, coded or not.
                var added = ColumnStore(type: .text)
                for _ in 0..<Int(random.next() % 5) {
                    added.appendEmpty()
                    added[UInt32(added.count - 1)] = Self.value(text())
                }
                plain.append(contentsOf: added)
                coded.append(contentsOf: random.next() % 2 == 0 ? added.coded(always: true) : added)
                if !coded.isCoded { coded = coded.coded(always: true) }
            default:
                let keep = max(20, plain.count - Int(random.next() % 4))
                plain.removeSlots(from: keep)
                coded.removeSlots(from: keep)
            }
            #expect(Self.contents(coded) == Self.contents(plain), "after step \(step)")
            // The dictionary holds the texts slots hold, no more.
            let held = Set(Self.contents(plain).filter { !$0.isEmpty })
            #expect(coded.dictionary.count == held.count, "after step \(step)")
            #expect(coded.estimatedBytes > 0)
            #expect(coded.dictionary.places == TextRanking.places(of: coded.dictionary.allTexts), "after step \(step)")
            if let before {
                #expect(
                    before.dictionary.places == TextRanking.places(of: before.dictionary.allTexts),
                    "after step \(step)"
                )
            }
        }
        // A third of the slots (a dictionary recounted), and a few with one twice and an empty
        // one (a dictionary of just their texts): the same contents either way, and a
        // dictionary that holds those texts, no more.
        let third = (0..<UInt32(plain.count)).filter { _ in random.next() % 3 == 0 }
        let empty = (0..<UInt32(plain.count)).first { Self.contents(plain.gathering([$0])) == [[]] }
        let few = [UInt32(plain.count - 1), 0, 5, 0] + (empty.map { [$0] } ?? [])
        for slots in [third, few] {
            let gathered = coded.gathering(slots)
            #expect(Self.contents(gathered) == Self.contents(plain.gathering(slots)))
            #expect(gathered.dictionary.count == Set(Self.contents(gathered).filter { !$0.isEmpty }).count)
            #expect(gathered.isCoded)
            var grown = gathered
            grown.append(contentsOf: coded)
            #expect(Self.contents(grown) == Self.contents(plain.gathering(slots)) + Self.contents(plain))
        }
        #expect(coded.gathering(few).dictionary.codeCount <= few.count + 1)
        #expect(Self.contents(coded.uncoded()) == Self.contents(plain))
        #expect(!coded.uncoded().isCoded)
    }

    /// Codes take one byte while a column has fewer than 256 texts, two below 65,536, four
    /// beyond: a store whose texts pass each bound widens its codes and holds what a plain one
    /// does, through edits, appends of coded stores and removals.
    @Test func codesWidenAsTheTextsPassOneAndTwoBytes() {
        var plain = ColumnStore(type: .text)
        var coded = ColumnStore(type: .text).coded(always: true)
        var widths: [CodeArray.Width] = []
        for row in 0..<80_000 {
            let value = Self.value(row % 7 == 0 ? "" : "text \(row)")
            plain.appendEmpty()
            plain[UInt32(row)] = value
            coded.appendEmpty()
            coded[UInt32(row)] = value
            if widths.last != coded.codes.width { widths.append(coded.codes.width) }
        }
        #expect(widths == [.one, .two, .four])
        #expect(Self.contents(coded) == Self.contents(plain))
        // Narrow codes from another store join wide ones, rewritten to this dictionary's.
        var few = ColumnStore(type: .text)
        for text in ["text 1", "new", "", "text 79999"] {
            few.appendEmpty()
            few[UInt32(few.count - 1)] = Self.value(text)
        }
        let narrow = few.coded(always: true)
        #expect(narrow.codes.width == .one)
        coded.append(contentsOf: narrow)
        plain.append(contentsOf: few)
        coded[5] = .text("edited")
        plain[5] = .text("edited")
        coded.removeSlots(from: 79_000)
        plain.removeSlots(from: 79_000)
        #expect(Self.contents(coded) == Self.contents(plain))
        // A few slots gathered: a dictionary of their texts, in one-byte codes again.
        let gathered = coded.gathering([3, 5, 8])
        #expect(gathered.codes.width == .one)
        #expect(Self.contents(gathered) == Self.contents(plain.gathering([3, 5, 8])))
    }

    /// Texts are kept one after another in one buffer; the bytes of texts no slot holds any
    /// more are dropped once they are half of it, so a column edited without end keeps about
    /// the bytes of the texts it holds, and reads back what it was given.
    @Test func editsWithoutEndKeepTheBytesOfTheTextsHeld() {
        var plain = ColumnStore(type: .text)
        for row in 0..<100 {
            plain.appendEmpty()
            plain[UInt32(row)] = .text("first text of row \(row)")
        }
        var coded = plain.coded(always: true)
        let start = coded.estimatedBytes
        var largest = start
        for edit in 0..<20_000 {
            let slot = UInt32(edit * 37 % 100)
            let value = CellValue.text("edit \(edit), a text of about forty bytes")
            plain[slot] = value
            coded[slot] = value
            largest = max(largest, coded.estimatedBytes)
        }
        #expect(Self.contents(coded) == Self.contents(plain))
        #expect(coded.dictionary.count == 100)
        // 100 texts of about 40 bytes held: never more than a few times that, against the
        // 800 KB every text written would take.
        #expect(largest < 40_000, "kept \(largest) bytes")
    }

    /// An add of rows whose new texts would need wider codes than a coded column keeps has no
    /// room until it is made (off the lock, as for full arrays); then the add goes in.
    @Test func aNewTextPastTheCodesWidthNeedsRoomMade() throws {
        var table = try Fixtures.stock()
        _ = try table.add((1...255).map { Fixtures.row(item: "item \($0)", rack: "R\($0)") }, now: 0)
        table.codeTexts(all: true)
        let rack = table.columnIndex(of: "rack")!
        #expect(table.stores[rack].codes.width == .one)
        // A rack already there fits; a new one would take code 256.
        #expect(table.stores[rack].dictionary.largestCode == 255)
        #expect(table.stores[rack].codesHaveRoom(forTexts: 0) && !table.stores[rack].codesHaveRoom(forTexts: 1))
        let roomForNew = table.hasRoom(forAdding: 1)
        #expect(!roomForNew)
        table.makeRoom(forAdding: 1)
        let made = table.hasRoom(forAdding: 1)
        #expect(made)
        #expect(table.stores[rack].codes.width == .two)
        _ = try table.add([Fixtures.row(item: "item 256", rack: "R256")], now: 0)
        #expect(table.column("rack")[255] == "R256" && table.column("rack")[0] == "R1")
    }

    /// A precomposed é and an e with a combining accent are one character to Swift's `==`
    /// but two texts to the table: each reads back as it was written.
    @Test func twoSpellingsOfOneCharacterStayApart() {
        var store = ColumnStore(type: .text).coded(always: true)
        for text in ["caf\u{E9}", "cafe\u{301}", "caf\u{E9}"] {
            store.appendEmpty()
            store[UInt32(store.count - 1)] = .text(text)
        }
        #expect(store.dictionary.count == 2)
        #expect(Array(store.text(at: 1).utf8) == Array("cafe\u{301}".utf8))
        store[0] = .text("cafe\u{301}")
        store[2] = .empty
        #expect(store.dictionary.count == 1)
        #expect(Self.contents(store) == [Array("cafe\u{301}".utf8), Array("cafe\u{301}".utf8), []])
    }

    @Test func theEstimateTellsRepeatingColumnsFromUniqueOnes() {
        let total = 1_000_000
        let sampled = DistinctEstimate.sampled(of: total)
        #expect(sampled.count == DistinctEstimate.sampleSize && Set(sampled).count == sampled.count)
        #expect(sampled == sampled.sorted() && sampled.last! < total)
        // A key: every value once.
        #expect(!DistinctEstimate.repeats(sampled.map { "SKU-\($0)" }, total: total))
        // Values that recur with a long period (a tenth of the rows), and a handful of grades.
        #expect(DistinctEstimate.repeats(sampled.map { "Widget \(($0 * 48271) % 99991)" }, total: total))
        #expect(DistinctEstimate.repeats(sampled.map { ["Low", "Medium", "High"][$0 % 3] }, total: total))
        // Three values in four different: kept plain.
        #expect(!DistinctEstimate.repeats(sampled.map { "v\($0 % 750_000)" }, total: total))
        // A small input is counted exactly.
        #expect(DistinctEstimate.estimate(["a", "b", "a"], total: 3) == 2)
    }

    /// A load keeps the columns whose texts repeat coded and the others plain, and the table
    /// reads, edits, filters, counts and restores the same either way.
    @Test func aLoadCodesTheColumnsWhoseTextsRepeat() throws {
        var csv = "sku,grade,note\n"
        for row in 0..<6000 {
            csv += "S\(row),\(["Low", "Medium", "High"][row % 3]),note \(row)\n"
        }
        let loaded = try TableLoader.parse(csv, format: .csv, columns: nil)
        var table = try Table(name: "t", columns: loaded.columns)
        _ = try table.append(loaded)
        let grade = table.columnIndex["grade"]!
        #expect(table.stores[grade].isCoded)
        #expect(!table.stores[table.columnIndex["sku"]!].isCoded)
        #expect(!table.stores[table.columnIndex["note"]!].isCoded)
        #expect(table.stores[grade].dictionary.count == 3)

        _ = try table.edit([CellEdit(id: .number(5), column: "grade", input: .text("Top"))])
        #expect(table.stores[grade][table.slot(of: .number(5))!] == .text("Top"))
        #expect(table.stores[grade].dictionary.count == 4)
        _ = try table.undo()
        #expect(table.stores[grade][table.slot(of: .number(5))!] == .text("Medium"))
        #expect(table.stores[grade].dictionary.count == 3)

        let counts = table.distinctValues(of: grade, admitting: nil, limit: 10)
        #expect(counts.values.map(\.text) == ["High", "Low", "Medium"])
        #expect(counts.values.map(\.count) == [2000, 2000, 2000])
        let filter = try RowFilter([.init(column: "grade", operator: .oneOf, values: [.text("Low")])], in: table)
        table.setFilter(filter, id: 1)
        #expect(table.filters[table.filterIndex(1)!].rows.count == 2000)

        let restored = try TableImageTests.restored(table)
        #expect(restored.stores[grade].isCoded)
        for slot in table.orderSlots(from: 0, limit: table.rowCount) {
            #expect(restored.stores[grade][slot] == table.stores[grade][slot])
        }
    }
}
