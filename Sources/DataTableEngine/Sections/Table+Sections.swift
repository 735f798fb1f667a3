import DataTableVocabulary

/// How a view divides its rows into sections (Apple HIG, "Tables": plain, grouped, inset
/// grouped): one section per distinct value of a column.
public struct SectionSpec: Sendable, Equatable {
    /// The HIG's table styles. (The vocabulary the engine shares with the wire.)
    public typealias Style = SectionStyle

    /// The column whose values name the sections (its index in the table).
    public var column: Int
    public var style: Style
    /// An index of section titles down the right edge (plain only).
    public var index: Bool
    /// A footer after each section, saying how many rows it holds.
    public var footers: Bool
    /// What each section sums up, in the order asked for (each column and function once).
    public var aggregates: [SectionAggregate]
    /// Where a section's aggregates are shown; in the footer, there is one.
    public var totals: TotalsPlacement
    /// Where a row of the aggregates of every shown row goes; `nil`: none.
    public var grandTotal: GrandTotalPlacement?

    /// Sections by the column at `column` in `style`.
    public init(
        column: Int,
        style: Style = .plain,
        index: Bool = false,
        footers: Bool = false,
        aggregates: [SectionAggregate] = [],
        totals: TotalsPlacement = .header,
        grandTotal: GrandTotalPlacement? = nil
    ) {
        self.column = column
        self.style = style
        self.index = index
        self.footers = footers || totals == .footer
        self.aggregates = aggregates
        self.totals = totals
        self.grandTotal = grandTotal
    }

    /// The columns the aggregates read, each once, in the order first asked for.
    var summedColumns: [Int] {
        var seen: Set<Int> = []
        return aggregates.map(\.column).filter { seen.insert($0).inserted }
    }
}

/// One aggregate a view's sections show: a function of a column.
public struct SectionAggregate: Sendable, Hashable {
    /// The column (its index in the table).
    public var column: Int
    public var function: AggregateFunction

    public init(column: Int, function: AggregateFunction) {
        self.column = column
        self.function = function
    }
}

/// A view's sections worked out at one version of a table (``Table/preparedSections(_:id:within:)``).
public struct PreparedSections: Sendable {
    let version: UInt64
    let filterGeneration: UInt64
    let rows: SectionedRows
}

/// One view's rows in sections, kept in the table and current with every change like a filter's
/// rows: the rows (those the view's filter shows, or all) ordered by section, each section's
/// rows in the table's current order, and each section's count.
struct SectionedRows: Sendable {
    let id: UInt64
    var spec: SectionSpec
    /// The view's filter, whose rows are the ones sectioned; `nil`: every row.
    var filter: UInt64?
    /// Sections run from the greatest value down (the table is sorted by the column, descending).
    var descending: Bool
    var rows: RowOrder
    /// Each section's value, in section order.
    var values: [CellValue]
    var counts: SectionCounts
    /// Heights of the rows in section order under the rules views asked for (rows of two
    /// heights), kept current like the table's own.
    var keptOffsets: [KeptOffsets] = []
    /// The columns the sections sum up, a group per section (``SectionSpec/summedColumns``).
    var summaries: [ColumnSummary] = []
    /// The same columns summed over every row in one group, for the grand total.
    var grandSummaries: [ColumnSummary] = []
}

extension Table {
    /// Divides the rows of the view with `id` into sections as `spec` says (the rows its filter
    /// `within` shows, or every row), replacing any it had. `prepared`, worked out at this
    /// version with the same spec and filter, is taken as it is; otherwise every row is looked at
    /// here (O(n)). `nil` ends its sections.
    public mutating func setSections(
        _ spec: SectionSpec?,
        id: UInt64,
        within filter: UInt64?,
        prepared: PreparedSections? = nil
    ) {
        sections.removeAll { $0.id == id }
        filterGeneration += 1
        guard let spec else { return }
        if let prepared, prepared.version == version, prepared.rows.spec == spec, prepared.rows.filter == filter,
            prepared.rows.id == id, prepared.filterGeneration == filterGeneration - 1
        {
            sections.append(prepared.rows)
        } else {
            sections.append(sectioned(spec, id: id, within: filter))
        }
    }

    /// The sections ``setSections(_:id:within:prepared:)`` would make: work over every row that
    /// may be done on a copy of the table, off its lock.
    public func preparedSections(_ spec: SectionSpec, id: UInt64, within filter: UInt64?) -> PreparedSections {
        PreparedSections(
            version: version,
            filterGeneration: filterGeneration,
            rows: sectioned(spec, id: id, within: filter)
        )
    }

