import TextMeasure

extension Table {
    /// How many measures' widths a table keeps; asking for another drops the oldest.
    static let contentWidthsLimit = 4

    /// The column plan for a container (brief, "Layout rules"). The first layout in a measure
    /// measures every row; later ones use the widths kept since, so a layout after a change
    /// costs no re-measuring. Does not change the table's version.
    public mutating func layout(_ options: LayoutOptions) throws(TableError) -> LayoutPlan {
        let hints = try viewHints(options.columns)
        guard options.width > 0 else { throw .invalidLayout("width must be more than 0.", field: "width") }
        if options.leftAccessory == .chevron {
            throw .invalidLayout("The chevron goes on the right.", field: "leftAccessory")
        }
        if let right = options.rightAccessory, right != .none && right != .chevron {
            throw .invalidLayout("Only the chevron goes on the right.", field: "rightAccessory")
        }

        // Columns bound to an accessory drive it, and hidden ones are left out: neither is drawn.
        let shown = try shownColumns(hints, order: options.columnOrder)
        if options.sizeClass == .compact && !options.horizontalScroll {
            return listPlan(options, hints: hints, shown: shown)
        }
        let wrapping = shown.filter { hints[$0].lineCount > 1 && columns[$0].type != .image }
        let widths = keptWidths(in: options.data.measure, wrapping: wrapping)
        if !viewOrderColumns.isEmpty {
            if viewOrderMagnitudes == nil { viewOrderMagnitudes = measuredMagnitudes() }
            viewOrderRowPower = Self.ceilingPowerOfTen(Double(rowCount))
        }
        return tablePlan(
            options,
            hints: hints,
            shown: shown,
            syncColumn: hints.firstIndex { $0.binding == .syncStatus },
            drillDownColumn: hints.firstIndex { $0.binding == .drillDown },
            widths: widths
        )
    }

    /// The columns' layout hints with a view's (or one layout's) in place of theirs, checked as
    /// a table's own are.
    func viewHints(_ overrides: [String: ColumnLayout]) throws(TableError) -> [ColumnLayout] {
        var hints = columns.map(\.layout)
        for (key, override) in overrides.sorted(by: { $0.key < $1.key }) {
            guard let index = columnIndex[key] else { throw .noSuchColumn(key, row: nil) }
            hints[index] = hints[index].merging(override)
        }
        do {
            try TableSchema.checkLayout(hints, types: columns.map(\.type)) { "columns.\(columns[$0].key)" }
        } catch {
            if case .invalidSchema(let message, let field) = error { throw .invalidLayout(message, field: field) }
            throw error
        }
        return hints
    }

    /// Checks a view's column state (a layout's `columns` and `columnOrder`) as a layout would,
    /// without laying out: a column kept by name must lay out when it is restored.
    public func checkColumnState(columns overrides: [String: ColumnLayout], order: [String]) throws(TableError) {
        _ = try shownColumns(viewHints(overrides), order: order)
    }

    /// The columns a layout draws, in its order: the keys of `order` first, then the rest in
    /// the table's order; leaving out the hidden ones and those bound to an accessory.
    func shownColumns(_ hints: [ColumnLayout], order: [String]) throws(TableError) -> [Int] {
        let first = try columnIndices(order) { .invalidLayout("columnOrder names \($0) twice.", field: "columnOrder") }
        let ordered = first + columns.indices.filter { !first.contains($0) }
        return ordered.filter { hints[$0].binding?.isAccessory != true && hints[$0].hidden != true }
    }

    /// The indices of the columns `keys` names, in that order: a key the table lacks is
    /// ``TableError/noSuchColumn(_:row:)``, one named twice what `twice` makes of it.
    func columnIndices(_ keys: [String], twice: (String) -> TableError) throws(TableError) -> [Int] {
        var indices: [Int] = []
        for key in keys {
            guard let index = columnIndex[key] else { throw .noSuchColumn(key, row: nil) }
            guard !indices.contains(index) else { throw twice(key) }
            indices.append(index)
        }
        return indices
    }

