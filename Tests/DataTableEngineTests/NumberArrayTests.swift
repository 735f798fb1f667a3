import TestSupport
import Testing

@testable import DataTableEngine

/// Number columns keep whole numbers in two or four bytes and anything else as doubles, and
/// give back exactly what they were given (to the bit: −0 stays −0) through every change; a
/// load keeps a column of whole numbers narrow.
@Suite struct NumberArrayTests {
    /// The bits of each value, NaN (empty) as one.
    private static func bits(_ values: some Sequence<Double>) -> [UInt64] {
        values.map { $0.isNaN ? Double.nan.bitPattern : $0.bitPattern }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aNumberStoreGivesBackEveryValueToTheBit(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        // Small whole numbers first, then larger ones, then anything: each width is met.
        var kinds: [UInt64] = [0, 1, 7]
        func value() -> Double {
            switch kinds[Int(random.next() % UInt64(kinds.count))] {
            case 0: .nan
            case 1: Double(Int(random.next() % 600) - 300)
            case 2: Double(Int(random.next() % 100_000) - 50_000)
            case 3: Double(Int64(bitPattern: random.next()) >> 20)
            case 4: -0.0
            case 5: Double(random.next() % 10_000) / 100
            case 6: [32_767, -32_767, -32_768, 2_147_483_647, -2_147_483_648, 1e300][Int(random.next() % 6)]
            default: Double(random.next() % 50)
            }
        }
        var reference: [Double] = []
        var store = ColumnStore(type: .number)
        var widths: Set<NumberArray.Width> = []
        for step in 0..<3000 {
            if step == 1000 { kinds.append(2) }
            if step == 2000 { kinds += [3, 4, 5, 6] }
            switch random.next() % 5 {
            case 0, 1:
                let number = value()
                reference.append(number)
                store.appendEmpty()
                store[UInt32(store.count - 1)] = number.isNaN ? .empty : .number(number)
            case 2 where !reference.isEmpty:
                let slot = Int(random.next() % UInt64(reference.count))
                let number = value()
                reference[slot] = number
                store[UInt32(slot)] = number.isNaN ? .empty : .number(number)
            case 3:
                // Whole numbers from elsewhere, narrow, joined on.
                var other = ColumnStore(type: .number)
                let small = (0..<Int(random.next() % 4)).map { _ in Double(random.next() % 100) }
                for number in small {
                    other.appendEmpty()
                    other[UInt32(other.count - 1)] = .number(number)
                }
                #expect(other.numbers.width == .int16)
                reference += small
                store.append(contentsOf: other)
            default:
                if random.next() % 8 == 0 {
                    // A fresh store of the same values is as narrow as they allow.
                    store = store.gathering((0..<UInt32(store.count)).map { $0 })
                }
                let keep = max(0, reference.count - Int(random.next() % 3))
                reference.removeSubrange(keep...)
                store.removeSlots(from: keep)
            }
            widths.insert(store.numbers.width)
            #expect(Self.bits(store.numbers) == Self.bits(reference), "after step \(step)")
        }
        #expect(widths == [.int16, .int32, .double])
        for slot in reference.indices {
            let cell = store[UInt32(slot)]
            #expect(cell == (reference[slot].isNaN ? .empty : .number(reference[slot])))
        }
    }

    @Test func eachWidthHoldsWhatItGivesBack() {
        #expect(NumberArray.Width(holding: 12) == .int16)
        #expect(NumberArray.Width(holding: -32_767) == .int16)
        #expect(NumberArray.Width(holding: -32_768) == .int32)
        #expect(NumberArray.Width(holding: 40_000) == .int32)
        #expect(NumberArray.Width(holding: 4e9) == .double)
        #expect(NumberArray.Width(holding: 0.5) == .double)
        #expect(NumberArray.Width(holding: -0.0) == .double)
        #expect(NumberArray.Width(holding: .infinity) == .double)
        #expect(NumberArray.Width(holding: .nan) == .int16)
    }

    /// A load keeps a column of whole numbers in two bytes a row and one with fractions as
    /// doubles; both filter and sum as they read.
    @Test func aLoadKeepsWholeNumbersNarrow() throws {
        var csv = "sku,qty,weight\n"
        for row in 0..<5000 {
            csv += "S\(row),\(row % 1000),\(row % 500).\(row % 10)\(row % 7)\n"
        }
        let loaded = try TableLoader.parse(csv, format: .csv, columns: nil)
        var table = try Table(name: "t", columns: loaded.columns, key: "sku")
        _ = try table.append(loaded)
        let qty = table.columnIndex(of: "qty")!
        let weight = table.columnIndex(of: "weight")!
        #expect(table.stores[qty].numbers.width == .int16)
        #expect(table.stores[weight].numbers.width == .double)
        #expect(table.stores[qty][1234] == .number(234))
        #expect(table.stores[weight][1234] == .number(234.42))
        table.setFilter(
            try RowFilter([.init(column: "qty", operator: .between, values: [.number(10), .number(19)])], in: table),
            id: 1
        )
        #expect(table.shownCount(filter: 1) == 50)
    }
}
