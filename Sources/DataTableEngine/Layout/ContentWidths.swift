import TextMeasure

/// Every column's display-text widths in one measure (terminal cells, or one font face's
/// units), kept up to date as rows are added, edited and deleted, so a layout after a change
/// costs no re-measuring of the table.
///
/// Per column it keeps counts of widths (``WidthCounts``), which give the widest content; for
/// columns whose cells may wrap to two lines it also keeps each row's width, which decides the
/// row's height.
struct ContentWidths: Sendable {
    let measure: any TextMeasure
    private(set) var columns: [WidthCounts]
    /// For each column that may wrap (by column index): each slot's width.
    private(set) var rowWidths: [Int: [Int32]]

    /// Measures every row of `table` in `measure`, keeping each row's width in the `wrapping`
    /// columns.
    init(measure: any TextMeasure, wrapping: [Int], table: Table) {
        self.measure = measure
        rowWidths = Dictionary(
            uniqueKeysWithValues: wrapping.map { ($0, [Int32](repeating: 0, count: table.slotCount)) }
        )
        columns = Array(repeating: WidthCounts(), count: table.columns.count)
        measureSlots(0..<UInt32(table.slotCount), of: table)
    }

    /// Each column's widest content: what a column plan reads of the rows (``Table/layoutGeneration``
    /// changes when it does).
    var widest: [Int] { columns.map(\.widest) }

    /// Whether this keeps the widths `table`'s columns need now (a column's wrapping may have
    /// been asked for after these were measured).
    func covers(wrapping: [Int]) -> Bool { wrapping.allSatisfy { rowWidths[$0] != nil } }

    /// Counts the cells of `slots` (new rows, or all of them), one column per core.
    mutating func measureSlots(_ slots: Range<UInt32>, of table: Table) {
        let measure = self.measure
        let existing = columns
        let existingRows = rowWidths
        let measured = ConcurrentPieces.map(table.columns.count) { column -> (WidthCounts, [Int32]?) in
            var counts = existing[column]
            var rows = existingRows[column]
            if rows != nil, rows!.count < table.slotCount {
                rows!.append(contentsOf: repeatElement(0, count: table.slotCount - rows!.count))
            }
            let rules = table.columns[column].rules
            let store = table.stores[column]
            // Image columns have a fixed width; their references are never drawn as text.
            guard store.type != .image else { return (counts, rows) }
            func measured(_ value: CellValue) -> Int32 { Int32(clamping: measure.units(rules.displayText(value))) }
            if store.isCoded {
                // Each different text is measured once, and its cells counted by code.
                let dictionary = store.dictionary
                var widths = [Int32](repeating: -1, count: dictionary.codeCount)
                var cells = [Int](repeating: 0, count: dictionary.codeCount)
                func countCodes<Code: FixedWidthInteger>(_ codes: [Code]) {
                    codes.withUnsafeBufferPointer { codes in
                        for slot in slots {
                            let code = Int(codes[Int(slot)])
                            guard code != 0 else { continue }
                            cells[code] += 1
                            guard rows != nil else { continue }
                            if widths[code] < 0 { widths[code] = measured(.text(dictionary.text(of: code))) }
                            rows![Int(slot)] = widths[code]
                        }
                    }
                }
                switch store.codes.storage {
                case .one(let codes): countCodes(codes)
                case .two(let codes): countCodes(codes)
                case .four(let codes): countCodes(codes)
                }
                for code in cells.indices where cells[code] > 0 {
                    if widths[code] < 0 { widths[code] = measured(.text(dictionary.text(of: code))) }
                    counts.add(Int(widths[code]), times: cells[code])
                }
            } else if store.type != .text {
                // Numbers, dates and the other kinds repeat: each different value is measured
                // once (by its stored bits), and its cells counted together.
                var memo = WidthMemo()
                for slot in slots {
                    guard let bits = store.bits(at: slot) else { continue }
                    let width = memo.count(bits) { measured(store[slot]) }
                    rows?[Int(slot)] = width
                }
                memo.forEach { width, cells in counts.add(Int(width), times: cells) }
            } else {
                for slot in slots {
                    let value = store[slot]
                    if value.isEmpty { continue }
                    let width = measured(value)
                    counts.add(Int(width))
                    rows?[Int(slot)] = width
                }
            }
            return (counts, rows)
        }
        for column in columns.indices {
            let (counts, rows) = measured[column]
            columns[column] = counts
            if let rows { rowWidths[column] = rows }
        }
    }

    /// Counts a cell's new value in place of its old one.
    mutating func replace(_ old: CellValue, with new: CellValue, slot: UInt32, column: Int, rules: ColumnRules) {
        guard rules.type != .image else { return }
        let oldWidth = old.isEmpty ? 0 : measure.units(rules.displayText(old))
        let newWidth = new.isEmpty ? 0 : measure.units(rules.displayText(new))
        columns[column].remove(oldWidth)
        columns[column].add(newWidth)
        if rowWidths[column] != nil {
            let index = Int(slot)
            if rowWidths[column]!.count <= index {
                rowWidths[column]!.append(contentsOf: repeatElement(0, count: index + 1 - rowWidths[column]!.count))
            }
            rowWidths[column]![index] = Int32(clamping: newWidth)
        }
    }

    /// Whether each wrapping column's row widths take slots below `limit` without growing.
    func hasRoom(forSlotsBelow limit: Int) -> Bool { rowWidths.values.allSatisfy { $0.capacity >= limit } }

    /// Makes room in each wrapping column's row widths for slots below `limit`.
    mutating func makeRoom(forSlotsBelow limit: Int) {
        for column in rowWidths.keys { rowWidths[column]!.reserveCapacity(limit) }
    }

    /// The width of a slot's cell in a wrapping column.
    func width(slot: UInt32, column: Int) -> Int {
        guard let rows = rowWidths[column], Int(slot) < rows.count else { return 0 }
        return Int(rows[Int(slot)])
    }
}
