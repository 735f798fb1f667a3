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

    /// Keeps the number `number` for `slot`, below the capacity it was made with.
    mutating func setNumber(_ number: Double, at slot: UInt32) { numbers[Int(slot)] = number }

    /// Roughly what the values take in memory.
    var bytes: Int { numbers.count * 8 + cells.count * MemoryLayout<CellValue>.stride }
}