    /// Drops what the table keeps for the view with `id`: its filter and its sections (the
    /// view's connection is gone).
    public mutating func dropView(_ id: UInt64) {
        setSections(nil, id: id, within: nil)
        dropFilter(id)
        lostByViews[id] = nil
    }

    /// The view with `id` has sections.
    public func hasSections(_ id: UInt64) -> Bool { sectionsIndex(id) != nil }

    func sectionsIndex(_ id: UInt64) -> Int? { sections.firstIndex { $0.id == id } }

    /// The rows in sections, worked out from the start.
    private func sectioned(_ spec: SectionSpec, id: UInt64, within filter: UInt64?) -> SectionedRows {
        let shown = filter.flatMap(filterIndex)
        let descending = sortKeys.first.map { $0.descending && columnIndex[$0.column] == spec.column } ?? false
        var bySection: [CellValue: [UInt32]] = [:]
        let visit = { (slot: UInt32) in bySection[stores[spec.column][slot], default: []].append(slot) }
        if let shown { filters[shown].rows.forEachSlot(visit) } else { order.forEachSlot(visit) }
        let values = bySection.keys.sorted { Self.sectionOrder($0, $1, descending: descending) < 0 }
        let groups = values.map { bySection[$0]! }
        let all = groups.flatMap { $0 }
        return SectionedRows(
            id: id,
            spec: spec,
            filter: filter,
            descending: descending,
            rows: RowOrder(all),
            values: values,
            counts: SectionCounts(groups.map(\.count)),
            summaries: summaries(of: spec, groups: groups),
            grandSummaries: spec.grandTotal == nil ? [] : summaries(of: spec, groups: [all])
        )
    }

    static func sectionOrder(_ left: CellValue, _ right: CellValue, descending: Bool) -> Int {
        let order = ValueOrder.compare(left, right)
        return descending ? -order : order
    }

    // MARK: Keeping sections current

    /// `slot` went into the current order (and the filters): sections that show it take it in.
    mutating func sectionsInsert(_ slot: UInt32) {
        for index in sections.indices where sectionsShow(slot, index) { placeSectioned(slot, in: index) }
    }

    /// `slot` left the current order.
    mutating func sectionsRemove(_ slot: UInt32) {
        for index in sections.indices { removeSectioned(slot, from: index) }
    }

    /// Cells of `slot` in `columns` changed: it may belong in another section, or be shown or
    /// hidden. Sections whose column, filter and kept heights read none of them have nothing
    /// to do.
    mutating func sectionsUpdate(_ slot: UInt32, columns: [Int]) {
        guard natural.contains(slot) else { return }
        for index in sections.indices {
            // (Only a cell of a column that may wrap can change its row's height.)
            let heights = sections[index].keptOffsets.contains { kept in columns.contains(where: kept.rule.reads) }
            let summed = sections[index].summaries.contains { columns.contains($0.column) }
            guard
                heights || summed || columns.contains(sections[index].spec.column)
                    || columns.contains(where: { sectionsFilterReads($0, index) })
            else { continue }
            let shows = sectionsShow(slot, index)
            guard let position = sections[index].rows.position(of: slot) else {
                if shows { placeSectioned(slot, in: index) }
                continue
            }
            let section = sections[index].counts.section(holding: position)
            let value = stores[sections[index].spec.column][slot]
            if !shows || sections[index].values[section] != value {
                removeSectioned(slot, from: index)
                if shows { placeSectioned(slot, in: index) }
            } else {
                // Same section: its sums may have changed, and its height.
                if summed { resummarize(slot, columns: columns, section: section, in: index) }
                for kept in sections[index].keptOffsets.indices {
                    let height = height(of: slot, under: sections[index].keptOffsets[kept].rule)
                    if sections[index].keptOffsets[kept].index.height(at: position) != height {
                        sections[index].keptOffsets[kept].index.setHeight(height, at: position)
                    }
                }
            }
        }
    }

    /// The order or the filters' rows were rebuilt: so are the sections.
    mutating func sectionsRebuild() {
        for index in sections.indices {
            let current = sections[index]
            sections[index] = sectioned(current.spec, id: current.id, within: current.filter)
        }
    }

