import Synchronization

/// Numbers that say "this may have changed since": a table takes a new one whenever what it
/// stands for changes, and what was worked out under a stamp stays good while the stamp is
/// the same, however many changes came in between.
///
/// They come from one counter for every table, so no two tables (nor a table dropped and made
/// again under its name) ever share one.
enum Stamp {
    private static let counter = Atomic<UInt64>(0)

    /// A number no table had before.
    static func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }
}

extension Table {
    /// Notes that a column plan made before now may no longer be the plan
    /// (``layoutGeneration``): views lay out again.
    mutating func newLayoutGeneration() {
        layoutGeneration = Stamp.next()
    }
}