    /// The grid: columns solved for the container, header and row heights.
    private func tablePlan(
        _ options: LayoutOptions,
        hints: [ColumnLayout],
        shown: [Int],
        syncColumn: Int?,
        drillDownColumn: Int?,
        widths: ContentWidths
    ) -> LayoutPlan {
        let padding = 2 * options.cellPadding
        let left =
            options.leftAccessory
            ?? (selectionMode == .multiple ? .checkbox : syncColumn != nil ? .syncStatus : Accessory.none)
        let right = options.rightAccessory ?? (drillDownColumn != nil ? .chevron : Accessory.none)
        var settings = ColumnSolver.Settings(container: options.width)
        settings.leftAccessory = left == .none ? 0 : options.accessoryWidth
        settings.rightAccessory = right == .none ? 0 : options.accessoryWidth
        settings.spacing = options.spacing
        settings.horizontalScroll = options.horizontalScroll
        settings.imageWidth = options.imageWidth
        settings.minShare = options.minShare
        settings.maxShare = options.maxShare

        let solverColumns = shown.map { index in
            let column = columns[index]
            let label = options.header.wholeWidth(units: options.header.measure.units(column.label))
            let cells = options.data.wholeWidth(
                units: viewOrderColumns[index] == nil
                    ? widths.columns[index].widest : options.data.measure.units(viewOrderWidest(index))
            )
            let word = column.label.split(separator: " ").map { options.header.measure.units(String($0)) }.max() ?? 0
            return ColumnSolver.Column(
                natural: max(label, cells) + padding,
                isImage: column.type == .image,
                width: hints[index].width,
                minWidth: hints[index].minWidth,
                maxWidth: hints[index].maxWidth,
                headerWord: options.header.wholeWidth(units: word) + padding
            )
        }
        let placements = ColumnSolver.solve(solverColumns, settings)

        var planned: [LayoutPlan.PlacedColumn] = []
        var headerLines = 1
        var wrapThresholds: [RowHeightRule.Threshold] = []
        for (position, index) in shown.enumerated() {
            let placement = placements[position]
            let column = columns[index]
            let inner = max(0, placement.width - padding)
            let header =
                placement.omitted
                ? [column.label]
                : options.header.wrap(column.label, toWidth: Double(inner), maxLines: 2, breakingWords: false)
            if !placement.omitted { headerLines = max(headerLines, header.count) }
            let lines = column.type == .image ? 1 : hints[index].lineCount
            if lines > 1 && !placement.omitted && placement.truncated {
                wrapThresholds.append(.init(column: index, units: Self.widestFitting(inner, style: options.data)))
            }
            planned.append(
                LayoutPlan.PlacedColumn(
                    key: column.key,
                    x: placement.x,
                    width: placement.width,
                    align: hints[index].align ?? Self.defaultAlignment(column.type),
                    lines: lines,
                    truncated: placement.truncated,
                    omitted: placement.omitted,
                    header: header,
                    binding: nil
                )
            )
        }

        var sticky: LayoutPlan.StickyColumn?
        if options.horizontalScroll, options.stickyFirstColumn ?? (shown.first.map { hints[$0].isSticky } ?? false),
            let first = planned.first
        {
            sticky = LayoutPlan.StickyColumn(
                key: first.key,
                width: first.width,
                minWidth: min(first.width, ColumnSolver.share(options.minShare, of: options.width))
            )
        }
        let lastEdge = planned.compactMap { column in column.x.map { $0 + column.width } }.max() ?? 0
        let contentWidth = max(options.width, lastEdge + settings.rightAccessory)
        let lineHeight = options.data.lineHeight
        let headerLineHeight = options.header.lineHeight
        let headerHeight = headerLines * headerLineHeight + 2 * options.headerPadding
        let rowHeight = max(options.minRowHeight, lineHeight + 2 * options.rowPadding)
        let twoLineRowHeight = max(options.minRowHeight, 2 * lineHeight + 2 * options.rowPadding)
        let twoLineRows = countTwoLineRows(wrapThresholds, widths: widths)
        return LayoutPlan(
            mode: .table,
            unit: options.unit,
            sizeClass: options.sizeClass,
            horizontalScroll: options.horizontalScroll,
            width: options.width,
            columns: planned,
            leftAccessory: left == .none ? nil : .init(kind: left, x: 0, width: settings.leftAccessory),
            rightAccessory: right == .none
                ? nil : .init(kind: right, x: options.width - settings.rightAccessory, width: settings.rightAccessory),
            sticky: sticky,
            headerHeight: headerHeight,
            headerLines: headerLines,
            rowHeight: rowHeight,
            twoLineRowHeight: twoLineRowHeight,
            twoLineRows: twoLineRows,
            rowCount: rowCount,
            lineHeight: lineHeight,
            headerLineHeight: headerLineHeight,
            contentWidth: contentWidth,
            contentHeight: headerHeight + rowCount * rowHeight + twoLineRows * (twoLineRowHeight - rowHeight),
            bindings: [],
            heightRule: RowHeightRule(
                measure: options.data.measure.identity,
                thresholds: wrapThresholds,
                rowHeight: rowHeight,
                tallHeight: twoLineRowHeight
            ),
            syncStatusColumn: syncColumn.map { columns[$0].key },
            drillDownColumn: drillDownColumn.map { columns[$0].key }
        )
    }

