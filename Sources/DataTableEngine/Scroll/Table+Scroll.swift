import TextMeasure

extension Table {
    /// The window of a view: the columns and rows visible in a viewport of `options.width` ×
    /// `input.height`, from an explicit offset, a target row, or the view's anchor. Costs
    /// O(log n) to find the first row plus the rows shown, whatever the table's size (the
    /// first scroll of a plan measures the table, like ``layout(_:)``). Updates `view`.
    public mutating func scroll(
        _ options: LayoutOptions,
        _ input: ScrollInput,
        view: inout ViewState
    ) throws(TableError) -> ScrollWindow {
        try Self.check(input)
        let options = insetOptions(options, view: view)
        let plan = try plan(options, view: &view)
        let rows = viewRows(view)
        if !viewOrderColumns.isEmpty { keepViewOrderSums(rows) }
        if case .sectioned(let index) = rows {
            keepSectionOffsets(index, for: plan.heightRule)
            return try window(plan, sectionGeometry(index, plan: plan, options: options)!, options, input, view: &view)
        }
        let offsets =
            view.filter.flatMap { filteredOffsets($0, for: plan.heightRule) } ?? rowOffsets(for: plan.heightRule)
        return try window(plan, offsets, options, input, view: &view)
    }

    /// ``scroll(_:_:view:)`` when it needs no change to the table: the view's plan is current
    /// and the row offsets its heights need, and the sums its view-order columns need, are kept
    /// (as after any scroll of the view, until the table or the options change). Otherwise `nil`, having changed nothing: scroll with
    /// ``scroll(_:_:view:)``. Many readers may scroll this way at once.
    public func scrollAsIs(
        _ options: LayoutOptions,
        _ input: ScrollInput,
        view: inout ViewState
    ) throws(TableError) -> ScrollWindow? {
        try Self.check(input)
        let options = insetOptions(options, view: view)
        guard let plan = currentPlan(options, view: view),
            viewOrderColumns.isEmpty || viewOrderSumsKept(viewRows(view))
        else { return nil }
        switch viewRows(view) {
        case .sectioned(let index):
            guard let geometry = sectionGeometry(index, plan: plan, options: options) else { return nil }
            return try window(plan, geometry, options, input, view: &view)
        case .filtered:
            guard let offsets = keptFilteredOffsets(view.filter!, for: plan.heightRule) else { return nil }
            return try window(plan, offsets, options, input, view: &view)
        case .all:
            guard let offsets = keptRowOffsets(for: plan.heightRule) else { return nil }
            return try window(plan, offsets, options, input, view: &view)
        }
    }

    private static func check(_ input: ScrollInput) throws(TableError) {
        guard input.height > 0 else { throw .invalidArgument("height must be more than 0.", field: "viewport.height") }
        guard input.overscan >= 0 else { throw .invalidArgument("overscan must be 0 or more.", field: "overscan") }
    }

