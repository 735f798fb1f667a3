import TestSupport
import Testing

@testable import DataTableEngine

/// A key column's rows are found by their ids after a load (small ones row by row, large ones
/// in pieces on every core), after a restore from an image, and through adds and deletes; a
/// load whose ids repeat names the lines of the repeats and adds nothing.
@Suite struct KeyIndexTests {
    /// A CSV of `rows` rows keyed by `sku` (`S-<n>` or the number `n` itself), with the rows at
    /// `repeats` given the id of the row before them.
    static func csv(rows: Int, numbers: Bool, repeats: Set<Int> = []) -> String {
        var lines = ["sku,qty"]
        lines.reserveCapacity(rows + 1)
        for row in 0..<rows {
            let id = (repeats.contains(row) ? row - 1 : row) * 7 + 3
            lines.append("\(numbers ? "\(id)" : "S-\(id)"),\(row % 50)")
        }
        return lines.joined(separator: "\n")
    }

    static func id(_ row: Int, numbers: Bool) -> RowID {
        numbers ? .number(Int64(row * 7 + 3)) : .text("S-\(row * 7 + 3)")
    }

    @Test(arguments: [(900, false), (900, true), (70_000, false), (70_000, true)])
    func everyLoadedRowIsFoundByItsIdAndAfterARestore(rows: Int, numbers: Bool) throws {
        let loaded = try TableLoader.parse(Self.csv(rows: rows, numbers: numbers), format: .csv, columns: nil)
        var table = try Table(name: "t", columns: loaded.columns, key: "sku")
        #expect(try table.append(loaded) == rows)
        let restored = try TableImageTests.restored(table)
        for row in stride(from: 0, to: rows, by: 1) {
            #expect(table.index(of: Self.id(row, numbers: numbers)) == row)
        }
        for row in stride(from: 0, to: rows, by: 13) {
            #expect(restored.index(of: Self.id(row, numbers: numbers)) == row)
        }
        #expect(table.index(of: numbers ? .number(1) : .text("S-1")) == nil)
        #expect(table.index(of: numbers ? .text("3") : .number(3)) == nil)

        // Deletes shift entries back: every row left is still found, none deleted is.
        let deleted = Set(stride(from: 0, to: rows, by: 3))
        _ = try table.delete(deleted.sorted().map { Self.id($0, numbers: numbers) })
        var position = 0
        for row in 0..<rows {
            let found = table.index(of: Self.id(row, numbers: numbers))
            if deleted.contains(row) {
                #expect(found == nil)
            } else {
                #expect(found == position)
                position += 1
            }
        }
    }

    @Test(arguments: [(900, false), (70_000, false), (70_000, true)])
    func aLoadWithRepeatedIdsNamesTheirLinesAndAddsNothing(rows: Int, numbers: Bool) throws {
        let repeats: Set<Int> = [5, rows / 2, rows - 1]
        let loaded = try TableLoader.parse(
            Self.csv(rows: rows, numbers: numbers, repeats: repeats),
            format: .csv,
            columns: nil
        )
        var table = try Table(name: "t", columns: loaded.columns, key: "sku")
        var problems: [CellProblem] = []
        do {
            _ = try table.append(loaded)
        } catch {
            guard case .invalidValues(let found) = error else { throw error }
            problems = found
        }
        // Row r is on line r + 2 (the header is line 1).
        #expect(problems.map(\.line) == repeats.sorted().map { $0 + 2 })
        #expect(problems.allSatisfy { $0.column == "sku" && $0.message == "Another row already has this id." })
        #expect(problems.map(\.input) == repeats.sorted().map { Self.id($0 - 1, numbers: numbers).description })
        #expect(table.rowCount == 0)
        // Nothing of the refused load is left in the index: the rows load once the repeats go.
        let fixed = try TableLoader.parse(Self.csv(rows: rows, numbers: numbers), format: .csv, columns: nil)
        #expect(try table.append(fixed) == rows)
        #expect(table.index(of: Self.id(rows - 1, numbers: numbers)) == rows - 1)
    }

    /// Slots far beyond the index's size leave fewer bits for fingerprints: the index makes
    /// room in its entries as they come, and finds and removes every row as before.
    @Test func slotsFarApartAreFoundAndRemoved() {
        var ids: [UInt32: RowID] = [:]
        var index = KeyIndex()
        let idOf: (UInt32) -> RowID = { ids[$0]! }
        let slots = (0..<3000).map { UInt32($0 * 1_000_003 % 4_000_000_000) }
        for (number, slot) in slots.enumerated() {
            ids[slot] = .number(Int64(number))
            #expect(index.insertUnlessPresent(slot, id: .number(Int64(number)), idOf: idOf) == nil)
        }
        for (number, slot) in slots.enumerated() { #expect(index.find(.number(Int64(number)), idOf: idOf) == slot) }
        for number in stride(from: 0, to: slots.count, by: 2) { index.remove(.number(Int64(number)), idOf: idOf) }
        for (number, slot) in slots.enumerated() {
            #expect(index.find(.number(Int64(number)), idOf: idOf) == (number % 2 == 0 ? nil : slot))
        }
        #expect(index.count == slots.count / 2)
    }

    /// Random inserts and removals, checked against a dictionary after every step.
    @Test func insertsAndRemovalsAgreeWithADictionary() {
        var generator = SeededRandom(seed: 36)
        var ids: [UInt32: RowID] = [:]
        var reference: [RowID: UInt32] = [:]
        var index = KeyIndex()
        let idOf: (UInt32) -> RowID = { ids[$0]! }
        var next: UInt32 = 0
        for step in 0..<20_000 {
            if reference.isEmpty || Int.random(in: 0..<3, using: &generator) > 0 {
                let id = RowID.text("k\(Int.random(in: 0..<5_000, using: &generator))")
                ids[next] = id
                let present = index.insertUnlessPresent(next, id: id, idOf: idOf)
                #expect(present == reference[id])
                if present == nil { reference[id] = next }
                next += 1
            } else {
                let id = reference.keys.randomElement(using: &generator)!
                index.remove(id, idOf: idOf)
                reference[id] = nil
            }
            if step % 997 == 0 {
                for (id, slot) in reference { #expect(index.find(id, idOf: idOf) == slot) }
            }
        }
        #expect(index.count == reference.count)
        for (id, slot) in reference { #expect(index.find(id, idOf: idOf) == slot) }
    }
}
