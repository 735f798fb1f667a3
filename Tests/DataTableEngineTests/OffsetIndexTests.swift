import TestSupport
import Testing

@testable import DataTableEngine

/// A row height: mostly from a small set (zero, tiny, the usual line heights), sometimes any
/// size up to the largest a row may have.
private func randomHeight(using random: inout SeededRandom) -> Int {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<70: [0, 1, 2, 44, 71].randomElement(using: &random)!
    case 70..<98: Int.random(in: 0...100_000, using: &random)
    default: Int.random(in: 0...Int(UInt32.max), using: &random)
    }
}

/// The first difference between `index` and the plain array `model` (whose offsets are summed
/// in a loop), probing random positions and offsets; nil when they agree.
private func mismatch(_ index: OffsetIndex, _ model: [Int], using random: inout SeededRandom) -> String? {
    if let problem = index.checkInvariants() { return problem }
    var prefix = [0]
    for height in model { prefix.append(prefix[prefix.count - 1] + height) }
    let total = prefix[model.count]
    guard index.count == model.count else { return "count \(index.count), expected \(model.count)" }
    guard index.totalHeight == total else { return "totalHeight \(index.totalHeight), expected \(total)" }
    var positions = [0, model.count]
    for _ in 0..<6 { positions.append(Int.random(in: 0...model.count, using: &random)) }
    for position in positions {
        let offset = index.offset(of: position)
        if offset != prefix[position] { return "offset(of: \(position)) \(offset), expected \(prefix[position])" }
        if position < model.count, index.height(at: position) != model[position] {
            return "height(at: \(position)) \(index.height(at: position)), expected \(model[position])"
        }
    }
    guard !model.isEmpty else { return nil }
    let before = Int.random(in: -100 ... -1, using: &random)
    var offsets = [-1, before, total, total + Int.random(in: 0...100, using: &random)]
    for position in positions.dropFirst(2) { offsets.append(prefix[position]) }
    for _ in 0..<6 { offsets.append(Int.random(in: 0...max(0, total - 1), using: &random)) }
    for offset in offsets {
        var expected = (position: model.count - 1, inside: offset - prefix[model.count - 1])
        if offset < 0 { expected = (0, offset) }
        for row in 0..<model.count where offset >= 0 && offset < prefix[row + 1] {
            expected = (row, offset - prefix[row])
            break
        }
        let found = index.position(atOffset: offset)
        if found != expected { return "position(atOffset: \(offset)) \(found), expected \(expected)" }
    }
    return nil
}

@Suite struct OffsetIndexTests {
    /// Random inserts, removes, height changes and bulk builds, checked against a plain array.
    @Test(.tags(.slow), arguments: [UInt64(1), 2, 3])
    func behavesLikePrefixSums(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var index = OffsetIndex()
        var model: [Int] = []
        /// One random change to both: `insert` and `remove` are chances in percent, the rest sets a
        /// height; with `rebuild`, now and then a bulk build of the same or of fresh heights.
        func step(insert: Int, remove: Int, rebuild: Bool) {
            let roll = Int.random(in: 0..<1000, using: &random)
            if rebuild, roll >= 996 {
                if roll >= 998 {
                    model = (0..<Int.random(in: 0...3000, using: &random)).map { _ in randomHeight(using: &random) }
                }
                index = OffsetIndex(heights: model)
            } else if model.isEmpty || roll < insert * 10 {
                let height = randomHeight(using: &random)
                let position =
                    switch roll % 10 {
                    case 0: 0
                    case 1: model.count
                    default: Int.random(in: 0...model.count, using: &random)
                    }
                if position == model.count, roll % 2 == 1 {
                    index.append(height)
                } else {
                    index.insert(height, at: position)
                }
                model.insert(height, at: position)
                #expect(index.height(at: position) == height)
            } else if roll < (insert + remove) * 10 {
                let position = Int.random(in: 0..<model.count, using: &random)
                #expect(index.remove(at: position) == model.remove(at: position))
            } else {
                let position = Int.random(in: 0..<model.count, using: &random)
                let height = randomHeight(using: &random)
                index.setHeight(height, at: position)
                model[position] = height
                #expect(index.height(at: position) == height)
            }
            #expect(index.count == model.count)
        }
        func verify(_ phase: String, _ step: Int) -> Bool {
            let problem = mismatch(index, model, using: &random)
            #expect(problem == nil, "\(phase) step \(step), \(model.count) rows")
            return problem == nil
        }
        // Grow from empty by single insertions until the tree has several levels.
        for number in 0..<6000 {
            step(insert: 80, remove: 10, rebuild: false)
            if number % 10 == 0, !verify("growing", number) { return }
        }
        #expect(model.count > 64 * 48)
        // A packed build, then mixed changes.
        model = (0..<10_000).map { _ in randomHeight(using: &random) }
        index = OffsetIndex(heights: model)
        guard verify("built", 0) else { return }
        for number in 0..<3000 {
            step(insert: 50, remove: 25, rebuild: true)
            if number % 20 == 0, !verify("mixed", number) { return }
        }
        // Shrink to empty, then grow again.
        var number = 0
        while !model.isEmpty {
            step(insert: 0, remove: 80, rebuild: false)
            if number % 100 == 0 || model.count < 300, !verify("shrinking", number) { return }
            number += 1
        }
        guard verify("empty", number) else { return }
        for number in 0..<200 {
            step(insert: 70, remove: 15, rebuild: false)
            if !verify("regrowing", number) { return }
        }
        #expect(index.allHeights == model)
    }