    /// The window of `view` under `plan`, whose row heights `offsets` holds.
    private func window(
        _ plan: LayoutPlan,
        _ offsets: some ViewOffsets,
        _ options: LayoutOptions,
        _ input: ScrollInput,
        view: inout ViewState
    ) throws(TableError) -> ScrollWindow {
        let shown = viewRows(view)
        let rowCount = count(of: shown)
        let header = plan.headerHeight
        let contentHeight = header + offsets.totalHeight
        let maxY = max(0, contentHeight - input.height)

        var y: Int
        if let target = input.target {
            y = try targetOffset(
                target,
                in: shown,
                offsets: offsets,
                header: header,
                height: input.height,
                currentY: view.y
            )
        } else if let explicit = input.y {
            y = explicit
        } else if view.follow == .top && view.wasAtTop {
            y = 0
        } else if view.follow == .bottom && view.wasAtBottom {
            y = maxY
        } else {
            y = anchoredOffset(view, in: shown, offsets: offsets, header: header)
        }
        y = min(max(0, y), maxY)
        let x = plan.horizontalScroll ? min(max(0, input.x ?? view.x), max(0, plan.contentWidth - options.width)) : 0

        var columns = windowColumns(plan, options: options, x: x)
        let inset = shown.sectionsIndex.map { SectionMetrics(sections[$0].spec, unit: options.unit).inset } ?? 0
        for index in columns.indices { columns[index].x += inset }
        var cellPlans: [WindowCell] = []
        // The read-only cells of a row with no setting of its own (or of its cells), shared by
        // every such row.
        var columnsReadOnly: [Int] = []
        cellPlans.reserveCapacity(columns.count)
        for (position, column) in columns.enumerated() {
            let store = columnIndex[column.key]!
            cellPlans.append(WindowCell(column, store: store, rules: self.columns[store].rules, options: options))
            if columnIsReadOnly(store) { columnsReadOnly.append(position) }
        }
        var rows: [ScrollWindow.Row] = []
        var text = WindowText(capacity: 0)
        var firstVisible: Int?
        var lastVisible: Int?
        let rowsBottom = y + input.height - header
        // With the chevron, the store of the column that says which rows have it, if any.
        let drillDown: Int?? =
            plan.rightAccessory?.kind == .chevron ? .some(plan.drillDownColumn.flatMap { columnIndex[$0] }) : nil
        if rowCount > 0, rowsBottom > y {
            let first = offsets.position(atOffset: y).position
            let last = offsets.position(atOffset: rowsBottom - 1).position
            firstVisible = first
            lastVisible = last
            let from = max(0, first - input.overscan)
            let to = min(rowCount - 1, last + input.overscan)
            var top = header + offsets.offset(of: from) - y
            let widths = contentWidths.first { $0.measure.identity == plan.heightRule.measure }
            text = WindowText(capacity: (to - from + 1) * columns.count)
            let slots = slots(of: shown, from: from, limit: to - from + 1)
            var values = gather(slots, cellPlans)
            if !viewOrderColumns.isEmpty {
                for (position, cell) in cellPlans.enumerated() where followsViewOrder(cell.store) {
                    values[position] = viewOrderValues(cell.store, rows: shown, from: from, slots: slots)
                }
            }
            for (offset, slot) in slots.enumerated() {
                // Sections put headers (and footers, and space) between some rows.
                if shown.sectionsIndex != nil { top = header + offsets.offset(of: from + offset) - y }
                let height =
                    plan.heightRule.isUniform || widths == nil
                    ? plan.heightRule.rowHeight : Self.height(of: slot, under: plan.heightRule, widths: widths!)
                rows.append(
                    windowRow(
                        slot: slot,
                        index: from + offset,
                        y: top,
                        height: height,
                        tall: height != plan.heightRule.rowHeight,
                        cells: cellPlans,
                        columnsReadOnly: columnsReadOnly,
                        values: values,
                        offset: offset,
                        into: &text,
                        options: options,
                        now: input.now,
                        syncStatus: plan.leftAccessory?.kind == .syncStatus ? plan.syncStatusColumn : nil,
                        drillDown: drillDown,
                        withValues: input.values
                    )
                )
                top += height
            }
        }

        var newAbove = 0
        // Rows added since the view last looked that its filter leaves out.
        var hiddenNew: Int?
        if let seen = view.seenVersion, seen != version, let firstVisible,
            let anchor = slot(of: rows[firstVisible - (rows.first?.index ?? 0)].id)
        {
            let added = countNewRows(before: firstVisible, anchor: anchor, in: shown, view: &view)
            newAbove = added.exact ? added.above : max(added.above, firstVisible - view.anchorIndex)
            if shownFilter(view) != nil { hiddenNew = added.hidden }
        } else if shownFilter(view) != nil {
            hiddenNew = view.seenVersion.map { $0 == version ? 0 : rowsAddedHidden(since: $0, from: shown) } ?? 0
        }
        view.x = x
        view.y = y
        view.height = input.height
        if input.looks || view.seenVersion == nil {
            view.seenVersion = version
            view.newRows = nil
            view.anchorIndex = firstVisible ?? 0
        }
        view.wasAtTop = y == 0
        view.wasAtBottom = y == maxY
        view.shown = []
        if let firstVisible, let lastVisible {
            let from = rows.first?.index ?? 0
            view.shown.reserveCapacity(lastVisible - firstVisible + 1)
            for index in firstVisible...lastVisible {
                view.shown.append(ViewState.ShownRow(id: rows[index - from].id, y: rows[index - from].y))
            }
        }

        return ScrollWindow(
            plan: plan,
            x: x,
            y: y,
            width: options.width,
            height: input.height,
            contentWidth: plan.contentWidth,
            contentHeight: contentHeight,
            headerHeight: header,
            shadow: y > 0,
            columns: columns,
            rows: rows,
            text: text,
            firstVisible: firstVisible,
            lastVisible: lastVisible,
            newAbove: newAbove,
            rowCount: self.rowCount,
            shownCount: shownFilter(view).map { filters[$0].rows.count },
            hiddenNew: hiddenNew,
            filterDescription: shownFilter(view).map { filters[$0].filter.description(in: self) },
            sections: (offsets as? SectionGeometry).map { geometry in
                windowSections(
                    geometry,
                    index: shown.sectionsIndex!,
                    y: y,
                    height: input.height,
                    header: header,
                    first: firstVisible,
                    last: lastVisible,
                    overscan: input.overscan
                )
            }
        )
    }

