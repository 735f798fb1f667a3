import Testing

@testable import DataTableServer

/// Changes heard from a source are merged until they are read back: each key once, in the
/// order first heard; every row once asked for stays every row; a catch-up is kept apart.
@Suite struct PendingChangesTests {
    @Test func keysHeardTwiceAreReadOnceInTheOrderFirstHeard() {
        let pending = PendingChanges()
        pending.add("public.parts", keys: ["3", "1"])
        pending.add("public.parts", keys: ["1", "2", "3"])
        pending.add("public.bins", keys: ["a"])
        let batch = pending.take()
        #expect(batch.relations == ["public.parts": ["3", "1", "2"], "public.bins": ["a"]])
        #expect(!batch.catchUp)
        #expect(pending.take().isEmpty)
    }

    @Test func everyRowOnceAskedForStaysEveryRow() {
        let pending = PendingChanges()
        pending.add("public.parts", keys: ["1"])
        pending.add("public.parts", keys: nil)
        pending.add("public.parts", keys: ["2"])
        let everyRow: [String: [String]?] = ["public.parts": [String]?.none]
        #expect(pending.take().relations == everyRow)
        // Taken: keys heard afterwards are a batch of their own.
        pending.add("public.parts", keys: ["2"])
        #expect(pending.take().relations == ["public.parts": ["2"]])
    }

    @Test func aCatchUpIsPendingUntilTaken() {
        let pending = PendingChanges()
        pending.addCatchUp()
        let batch = pending.take()
        #expect(batch.catchUp && batch.relations.isEmpty && !batch.isEmpty)
        #expect(pending.take().isEmpty)
    }
}
