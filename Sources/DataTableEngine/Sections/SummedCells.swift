/// A summed column's values as its summaries last took them in, by slot: what a row is found and
/// taken out by after its cell has changed. Kept once for every level of a view's sections and
/// its grand total. A number column's are doubles (NaN for none), 8 bytes a row; other types'
/// are cells.
struct SummedCells: Sendable {
    /// Whether the values are numbers, kept in ``numbers``; else in ``cells``.
    let holdsNumbers: Bool
    private var numbers: [Double] = []
    private var cells: [CellValue] = []

    /// No values yet, for a column of `type`, with room for slots below `capacity`.
    init(type: ColumnType, capacity: Int) {
        holdsNumbers = type == .number
        if holdsNumbers {
            numbers = Array(repeating: .nan, count: capacity)
        } else {
            cells = Array(repeating: .empty, count: capacity)
        }
    }

    /// The value kept for `slot`; `.empty` for none.
    subscript(slot: UInt32) -> CellValue {
        let index = Int(slot)
        guard holdsNumbers else { return index < cells.count ? cells[index] : .empty }
        guard index < numbers.count, !numbers[index].isNaN else { return .empty }
        return .number(numbers[index])
    }

    /// Keeps `value` for `slot` (`.empty`: none).
    mutating func set(_ value: CellValue, at slot: UInt32) {
        let index = Int(slot)
        if holdsNumbers {
            if index >= numbers.count {
                numbers.append(contentsOf: repeatElement(.nan, count: index + 1 - numbers.count))
            }
            if case .number(let number) = value { numbers[index] = number } else { numbers[index] = .nan }
        } else {
            if index >= cells.count { cells.append(contentsOf: repeatElement(.empty, count: index + 1 - cells.count)) }
            cells[index] = value
        }
    }

    /// A number column's values at the slots `leafOfSlot` holds (those not negative): the
    /// store's values copied whole as doubles, then the slots not held emptied.
    init(numbers store: NumberArray, leafOfSlot: [Int32]) {
        holdsNumbers = true
        numbers = store.doubles(count: leafOfSlot.count)
        numbers.withUnsafeMutableBufferPointer { numbers in
            leafOfSlot.withUnsafeBufferPointer { leafOfSlot in
                for slot in leafOfSlot.indices where leafOfSlot[slot] < 0 { numbers[slot] = .nan }
            }
        }
    }

    /// Roughly what the values take in memory.
    var bytes: Int { numbers.count * 8 + cells.count * MemoryLayout<CellValue>.stride }
}