    // MARK: The rows a view shows

    /// The index in ``filters`` of the view's filter; `nil` when it shows every row.
    func shownFilter(_ view: ViewState) -> Int? {
        view.filter.flatMap(filterIndex)
    }

    /// The rows a view shows, in its order.
    enum ViewRows {
        /// The table's, in the current order.
        case all
        /// Those its filter (this index in ``Table/filters``) lets through.
        case filtered(Int)
        /// In sections (this index in ``Table/sections``).
        case sectioned(Int)

        /// The rows a filter (its index in ``Table/filters``) shows; every row without one.
        init(filter: Int?) {
            self = filter.map(ViewRows.filtered) ?? .all
        }

        var sectionsIndex: Int? {
            if case .sectioned(let index) = self { return index }
            return nil
        }

        var isAll: Bool {
            if case .all = self { return true }
            return false
        }
    }

    func viewRows(_ view: ViewState) -> ViewRows {
        if let index = view.sections.flatMap(sectionsIndex) { return .sectioned(index) }
        if let index = shownFilter(view) { return .filtered(index) }
        return .all
    }

    func count(of rows: ViewRows) -> Int {
        switch rows {
        case .all: rowCount
        case .filtered(let index): filters[index].rows.count
        case .sectioned(let index): sections[index].shownCount
        }
    }

    func slots(of rows: ViewRows, from position: Int, limit: Int) -> [UInt32] {
        switch rows {
        case .all: orderSlots(from: position, limit: limit)
        case .filtered(let index): filters[index].rows.slots(from: position, limit: limit)
        case .sectioned(let index): sections[index].shownSlots(from: position, limit: limit)
        }
    }

    func position(in rows: ViewRows, of slot: UInt32) -> Int? {
        switch rows {
        case .all: orderPosition(of: slot)
        case .filtered(let index): filters[index].rows.position(of: slot)
        case .sectioned(let index):
            sections[index].rows.position(of: slot).flatMap(sections[index].shownPosition(ofFull:))
        }
    }

    /// How many rows the view with filter `shown` shows.
    func shownCount(_ shown: Int?) -> Int {
        count(of: ViewRows(filter: shown))
    }

    /// Up to `limit` of the rows shown from `position` on, in order.
    func shownSlots(_ shown: Int?, from position: Int, limit: Int) -> [UInt32] {
        slots(of: ViewRows(filter: shown), from: position, limit: limit)
    }

    /// The position of `slot` among the rows shown; `nil` when it is not shown.
    func shownPosition(_ shown: Int?, of slot: UInt32) -> Int? {
        position(in: ViewRows(filter: shown), of: slot)
    }