    /// The list report: every row an object view, columns bound to its places.
    private func listPlan(_ options: LayoutOptions, hints: [ColumnLayout], shown: [Int]) -> LayoutPlan {
        let bound = ListBinding.bind(shown.map { (columns[$0].type == .image, hints[$0].binding) })
        var bindingOf: [Int: ListBinding] = [:]
        for (binding, position) in bound { bindingOf[shown[position]] = binding }
        let places = ObjectViewGeometry.place(bound.map(\.0), options: options)
        let planned = shown.map { index in
            let column = columns[index]
            let place = bindingOf[index].flatMap { places[$0] }
            return LayoutPlan.PlacedColumn(
                key: column.key,
                x: place?.x,
                width: place?.width ?? 0,
                align: hints[index].align ?? Self.defaultAlignment(column.type),
                lines: 1,
                truncated: false,
                omitted: bindingOf[index] == nil,
                header: [column.label],
                binding: bindingOf[index]
            )
        }
        let textLines = bound.filter { [.headline, .subheadline, .footnote].contains($0.0) }.count
        let lineHeight = options.data.lineHeight
        let rowHeight = max(options.minRowHeight, max(1, textLines) * lineHeight + 2 * options.rowPadding)
        return LayoutPlan(
            mode: .list,
            unit: options.unit,
            sizeClass: options.sizeClass,
            horizontalScroll: false,
            width: options.width,
            columns: planned,
            leftAccessory: nil,
            rightAccessory: nil,
            sticky: nil,
            headerHeight: 0,
            headerLines: 0,
            rowHeight: rowHeight,
            twoLineRowHeight: rowHeight,
            twoLineRows: 0,
            rowCount: rowCount,
            lineHeight: lineHeight,
            headerLineHeight: options.header.lineHeight,
            contentWidth: options.width,
            contentHeight: rowCount * rowHeight,
            bindings: bound.map { .init(binding: $0.0, column: columns[shown[$0.1]].key) },
            heightRule: .uniform(rowHeight)
        )
    }

    /// Numbers and durations line up on the right, images and checkboxes in the middle,
    /// everything else on the left.
    static func defaultAlignment(_ type: ColumnType) -> ColumnLayout.Alignment {
        switch type {
        case .number, .duration: .trailing
        case .image, .boolean: .center
        default: .leading
        }
    }

    /// The most measure units that still fit in `width` whole layout units.
    static func widestFitting(_ width: Int, style: TextStyle) -> Int {
        // A start within a unit or two of the answer: the loops below step only a few times.
        let estimate = Double(width) / style.scale
        var units = estimate.isFinite ? Int(min(max(estimate, 0), Double(Int32.max))) : 0
        while style.wholeWidth(units: units + 1) <= width { units += 1 }
        while units > 0 && style.wholeWidth(units: units) > width { units -= 1 }
        return units
    }

    /// Rows with a cell wider than its wrapping column (each given as the most units that fit).
    private func countTwoLineRows(_ thresholds: [RowHeightRule.Threshold], widths: ContentWidths) -> Int {
        switch thresholds.count {
        case 0: return 0
        case 1: return widths.columns[thresholds[0].column].count(widerThan: thresholds[0].units)
        default:
            var count = 0
            natural.forEachSlot { slot in
                if thresholds.contains(where: { widths.width(slot: slot, column: $0.column) > $0.units }) { count += 1 }
            }
            return count
        }
    }

    /// The widths kept in `measure`, measuring every row first when there are none (or they
    /// lack a wrapping column's per-row widths).
    private mutating func keptWidths(in measure: any TextMeasure, wrapping: [Int]) -> ContentWidths {
        if let index = contentWidths.firstIndex(where: { $0.measure.identity == measure.identity }) {
            let kept = contentWidths[index]
            if kept.covers(wrapping: wrapping) { return kept }
            contentWidths.remove(at: index)
            forgetRowOffsets(measure: measure.identity)
        }
        let fresh = ContentWidths(measure: measure, wrapping: wrapping, table: self)
        if contentWidths.count >= Self.contentWidthsLimit {
            forgetRowOffsets(measure: contentWidths.removeFirst().measure.identity)
        }
        contentWidths.append(fresh)
        return fresh
    }
}
