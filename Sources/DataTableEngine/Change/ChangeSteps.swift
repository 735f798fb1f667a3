/// What the change under way has done so far, slot by slot, in the order it did it: written by
/// the table's few primitive mutations (a cell set, a row placed in or taken out of the current
/// order, a row given or losing its id, the order or columns rebuilt), read once when the change
/// ends (``Table/settle()``), when every derived structure takes it in and the keyed
/// ``ChangeSet`` is made from it.
struct ChangeSteps: Sendable {
    /// A row placed in, or taken out of, the current order at a position of it as it was then.
    enum OrderStep: Sendable {
        case inserted(UInt32, at: Int)
        case removed(UInt32, at: Int)

        var slot: UInt32 {
            switch self {
            case .inserted(let slot, _), .removed(let slot, _): slot
            }
        }
    }

    /// How much of the order a change rebuilt at once.
    enum Rebuild: Int, Sendable, Comparable {
        /// Nothing: every move is an ``OrderStep``.
        case none
        /// The order, from rows it had (a sort, a large delete): rows admitted before still are.
        case order
        /// The rows or columns, in bulk (a load, an alter): every row must be looked at again.
        case rows

        static func < (left: Rebuild, right: Rebuild) -> Bool { left.rawValue < right.rawValue }
    }

    /// The table's version when the change began, and when it ended.
    var from: UInt64 = 1
    var to: UInt64 = 1
    /// Rows placed in and taken out of the current order, in sequence. (Once the order was
    /// rebuilt the positions mean nothing, but the slots still say which rows were touched.)
    var order: [OrderStep] = []
    /// Cells set: slot, column, and the value before (a cell set twice has two entries; the
    /// first holds its value before the change).
    var cells: [(slot: UInt32, column: Int, old: CellValue)] = []
    /// Rows that came in: the slot and the id it was given, in order.
    var newRows: [(slot: UInt32, id: RowID)] = []
    /// The ids of rows that went, in order.
    var removedIDs: [RowID] = []
    /// Slots whose selection changed.
    var selection: [UInt32] = []
    /// Slots whose drafts were set or cleared.
    var drafts: [UInt32] = []
    /// More cells were set than ``cellLimit``: ``cells`` lists only the first ones.
    var tooManyCells = false
    /// Slots filled in bulk at the end of the stores, never set one cell at a time (a load).
    var appended: Range<UInt32>?
    /// How much of the order was rebuilt at once.
    var rebuilt = Rebuild.none
    /// Columns were added, dropped or redefined.
    var schema = false

    /// The most cells a change lists one by one (about 2 MB of steps); a change that sets more
    /// is taken in as a whole.
    static let cellLimit = 65_536

    /// Whether nothing was done.
    var isEmpty: Bool {
        order.isEmpty && cells.isEmpty && newRows.isEmpty && removedIDs.isEmpty && selection.isEmpty
            && drafts.isEmpty && appended == nil && rebuilt == .none && !schema
    }

    /// Notes slots filled in bulk.
    mutating func append(_ slots: Range<UInt32>) {
        appended = appended.map { min($0.lowerBound, slots.lowerBound)..<max($0.upperBound, slots.upperBound) } ?? slots
    }

    /// The slots of ``order`` steps, each once.
    func placedSlots() -> [UInt32] {
        var seen: Set<UInt32> = []
        return order.compactMap { seen.insert($0.slot).inserted ? $0.slot : nil }
    }

    /// The cells set, each once, with the value it had before the change.
    func firstTouches() -> [(slot: UInt32, column: Int, old: CellValue)] {
        guard cells.count > 1 else { return cells }
        var seen: Set<UInt64> = []
        return cells.filter { seen.insert(UInt64($0.slot) << 32 | UInt64($0.column)).inserted }
    }

    /// The slots of cells set, each once with the columns set in it, leaving out those in
    /// `except`.
    func cellColumns(except: Set<UInt32>) -> [(slot: UInt32, columns: [Int])] {
        var result: [(slot: UInt32, columns: [Int])] = []
        var at: [UInt32: Int] = [:]
        for cell in cells where !except.contains(cell.slot) {
            if let index = at[cell.slot] {
                if !result[index].columns.contains(cell.column) { result[index].columns.append(cell.column) }
            } else {
                at[cell.slot] = result.count
                result.append((cell.slot, [cell.column]))
            }
        }
        return result
    }
}