    /// The content offset that brings the row with `id` fully into view for `view` (as little
    /// scrolling as needed), or `nil` when the view has not scrolled yet.
    public mutating func offset(bringingIntoView id: RowID, options: LayoutOptions, view: inout ViewState)
        throws(TableError) -> Int?
    {
        guard view.seenVersion != nil else { return nil }
        let options = insetOptions(options, view: view)
        let plan = try plan(options, view: &view)
        let rows = viewRows(view)
        func bringing(_ offsets: some ViewOffsets) throws(TableError) -> Int {
            let y = try targetOffset(
                .row(id, .nearest),
                in: rows,
                offsets: offsets,
                header: plan.headerHeight,
                height: view.height,
                currentY: view.y
            )
            return min(max(0, y), max(0, plan.headerHeight + offsets.totalHeight - view.height))
        }
        if case .sectioned(let index) = rows {
            keepSectionOffsets(index, for: plan.heightRule)
            return try bringing(sectionGeometry(index, plan: plan, options: options)!)
        }
        return try bringing(
            view.filter.flatMap { filteredOffsets($0, for: plan.heightRule) } ?? rowOffsets(for: plan.heightRule)
        )
    }

    /// The view's plan, made again when the table or the options changed since, or when the
    /// widths its row heights come from were dropped for other measures.
    private mutating func plan(_ options: LayoutOptions, view: inout ViewState) throws(TableError) -> LayoutPlan {
        if let plan = currentPlan(options, view: view) { return plan }
        let plan = try layout(options)
        view.plan = plan
        view.planOptions = options
        view.planGeneration = layoutGeneration
        return plan
    }

    /// The view's plan, when it is still the plan for `options`: nothing a plan reads has
    /// changed since (``layoutGeneration``), and a grid's widths are still kept (only kept
    /// widths are kept current; a list report reads none). Its row count and content height may
    /// be out of date: a window takes those from the rows.
    func currentPlan(_ options: LayoutOptions, view: ViewState) -> LayoutPlan? {
        guard let plan = view.plan, view.planGeneration == layoutGeneration, view.planOptions == options,
            plan.mode == .list
                || contentWidths.contains(where: { $0.measure.identity == plan.heightRule.measure })
        else { return nil }
        return plan
    }

    /// Where the view's anchor row is now, as the offset that keeps it at the same place on
    /// screen. A deleted anchor hands over to the next row that was shown; with none of them
    /// left, the row now at the anchor's old position takes its place.
    private func anchoredOffset(_ view: ViewState, in rows: ViewRows, offsets: some ViewOffsets, header: Int) -> Int {
        let rowCount = count(of: rows)
        guard rowCount > 0 else { return 0 }
        for shown in view.shown {
            if let slot = slot(of: shown.id), let position = position(in: rows, of: slot) {
                return header + offsets.offset(of: position) - shown.y
            }
        }
        guard let first = view.shown.first else { return view.y }
        return header + offsets.offset(of: min(view.anchorIndex, rowCount - 1)) - first.y
    }

    /// The content offset that shows `target` as it asks.
    private func targetOffset(
        _ target: ScrollTarget,
        in rows: ViewRows,
        offsets: some ViewOffsets,
        header: Int,
        height: Int,
        currentY: Int
    ) throws(TableError) -> Int {
        let rowCount = count(of: rows)
        let position: Int
        let align: ScrollAlignment
        switch target {
        case .row(let id, let alignment):
            guard let slot = slot(of: id) else { throw .noSuchRow(id) }
            guard let found = self.position(in: rows, of: slot) else {
                let collapsed = rows.sectionsIndex.map { sections[$0].rows.contains(slot) } ?? false
                throw .invalidArgument(
                    collapsed
                        ? "Row \(id) is not shown: it is in a collapsed group (expand it first)."
                        : "Row \(id) is not shown: the view's filter leaves it out.",
                    field: "to.id"
                )
            }
            (position, align) = (found, alignment)
        case .index(let index, let alignment):
            guard index >= 0, index < rowCount else {
                throw .invalidArgument(
                    rowCount == 0
                        ? (rows.isAll ? "The table has no rows." : "The view shows no rows.")
                        : "index must be from 0 to \(rowCount - 1).",
                    field: "to.index"
                )
            }
            (position, align) = (index, alignment)
        case .section(let input):
            guard let geometry = offsets as? SectionGeometry, let index = rows.sectionsIndex else {
                throw .invalidArgument("The view has no sections (give sections first).", field: "to.section")
            }
            let rules = columns[sections[index].spec.column].rules
            let shape = sections[index].shape
            guard let value = try? rules.parseComparand(input),
                let group = (0..<shape.groupCount(0)).first(where: {
                    sections[index].path(shape.leaves(0, group: $0).lowerBound).first == value
                })
            else {
                throw .invalidArgument("The view has no section \(input.draftText).", field: "to.section")
            }
            // Its header at the top, below the table's.
            return geometry.headerTop(shape.leaves(0, group: group).lowerBound, level: 0)
        }
        // Plain sections' headers stick over the rows below the table's header, one a level:
        // a row is in view below them.
        var covered = header
        if let geometry = offsets as? SectionGeometry, let index = rows.sectionsIndex,
            sections[index].spec.style == .plain
        {
            covered += geometry.metrics.header * sections[index].depth
            if sections[index].spec.grandTotal == .pinnedTop { covered += geometry.metrics.totalAbove }
        }
        let top = header + offsets.offset(of: position)
        let rowHeight = offsets.height(at: position)
        let bottom = top + rowHeight
        switch align {
        case .top: return top - covered
        case .bottom: return bottom - height
        case .center: return top + rowHeight / 2 - (covered + (height - covered) / 2)
        case .nearest:
            if top >= currentY + covered && bottom <= currentY + height { return currentY }
            return top < currentY + covered ? top - covered : bottom - height
        }
    }

