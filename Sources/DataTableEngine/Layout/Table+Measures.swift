extension Table {
    /// Whether a ``layout(_:)`` or ``scroll(_:_:view:)`` in `options` can answer from the widths
    /// and row offsets the table keeps, without measuring every row first.
    ///
    /// Options that the layout would refuse count as measured: refusing costs nothing.
    public func isMeasured(for options: LayoutOptions) -> Bool {
        guard options.sizeClass != .compact || options.horizontalScroll else { return true }
        var hints = columns.map(\.layout)
        for (key, override) in options.columns {
            guard let index = columnIndex[key] else { return true }
            hints[index] = hints[index].merging(override)
        }
        let wrapping = columns.indices.filter {
            hints[$0].binding?.isAccessory != true && hints[$0].lineCount > 1 && columns[$0].type != .image
        }
        let identity = options.data.measure.identity
        guard let widths = contentWidths.first(where: { $0.measure.identity == identity }),
            widths.covers(wrapping: wrapping)
        else { return false }
        // Rows of one height need no offsets; rows that wrap need an index per rule.
        return wrapping.isEmpty || keptOffsets.contains { $0.rule.measure == identity }
    }

    /// Measures what a layout or scroll in `options` needs (every row's widths, and the row
    /// offsets of its plan), so that a copy of the table can do the O(n) work and hand the
    /// result back with ``adoptMeasures(of:)``.
    public mutating func measure(for options: LayoutOptions) throws(TableError) {
        let plan = try layout(options)
        _ = rowOffsets(for: plan.heightRule)
    }

    /// Takes the widths and row offsets `other` measured, when `other` is this table at the same
    /// version (a copy measured while this one did not change). Returns whether it took them.
    @discardableResult
    public mutating func adoptMeasures(of other: Table) -> Bool {
        guard other.version == version, other.name == name, other.rowCount == rowCount else { return false }
        contentWidths = other.contentWidths
        keptOffsets = other.keptOffsets
        return true
    }
}
