/// Row ids of a key column → slots, without keeping a second copy of the ids: a ``HashSlots``
/// of slots, each id hashed by ``SeededHash`` and read back from the key column (`idOf`).
struct KeyIndex: Sendable {
    private var slots = HashSlots()

    var count: Int { slots.count }

    /// The hash of `id`: its text's bytes or its number.
    static func hash(_ id: RowID) -> UInt64 {
        switch id {
        case .number(let number): return SeededHash.number(number)
        case .text(var text): return text.withUTF8 { SeededHash.bytes($0) }
        }
    }

    /// The slot of the row with `id`.
    func find(_ id: RowID, idOf: (UInt32) -> RowID) -> UInt32? {
        slots.find(Self.hash(id)) { idOf($0) == id }
    }

    /// The slot of the row with `id`, told by `holds` whether a slot's row has it.
    func find(_ id: RowID, holds: (UInt32) -> Bool) -> UInt32? {
        slots.find(Self.hash(id), matches: holds)
    }

    /// Adds `slot`, whose row has `id` (not yet in the index).
    mutating func insert(_ slot: UInt32, id: RowID, idOf: (UInt32) -> RowID) {
        slots.insert(slot, hash: Self.hash(id))
    }

    /// Adds `slot`, whose row has `id`, unless a row with `id` is there already: then returns
    /// that row's slot and adds nothing. One probe does both.
    mutating func insertUnlessPresent(_ slot: UInt32, id: RowID, idOf: (UInt32) -> RowID) -> UInt32? {
        slots.insertUnlessPresent(slot, hash: Self.hash(id), matches: { idOf($0) == id })
    }

    /// Makes room for `total` entries without growing again.
    mutating func reserve(_ total: Int) {
        slots.reserve(total)
    }

    /// Whether `total` entries fit without growing.
    func hasRoom(forTotal total: Int) -> Bool { slots.hasRoom(forTotal: total) }

    /// Removes the entry for `id`, if there is one.
    mutating func remove(_ id: RowID, idOf: (UInt32) -> RowID) {
        slots.remove(Self.hash(id), matches: { idOf($0) == id })
    }

    /// Below this many rows an empty index is filled one row after another.
    static let piecewiseMinimum = HashSlots.piecewiseMinimum

    /// Fills an empty index with `slots`, whose ids hash to `hashes` (``hash(_:)``), on every
    /// core (``HashSlots/fill(_:hashes:same:)``); returns the positions in `slots` of
    /// the rows whose id an earlier one of `slots` has, in ascending order (those rows are left
    /// out).
    mutating func fill(_ slots: [UInt32], hashes: [UInt64], idOf: @escaping @Sendable (UInt32) -> RowID) -> [Int] {
        self.slots.fill(slots, hashes: hashes, same: { idOf($0) == idOf($1) })
    }
}