    /// The columns on screen at horizontal offset `x`: the sticky first column at its width for
    /// `x`, then every column that reaches into the space between it and the right accessory.
    private func windowColumns(_ plan: LayoutPlan, options: LayoutOptions, x: Int) -> [ScrollWindow.Column] {
        let padding = 2 * options.cellPadding
        if plan.mode == .list {
            return plan.bindings.compactMap { placement in
                guard let column = plan.column(placement.column) else { return nil }
                return ScrollWindow.Column(
                    key: column.key,
                    x: column.x ?? options.cellPadding,
                    width: column.x == nil ? max(0, plan.width - padding) : column.width,
                    align: column.align,
                    lines: 1,
                    header: column.header,
                    sticky: false,
                    truncated: true,
                    binding: placement.binding
                )
            }
        }
        let left = plan.leftAccessory?.width ?? 0
        let right = plan.rightAccessory?.width ?? 0
        var result: [ScrollWindow.Column] = []
        var visibleFrom = left
        for column in plan.columns {
            guard !column.omitted, let columnX = column.x else { continue }
            if let sticky = plan.sticky, sticky.key == column.key {
                let width = sticky.width(atOffset: x)
                let header =
                    width == column.width
                    ? column.header
                    : column.header.map {
                        options.header.truncate($0, toWidth: Double(max(0, width - padding))).text
                    }
                result.append(
                    .init(
                        key: column.key,
                        x: columnX,
                        width: width,
                        align: column.align,
                        lines: column.lines,
                        header: header,
                        sticky: true,
                        truncated: column.truncated || width < column.width,
                        binding: nil
                    )
                )
                visibleFrom = columnX + width
                continue
            }
            let screenX = columnX - x
            guard screenX + column.width > visibleFrom, screenX < plan.width - right else { continue }
            result.append(
                .init(
                    key: column.key,
                    x: screenX,
                    width: column.width,
                    align: column.align,
                    lines: column.lines,
                    header: column.header,
                    sticky: false,
                    truncated: column.truncated,
                    binding: nil
                )
            )
        }
        return result
    }

    /// The values of the window's cells, column by column: the rows of a sorted table lie
    /// scattered in memory, and reading one column's cells in a tight loop lets their cache
    /// misses overlap instead of waiting for each in turn.
    private func gather(_ slots: [UInt32], _ cells: [WindowCell]) -> [[CellValue]] {
        stores.withUnsafeBufferPointer { stores in cells.map { stores[$0.store].values(at: slots) } }
    }

