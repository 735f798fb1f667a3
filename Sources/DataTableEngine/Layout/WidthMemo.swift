/// The widths of the different values of one column met while measuring it, with how many cells
/// hold each: a value that repeats (a date, a quantity) is measured once.
///
/// Keyed by a value's stored bits (``ColumnStore/bits(at:)``), in an open-addressed table probed
/// linearly and kept at most half full. Once it holds ``capacity`` values, a new value is
/// measured each time it comes (a column of values that hardly repeat gains nothing from it).
struct WidthMemo {
    /// The most different values kept.
    static let capacity = 1 << 16

    private var keys = [UInt64](repeating: 0, count: 64)
    /// By place: the width plus one (0: a free place).
    private var widths = [Int32](repeating: 0, count: 64)
    private var cells = [Int](repeating: 0, count: 64)
    private var count = 0
    /// Cells counted by width, of values met once the table was full.
    private var overflow: [Int32: Int] = [:]

    /// The width of the value with `bits`, measured by `measure` the first time; counts one
    /// more cell of it.
    mutating func count(_ bits: UInt64, measure: () -> Int32) -> Int32 {
        let mask = keys.count - 1
        var place = Self.place(bits, mask)
        while widths[place] != 0 {
            if keys[place] == bits {
                cells[place] += 1
                return widths[place] - 1
            }
            place = (place + 1) & mask
        }
        let width = max(0, measure())
        guard count < Self.capacity else {
            overflow[width, default: 0] += 1
            return width
        }
        keys[place] = bits
        widths[place] = width + 1
        cells[place] = 1
        count += 1
        if count * 2 > keys.count { grow() }
        return width
    }

    /// Calls `body` with each width and how many cells have it (a width may come more than once).
    func forEach(_ body: (_ width: Int32, _ cells: Int) -> Void) {
        for place in widths.indices where widths[place] != 0 { body(widths[place] - 1, cells[place]) }
        for (width, cells) in overflow { body(width, cells) }
    }

    private static func place(_ bits: UInt64, _ mask: Int) -> Int {
        let mixed = (bits ^ bits &>> 29) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed ^ mixed &>> 32) & mask
    }

    private mutating func grow() {
        let (oldKeys, oldWidths, oldCells) = (keys, widths, cells)
        let size = keys.count * 2
        let mask = size - 1
        keys = Array(repeating: 0, count: size)
        widths = Array(repeating: 0, count: size)
        cells = Array(repeating: 0, count: size)
        for old in oldKeys.indices where oldWidths[old] != 0 {
            var place = Self.place(oldKeys[old], mask)
            while widths[place] != 0 { place = (place + 1) & mask }
            keys[place] = oldKeys[old]
            widths[place] = oldWidths[old]
            cells[place] = oldCells[old]
        }
    }
}