    /// The filter with `id` changed or went: the sections of its view follow it.
    /// `prepared`, made at this version and filter generation for the same view, is taken as it is.
    mutating func sectionsFollowFilter(_ id: UInt64, prepared: PreparedSections? = nil) {
        for index in sections.indices where sections[index].filter == id || sections[index].id == id {
            let current = sections[index]
            let filter = hasFilter(id) ? id : nil
            if let prepared, prepared.version == version, prepared.filterGeneration == filterGeneration,
                prepared.rows.id == current.id, prepared.rows.spec == current.spec, prepared.rows.filter == filter
            {
                sections[index] = prepared.rows
            } else {
                sections[index] = sectioned(current.spec, id: current.id, within: filter)
            }
        }
    }

    /// The sections of the view with `id`, as set.
    public func sectionSpec(of id: UInt64) -> SectionSpec? {
        sectionsIndex(id).map { sections[$0].spec }
    }

    /// The sections of the view with `id` as this table keeps them, to hand to another copy of
    /// it at the same version (``setFilter(_:id:admitting:sections:)``).
    public func keptSections(of id: UInt64) -> PreparedSections? {
        sectionsIndex(id).map {
            PreparedSections(version: version, filterGeneration: filterGeneration, rows: sections[$0])
        }
    }

    /// Whether the filter of the sections at `index` reads `column`.
    private func sectionsFilterReads(_ column: Int, _ index: Int) -> Bool {
        guard let filter = sections[index].filter, let shown = filterIndex(filter) else { return false }
        return filters[shown].filter.reads(column)
    }

    /// Whether the sections at `index` show `slot` (its view's filter lets it through).
    private func sectionsShow(_ slot: UInt32, _ index: Int) -> Bool {
        guard let filter = sections[index].filter else { return true }
        guard let shown = filterIndex(filter) else { return true }
        return filters[shown].rows.contains(slot)
    }

    /// Puts `slot` in its section: found by its value (a new section when none has it), then
    /// after the section's rows that come before it in the current order.
    private mutating func placeSectioned(_ slot: UInt32, in index: Int) {
        let value = stores[sections[index].spec.column][slot]
        let descending = sections[index].descending
        var low = 0
        var high = sections[index].values.count
        while low < high {
            let middle = (low + high) / 2
            if Self.sectionOrder(sections[index].values[middle], value, descending: descending) < 0 {
                low = middle + 1
            } else {
                high = middle
            }
        }
        let section = low
        if section == sections[index].values.count || sections[index].values[section] != value {
            sections[index].values.insert(value, at: section)
            sections[index].counts.insertSection(at: section)
            for summary in sections[index].summaries.indices {
                sections[index].summaries[summary].insertGroup(at: section)
            }
        }
        // Right after the nearest row of the section before it in the current order: looked for
        // among the few rows just before, else found by halving the section's rows. (A row is
        // of the section by where it lies among the section's rows, not by its value: a row
        // whose value just changed may not have moved yet.)
        let position = orderPosition(of: slot)!
        var first = sections[index].counts.rowsBefore(section)
        var last = first + sections[index].counts.counts[section]
        let near = min(position, Self.placingLook)
        var found = false
        if near > 0 {
            for other in orderSlots(from: position - near, limit: near).reversed()
            where sections[index].rows.contains(other) {
                let at = sections[index].rows.position(of: other)!
                guard at >= first && at < last else { continue }
                first = at + 1
                found = true
                break
            }
        }
        while !found && first < last {
            let middle = (first + last) / 2
            if orderPosition(of: sections[index].rows.slot(at: middle))! < position {
                first = middle + 1
            } else {
                last = middle
            }
        }
        sections[index].rows.insert(slot, at: first)
        sections[index].counts.add(1, to: section)
        summarize(slot, section: section, in: index)
        for kept in sections[index].keptOffsets.indices {
            sections[index].keptOffsets[kept].index.insert(
                height(of: slot, under: sections[index].keptOffsets[kept].rule),
                at: first
            )
        }
    }

    /// Takes `slot` out of the sections at `index`, dropping its section when it empties.
    private mutating func removeSectioned(_ slot: UInt32, from index: Int) {
        guard let position = sections[index].rows.position(of: slot) else { return }
        let section = sections[index].counts.section(holding: position)
        unsummarize(slot, section: section, in: index)
        sections[index].rows.remove(slot)
        sections[index].counts.add(-1, to: section)
        for kept in sections[index].keptOffsets.indices {
            sections[index].keptOffsets[kept].index.remove(at: position)
        }
        if sections[index].counts.counts[section] == 0 {
            sections[index].values.remove(at: section)
            sections[index].counts.removeSection(at: section)
            for summary in sections[index].summaries.indices {
                sections[index].summaries[summary].removeGroup(at: section)
            }
        }
    }
}
