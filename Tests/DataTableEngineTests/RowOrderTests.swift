import DataTableEngine
import TestSupport
import Testing

@Suite struct RowOrderTests {
    /// Random inserts and removes, checked step by step against a plain array.
    @Test(arguments: [UInt64(1), 2, 3, 42])
    func behavesLikeAnArray(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var order = RowOrder()
        var model: [UInt32] = []
        var nextSlot: UInt32 = 0
        var free: [UInt32] = []
        for step in 0..<6000 {
            let grow = model.count < 50 || Int.random(in: 0..<10, using: &random) < (step < 4000 ? 7 : 3)
            if grow {
                let slot =
                    free.popLast()
                    ?? {
                        defer { nextSlot += 1 }; return nextSlot
                    }()
                let position = Int.random(in: 0...model.count, using: &random)
                order.insert(slot, at: position)
                model.insert(slot, at: position)
            } else {
                let position = Int.random(in: 0..<model.count, using: &random)
                let removed = order.remove(at: position)
                #expect(removed == model.remove(at: position))
                free.append(removed)
            }
            if step % 500 == 0 {
                #expect(order.checkInvariants() == nil)
                #expect(order.allSlots == model)
            }
        }
        #expect(order.checkInvariants() == nil)
        #expect(order.count == model.count)
        #expect(order.allSlots == model)
        for (position, slot) in model.enumerated() {
            #expect(order.slot(at: position) == slot)
            #expect(order.position(of: slot) == position)
        }
        for slot in free { #expect(order.position(of: slot) == nil) }
    }

    /// An order built without a slot index (as a summary's order by value is) inserts and
    /// removes by position like any other, through splits and emptied leaves, and repeats no
    /// slot it was given twice.
    @Test func anOrderWithoutASlotIndexBehavesLikeAnArray() {
        var random = SeededRandom(seed: 5)
        var model = (0..<UInt32(3000)).map { $0 * 3 }
        var order = RowOrder(model, indexed: false)
        Self.insertAndRemoveAtRandom(&order, &model, steps: 4000, insertsInTen: 6, using: &random)
        #expect(order.checkInvariants() == nil)
        #expect(order.allSlots == model)
        for position in stride(from: 0, to: model.count, by: 97) {
            #expect(order.slot(at: position) == model[position])
        }
    }

    @Test(.tags(.slow)) func growsThroughSeveralLevelsOfSplits() {
        var random = SeededRandom(seed: 11)
        var order = RowOrder()
        var model: [UInt32] = []
        for slot in 0..<UInt32(300_000) {
            let position = slot % 3 == 0 ? Int.random(in: 0...model.count, using: &random) : model.count
            order.insert(slot, at: position)
            model.insert(slot, at: position)
        }
        #expect(order.checkInvariants() == nil)
        #expect(order.allSlots == model)
        var mismatches = 0
        for _ in 0..<200_000 {
            let position = Int.random(in: 0..<model.count, using: &random)
            if order.remove(at: position) != model.remove(at: position) { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(order.checkInvariants() == nil)
        #expect(order.allSlots == model)
        let probe = model[model.count / 3]
        #expect(order.position(of: probe) == model.count / 3)
    }

    @Test func bulkBuiltOrdersAnswerLikeInsertedOnes() {
        var random = SeededRandom(seed: 7)
        let slots = (0..<100_000).map { UInt32($0) }.shuffled(using: &random)
        var order = RowOrder(slots)
        #expect(order.checkInvariants() == nil)
        #expect(order.count == slots.count)
        // (Built on every core at this size: every slot is where it was put, and found there.)
        #expect(order.allSlots == slots)
        #expect(slots.indices.filter { order.position(of: slots[$0]) != $0 }.isEmpty)
        #expect(RowOrder(slots, indexed: false).allSlots == slots)
        for position in stride(from: 0, to: slots.count, by: 997) {
            #expect(order.slot(at: position) == slots[position])
        }
        #expect(order.slots(from: 99_990, limit: 40) == Array(slots[99_990...]))
        order.insert(100_000, at: 0)
        order.remove(at: 50_000)
        #expect(order.checkInvariants() == nil)
        #expect(order.slot(at: 0) == 100_000)
    }

    @Test func removingEverythingLeavesAnEmptyUsableOrder() {
        var order = RowOrder((0..<5000).map { UInt32($0) })
        while order.count > 0 { order.remove(at: order.count / 2) }
        #expect(order.checkInvariants() == nil)
        #expect(order.allSlots.isEmpty)
        order.append(7)
        order.insert(3, at: 0)
        #expect(order.allSlots == [3, 7])
        #expect(order.remove(7) == 1)
        #expect(order.remove(7) == nil)
    }

    @Test func windowsNeverRunPastTheEnds() {
        let order = RowOrder((0..<300).map { UInt32($0) })
        #expect(order.slots(from: 290, limit: 40).count == 10)
        #expect(order.slots(from: 300, limit: 40).isEmpty)
        #expect(order.slots(from: -5, limit: 3) == [0, 1, 2])
    }

    /// An order of the slots in sequence (as a table is loaded or added to) answers like any
    /// other, and goes on doing so through every kind of change: appending the next slot,
    /// removing the last, then inserting, removing and appending anywhere.
    @Test(arguments: [false, true])
    func anOrderInSequenceBehavesLikeAnArray(builtWhole: Bool) {
        var random = SeededRandom(seed: builtWhole ? 21 : 22)
        var model = (0..<UInt32(2000)).map { $0 }
        var order = RowOrder()
        if builtWhole {
            order = RowOrder(model)
        } else {
            for slot in model { order.append(slot) }
        }
        func check() {
            #expect(order.checkInvariants() == nil)
            #expect(order.count == model.count)
            #expect(order.allSlots == model)
            var visited: [UInt32] = []
            order.forEachSlot { visited.append($0) }
            #expect(visited == model)
            for position in model.indices {
                #expect(order.slot(at: position) == model[position])
                #expect(order.position(of: model[position]) == position)
            }
            #expect(order.slots(from: model.count - 5, limit: 10) == Array(model.suffix(5)))
            // Ranges that start and end inside leaves, span many, or hold one slot.
            for _ in 0..<20 {
                let from = Int(random.next() % UInt64(model.count + 1))
                let limit = Int(random.next() % 300)
                #expect(order.slots(from: from, limit: limit) == Array(model[from..<min(model.count, from + limit)]))
            }
            #expect(!order.contains(UInt32(model.count + 100)))
            #expect(order.position(of: UInt32(model.count + 100)) == nil)
        }
        check()
        // The last slot removed, and the next appended, keep the sequence.
        #expect(order.remove(at: model.count - 1) == model.removeLast())
        #expect(order.remove(UInt32(model.count - 1)) == model.count - 1)
        model.removeLast()
        order.append(UInt32(model.count))
        model.append(UInt32(model.count))
        check()
        // A slot appended out of turn, or one taken from the middle, ends it.
        let changes = builtWhole ? [5000, 17] : [17, 5000]
        for change in changes {
            if change == 5000 {
                order.append(UInt32(change))
                model.append(UInt32(change))
            } else {
                #expect(order.remove(at: change) == model.remove(at: change))
            }
            check()
        }
        Self.insertAndRemoveAtRandom(&order, &model, steps: 3000, insertsInTen: 5, using: &random)
        check()
    }

    /// Emptied from the end, an order in sequence can start again from slot 0, or be given any
    /// slot.
    @Test func anEmptiedOrderInSequenceTakesAnySlot() {
        var order = RowOrder((0..<3).map { UInt32($0) })
        while order.count > 0 { order.remove(at: order.count - 1) }
        #expect(order.allSlots.isEmpty)
        #expect(!order.contains(0))
        order.append(0)
        #expect(order.allSlots == [0])
        order.insert(9, at: 0)
        #expect(order.allSlots == [9, 0])
        #expect(order.position(of: 0) == 1)
        #expect(order.checkInvariants() == nil)
    }

    /// Inserts slots 10,000 + step at random positions (`insertsInTen` steps in ten, and always
    /// when the order is empty) and removes at random otherwise, in `order` and `model` alike,
    /// expecting each removal to take the same slot from both.
    private static func insertAndRemoveAtRandom(
        _ order: inout RowOrder,
        _ model: inout [UInt32],
        steps: Int,
        insertsInTen: Int,
        using random: inout SeededRandom
    ) {
        for step in 0..<steps {
            if model.isEmpty || Int.random(in: 0..<10, using: &random) < insertsInTen {
                let position = Int.random(in: 0...model.count, using: &random)
                order.insert(UInt32(10_000 + step), at: position)
                model.insert(UInt32(10_000 + step), at: position)
            } else {
                let position = Int.random(in: 0..<model.count, using: &random)
                #expect(order.remove(at: position) == model.remove(at: position))
            }
        }
    }
}