    /// One row on screen, its cells cut to their columns and appended to `text`.
    private func windowRow(
        slot: UInt32,
        index: Int,
        y: Int,
        height: Int,
        tall: Bool,
        cells cellPlans: [WindowCell],
        columnsReadOnly: [Int],
        values: [[CellValue]],
        offset: Int,
        into text: inout WindowText,
        options: LayoutOptions,
        now: Double,
        syncStatus: String?,
        drillDown: Int??,
        withValues: Bool
    ) -> ScrollWindow.Row {
        let rowDrafts = drafts.isEmpty ? nil : drafts[slot]
        let firstCell = text.count
        var cellDrafts: [(column: Int, draft: Draft)] = []
        let ownReadOnly = flags[Int(slot)].readOnly != nil || (!cellReadOnly.isEmpty && cellReadOnly[slot] != nil)
        var readOnly = ownReadOnly ? [] : columnsReadOnly
        // Borrowed in place: a copy of each column's rules per cell costs more than the cell.
        cellPlans.withUnsafeBufferPointer { plans in
            for position in plans.indices {
                let store = plans[position].store
                let draft = rowDrafts?[store]
                if let draft { cellDrafts.append((position, draft)) }
                if ownReadOnly, isReadOnly(slot: slot, column: store) { readOnly.append(position) }
                defer { text.endCell() }
                guard plans[position].cuts || (draft != nil && !plans[position].isImage) else {
                    // Shown whole: written straight from the value, no string made.
                    if let draft {
                        text.append(string: draft.text)
                    } else if plans[position].inViewZone, case .datetime(let milliseconds) = values[position][offset] {
                        text.append(string: DateTimeSyntax.text(milliseconds, zone: options.zone!))
                    } else if plans[position].styled {
                        text.append(string: columns[store].rules.displayText(values[position][offset]))
                    } else {
                        DisplayFormat.append(
                            values[position][offset],
                            decimals: plans[position].decimals,
                            options: columns[store].rules.options,
                            to: &text
                        )
                    }
                    continue
                }
                let value = values[position][offset]
                let shown = OneLine.text(
                    draft?.text
                        ?? (plans[position].inViewZone
                            ? displayText(value, column: store, zone: options.zone)
                            : columns[store].rules.displayText(value))
                )
                guard !shown.isEmpty else { continue }
                let inner = plans[position].inner
                if tall && plans[position].wraps {
                    for (index, line) in options.data.wrap(shown, toWidth: inner, maxLines: 2).enumerated() {
                        if index > 0 { text.append(UInt8(ascii: "\n")) }
                        text.append(string: line)
                    }
                } else {
                    text.append(string: options.data.truncate(shown, toWidth: inner).text)
                }
            }
        }
        var row = ScrollWindow.Row(
            id: id(of: slot),
            index: index,
            y: y,
            height: height,
            tall: tall,
            cellRange: firstCell..<text.count,
            selected: flags[Int(slot)].selected,
            highlight: highlight(of: slot, now: now),
            drafts: cellDrafts,
            readOnly: readOnly
        )
        row.version = rowVersion(ofSlot: slot)
        if withValues { row.values = values.map { $0[offset] } }
        if let drillDown { row.drillDown = drillsDown(slot, column: drillDown) }
        if let syncStatus, let store = columnIndex[syncStatus] {
            let shown = OneLine.text(columns[store].rules.displayText(cell(store, slot)))
            row.syncStatus = shown.isEmpty ? nil : shown
        }
        return row
    }
}

/// What a window needs to draw one of its columns' cells, worked out once per window.
private struct WindowCell {
    /// The column's index in the table.
    var store: Int
    /// The column's `decimals` (its picker options are read from the column: nothing here is
    /// reference-counted, so reading a plan per cell costs no retain).
    var decimals: Int?
    /// The column has a display style: its values are shown through its rules.
    var styled: Bool
    var isImage: Bool
    /// Text may be wider than the column: cut it (or wrap it) to ``inner``.
    var cuts: Bool
    /// A tall row shows two lines of this column.
    var wraps: Bool
    /// The width text may take.
    var inner: Double
    /// A datetime column shown in the view's zone, not its own.
    var inViewZone: Bool

    init(_ column: ScrollWindow.Column, store: Int, rules: ColumnRules, options: LayoutOptions) {
        self.store = store
        decimals = rules.decimals
        styled = rules.style != nil
        isImage = rules.type == .image
        cuts = !isImage && column.truncated
        wraps = column.lines > 1
        inner = Double(max(0, column.width - (column.binding == nil ? 2 * options.cellPadding : 0)))
        inViewZone = rules.type == .datetime && options.zone != nil
    }
}
