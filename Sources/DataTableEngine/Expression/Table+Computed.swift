import Dispatch

/// Computed cells: worked out from the row's other cells whenever one they follow from is set,
/// so every structure that reads cells (sort, filters, sections, widths, change sets) sees them
/// as it sees stored ones.
extension Table {
    /// Resolves the computed columns among `columns` (``ComputedColumns/resolve(_:)``), naming a
    /// refused column's definition with `field`.
    static func resolveComputed(
        _ columns: [Column],
        field: (Int) -> String
    ) throws(TableError) -> (columns: [Column], computed: ComputedColumns) {
        do throws(ComputedColumnError) {
            return try ComputedColumns.resolve(columns)
        } catch {
            throw .invalidExpression(
                "\(columns[error.column].key): \(error.error.message)",
                field: field(error.column) + "." + error.member,
                offset: error.error.offset
            )
        }
    }

    /// The value the computed column `column` has for the row in `slot`, from its cells now.
    func computedValue(_ column: Int, slot: UInt32) -> CellValue {
        computed.value(of: column, type: columns[column].type, row: ExpressionRow(stores: stores, slot: slot))
    }

    /// Works out again the computed cells of the row in `slot` that follow from `column`.
    mutating func deriveCells(of slot: UInt32, after column: Int) {
        for dependent in computed.dependents(of: column) { rederive(dependent, slot: slot) }
    }

    /// Works out every computed cell of the row in `slot`.
    mutating func deriveRow(_ slot: UInt32) {
        for column in computed.order { rederive(column, slot: slot) }
    }

    private mutating func rederive(_ column: Int, slot: UInt32) {
        // (Worked out before the store is written: nothing then holds the stores but the table.)
        let value = computedValue(column, slot: slot)
        if value != cell(column, slot) { storeCell(value, slot: slot, column: column) }
    }

    /// Works out every computed cell of the slots in `range`, filled in bulk (a load): O(rows)
    /// per computed column, no step noted per cell.
    mutating func deriveSlots(_ range: Range<UInt32>) {
        for column in computed.order { fillComputed(column, slots: range) }
    }

    /// Works out every row's value of the computed columns among `wanted` and of those that
    /// follow from them, in bulk (an `alter`): O(rows) per column.
    mutating func deriveColumns(_ wanted: Set<Int>) {
        var all = wanted
        for column in wanted { all.formUnion(computed.dependents(of: column)) }
        for column in computed.order where all.contains(column) {
            fillComputed(column, slots: 0..<UInt32(slotCount))
            // Slots no row holds stay empty.
            for slot in freeSlots { stores[column][slot] = .empty }
        }
    }

    /// Writes the computed column `column` for the slots in `range`. The column's store is
    /// taken out of the table while it is written, so that reading the rows' other cells never
    /// makes the store copy itself (an expression never reads its own column). A number column
    /// (the usual case: arithmetic) is worked out in pieces on every core.
    private mutating func fillComputed(_ column: Int, slots range: Range<UInt32>) {
        let type = columns[column].type
        var store = stores[column]
        stores[column] = ColumnStore(type: type)
        let program = computed.programs[column]!
        let others = stores
        if type == .number && range.count >= Self.parallelFillRows {
            store.numbers.withDoubles { buffer in
                let numbers = UnsafeMutableSendableBuffer(buffer)
                let pieceCount = (range.count + Self.parallelFillRows - 1) / Self.parallelFillRows
                DispatchQueue.concurrentPerform(iterations: pieceCount) { piece in
                    let start = Int(range.lowerBound) + piece * Self.parallelFillRows
                    for slot in start..<min(Int(range.upperBound), start + Self.parallelFillRows) {
                        let value = program.evaluate(ExpressionRow(stores: others, slot: UInt32(slot)))
                        numbers.buffer[slot] =
                            if case .number(let number) = value, number.isFinite { number } else { .nan }
                    }
                }
            }
            store.narrowNumbers()
        } else {
            for slot in range {
                store[slot] = program.evaluate(ExpressionRow(stores: others, slot: slot)).cellValue(of: type)
            }
        }
        stores[column] = store
    }

    /// Rows per piece of a computed number column worked out in parallel (smaller ones are
    /// worked out on the caller's thread).
    static let parallelFillRows = 65_536
}