    /// Offsets stay exact at ten million rows of alternating heights.
    @Test(.tags(.slow)) func exactAtTenMillionRows() {
        let rows = 10_000_000
        var heights = Array(repeating: 44, count: rows)
        for odd in stride(from: 1, to: rows, by: 2) { heights[odd] = 71 }
        var index = OffsetIndex(heights: heights)
        #expect(index.count == rows)
        #expect(index.totalHeight == (44 + 71) * rows / 2)
        let last = rows - 1
        let lastOffset = 44 * (last + 1) / 2 + 71 * (last / 2)
        #expect(index.offset(of: last) == lastOffset)
        #expect(index.position(atOffset: lastOffset) == (last, 0))
        #expect(index.position(atOffset: lastOffset - 1) == (last - 1, 43))
        #expect(index.position(atOffset: lastOffset + 70) == (last, 70))
        #expect(index.position(atOffset: index.totalHeight + 5) == (last, 76))
        #expect(index.offset(of: 5_000_001) == 115 * 2_500_000 + 44)
        #expect(index.position(atOffset: 115 * 2_500_000 + 44) == (5_000_001, 0))
        index.insert(1_000, at: 0)
        index.setHeight(3, at: 5_000_002)
        #expect(index.remove(at: 1) == 44)
        #expect(index.offset(of: last) == lastOffset + 1_000 - 44 + (3 - 71))
        #expect(index.position(atOffset: lastOffset + 1_000 - 44 + (3 - 71)) == (last, 0))
    }

    @Test func emptyIndex() {
        for index in [OffsetIndex(), OffsetIndex(heights: [])] {
            #expect(index.count == 0)
            #expect(index.totalHeight == 0)
            #expect(index.offset(of: 0) == 0)
            #expect(index.allHeights.isEmpty)
            #expect(index.checkInvariants() == nil)
        }
    }

    @Test func singleRow() {
        var index = OffsetIndex()
        index.insert(44, at: 0)
        #expect(index.count == 1)
        #expect(index.height(at: 0) == 44)
        #expect(index.offset(of: 0) == 0)
        #expect(index.offset(of: 1) == 44)
        #expect(index.position(atOffset: -5) == (0, -5))
        #expect(index.position(atOffset: 0) == (0, 0))
        #expect(index.position(atOffset: 43) == (0, 43))
        #expect(index.position(atOffset: 44) == (0, 44))
        index.setHeight(0, at: 0)
        #expect(index.totalHeight == 0)
        #expect(index.position(atOffset: 0) == (0, 0))
        #expect(index.remove(at: 0) == 0)
        #expect(index.count == 0)
        #expect(index.checkInvariants() == nil)
    }

    /// A row of height 0 covers no offset: the next row with a height does.
    @Test func zeroHeightRowsCoverNothing() {
        let index = OffsetIndex(heights: [0, 0, 5, 0, 3, 0])
        #expect(index.position(atOffset: 0) == (2, 0))
        #expect(index.position(atOffset: 4) == (2, 4))
        #expect(index.position(atOffset: 5) == (4, 0))
        #expect(index.position(atOffset: 8) == (5, 0))
        #expect(index.position(atOffset: 9) == (5, 1))
        #expect(OffsetIndex(heights: [0, 0, 0]).position(atOffset: 0) == (2, 0))
    }

    @Test func removeToEmptyThenInsertAgain() {
        var index = OffsetIndex(heights: (0..<5000).map { $0 % 7 })
        var expected = (0..<5000).map { $0 % 7 }
        while index.count > 0 {
            let position = index.count / 3
            #expect(index.remove(at: position) == expected.remove(at: position))
            if index.count < 500 || index.count % 50 == 0 {
                #expect(index.checkInvariants() == nil, "\(index.count) rows")
            }
        }
        #expect(index.totalHeight == 0)
        #expect(index.checkInvariants() == nil)
        for height in 0..<300 { index.insert(height, at: index.count / 2) }
        #expect(index.count == 300)
        #expect(index.totalHeight == (0..<300).reduce(0, +))
        #expect(index.checkInvariants() == nil)
    }

    /// Repeated insertions at the front split the first leaf and inner nodes over and over.
    @Test func insertAtFrontRepeatedly() {
        var index = OffsetIndex()
        let rows = 64 * 64 * 3
        for height in 0..<rows { index.insert(height % 100, at: 0) }
        #expect(index.checkInvariants() == nil)
        #expect(index.allHeights == (0..<rows).reversed().map { $0 % 100 })
        var offset = 0
        for position in 0..<rows {
            #expect(index.offset(of: position) == offset)
            offset += index.height(at: position)
        }
        #expect(index.offset(of: rows) == offset)
    }

    /// Copies are independent values.
    @Test func valueSemantics() {
        let original = OffsetIndex(heights: Array(repeating: 10, count: 1000))
        var copy = original
        copy.insert(5, at: 0)
        copy.setHeight(1, at: 500)
        #expect(original.count == 1000)
        #expect(original.totalHeight == 10_000)
        #expect(original.allHeights == Array(repeating: 10, count: 1000))
        #expect(copy.totalHeight == 10_000 + 5 - 9)
    }
}
