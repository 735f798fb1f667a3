/// One row as a reader sees it.
public struct RowSnapshot: Sendable {
    /// The row's id.
    public var id: RowID
    /// Position in the current order.
    public var index: Int
    /// Values in column order.
    public var values: [CellValue]
    /// Rejected inputs by column index.
    public var drafts: [Int: Draft]
    /// Whether the row is selected.
    public var selected: Bool
    /// Per column: whether the cell is read-only after every level of setting is applied.
    public var readOnly: [Bool]
    /// Highlight intensity of a newly added row (1 → 0 over ``Table/highlightSeconds``).
    public var highlight: Double
    /// The table's version when the row's cells or drafts last changed.
    public var version: UInt64
}

extension Table {
    /// The rows with `ids`, in the order asked; an unknown id is ``TableError/noSuchRow(_:)``.
    /// With `columns` (per column index, whether it is read), only those columns' values and
    /// read-only flags are read (the others are `.empty` and `false`): a `get` of one cell
    /// reads one cell.
    ///
    /// `within` a view's filter, `index` counts the rows it shows, and a row it leaves out is
    /// ``TableError/invalidArgument(_:field:)`` (`ids[i]`).
    public func rows(ids: [RowID], now: Double = 0, columns: [Bool]? = nil, within filter: UInt64? = nil)
        throws(TableError) -> [RowSnapshot]
    {
        var result: [RowSnapshot] = []
        result.reserveCapacity(ids.count)
        let mask = columnMask(columns)
        let shown = filter.flatMap(filterIndex)
        // The view-order columns read, and the sums they need, worked out once for every row.
        let viewOrder = viewOrderColumns.isEmpty ? [] : viewOrderColumns.keys.filter { mask[$0] }
        let sums = viewOrder.isEmpty ? [:] : viewOrderSums(ViewRows(filter: shown), for: viewOrder)
        for (position, id) in ids.enumerated() {
            let slot = try requireSlot(id)
            guard let index = shownPosition(shown, of: slot) else {
                throw .invalidArgument(
                    "Row \(id) is not shown: the view's filter leaves it out.",
                    field: "ids[\(position)]"
                )
            }
            var row = snapshot(slot: slot, index: index, now: now, mask: mask)
            for column in viewOrder {
                row.values[column] =
                    viewOrderValues(column, rows: ViewRows(filter: shown), from: index, slots: [slot], sums: sums)[0]
            }
            result.append(row)
        }
        return result
    }

    /// Up to `count` rows from position `from` of the current order (`within` a view's filter:
    /// of the rows it shows); `columns` as in ``rows(ids:now:columns:within:)``.
    public func rows(from: Int, count: Int, now: Double = 0, columns: [Bool]? = nil, within filter: UInt64? = nil)
        -> [RowSnapshot]
    {
        let shown = filter.flatMap(filterIndex)
        guard from >= 0, from < shownCount(shown), count > 0 else { return [] }
        let mask = columnMask(columns)
        let slots = shownSlots(shown, from: from, limit: count)
        var rows = slots.enumerated().map { offset, slot in
            snapshot(slot: slot, index: from + offset, now: now, mask: mask)
        }
        let viewOrder = viewOrderColumns.keys.filter { mask[$0] }
        let sums = viewOrder.isEmpty ? [:] : viewOrderSums(ViewRows(filter: shown), for: viewOrder)
        for column in viewOrder {
            let values = viewOrderValues(column, rows: ViewRows(filter: shown), from: from, slots: slots, sums: sums)
            for offset in rows.indices { rows[offset].values[column] = values[offset] }
        }
        return rows
    }

    /// Calls `body` with every row's values, in the current order or only the selected rows.
    public func forEachRow(selectedOnly: Bool = false, _ body: (_ id: RowID, _ values: [CellValue]) -> Void) {
        order.forEachSlot { slot in
            if selectedOnly && !flags[Int(slot)].selected { return }
            body(id(of: slot), stores.map { $0[slot] })
        }
    }

    /// Per column, whether it is read: all of them without `columns`.
    private func columnMask(_ columns: [Bool]?) -> [Bool] {
        guard let columns else { return Array(repeating: true, count: self.columns.count) }
        precondition(
            columns.count == self.columns.count,
            "a mask of \(columns.count) for \(self.columns.count) columns"
        )
        return columns
    }

    private func snapshot(slot: UInt32, index: Int, now: Double, mask: [Bool]) -> RowSnapshot {
        RowSnapshot(
            id: id(of: slot),
            index: index,
            // Each store borrowed where it lies, not copied (its arrays retained) to read a cell.
            values: stores.withUnsafeBufferPointer { stores in
                stores.indices.map { mask[$0] ? cell($0, slot) : .empty }
            },
            drafts: drafts.isEmpty ? [:] : drafts[slot] ?? [:],
            selected: flags[Int(slot)].selected,
            readOnly: columns.indices.map { mask[$0] ? isReadOnly(slot: slot, column: $0) : false },
            highlight: highlight(of: slot, now: now),
            version: rowVersion(ofSlot: slot)
        )
    }
}
