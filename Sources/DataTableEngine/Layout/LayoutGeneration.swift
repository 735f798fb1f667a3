import Synchronization

/// Numbers that say when a table's column plan may have changed: every table starts with one
/// of its own, and takes a new one whenever something a plan reads changes (the columns, the
/// selection mode, a column's widest content). A view's kept plan stays good while the table's
/// number is the one it was made under, however many changes came in between.
///
/// They come from one counter for every table, so no two tables (nor a table dropped and made
/// again under its name) ever share one.
enum LayoutGeneration {
    private static let counter = Atomic<UInt64>(0)

    /// A number no table had before.
    static func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }
}

extension Table {
    /// Notes that a column plan made before now may no longer be the plan: views lay out again.
    mutating func newLayoutGeneration() {
        layoutGeneration = LayoutGeneration.next()
    }
}
