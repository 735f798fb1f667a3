import DataTableVocabulary
import Foundation

/// How a view divides its rows into sections (Apple HIG, "Tables": plain, grouped, inset
/// grouped): one section per distinct value of a column, or groups nested by up to
/// ``maximumLevels`` columns (a group per value of the first, within it one per value of the
/// second, and so on).
public struct SectionSpec: Sendable, Equatable {
    /// The HIG's table styles. (The vocabulary the engine shares with the wire.)
    public typealias Style = SectionStyle

    /// The most columns groups nest by.
    public static let maximumLevels = 4

    /// The columns whose values name the groups, outermost first (their indexes in the table).
    public var columns: [Int]
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

    /// Sections by one column, or groups nested by several (`columns`, outermost first), in `style`.
    public init(
        columns: [Int],
        style: Style = .plain,
        index: Bool = false,
        footers: Bool = false,
        aggregates: [SectionAggregate] = [],
        totals: TotalsPlacement = .header,
        grandTotal: GrandTotalPlacement? = nil
    ) {
        self.columns = columns
        self.style = style
        self.index = index
        self.footers = footers || totals == .footer
        self.aggregates = aggregates
        self.totals = totals
        self.grandTotal = grandTotal
    }

    /// The column of the outermost groups.
    public var column: Int { columns[0] }

    /// How many levels the groups nest.
    public var depth: Int { columns.count }

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
/// rows: the rows (those the view's filter shows, or all) ordered by leaf (a group of the
/// innermost level: one path of values, outermost first), each leaf's rows in the table's
/// current order, and each leaf's count.
///
/// The rows of collapsed groups stay in ``rows``; the view shows the others, whose positions
/// (its *shown* positions) map to and from positions in ``rows`` leaf by leaf in O(log s).
struct SectionedRows: Sendable {
    let id: UInt64
    var spec: SectionSpec
    /// The view's filter, whose rows are the ones sectioned; `nil`: every row.
    var filter: UInt64?
    /// Per level: its groups run from the greatest value down (the table's sort key at that
    /// place is the level's column, descending).
    var descending: [Bool]
    var rows: RowOrder
    /// Each leaf's path, ``SectionSpec/depth`` values a leaf, leaves in order.
    var values: [CellValue]
    /// Rows per leaf.
    var counts: SectionCounts
    /// Which groups are collapsed.
    var collapse: GroupCollapse
    /// Headers, footers, gaps and shown rows around each leaf.
    var shape: SectionShape
    /// Heights of the shown rows in order under the rules views asked for (rows of two
    /// heights), kept current like the table's own.
    var keptOffsets: [KeptOffsets] = []
    /// Sums of the shown rows' numbers for the view-order columns, in their order.
    var keptSums: [KeptSums] = []
    /// The columns the groups sum up (``SectionSpec/summedColumns``), each over every level's
    /// groups and the grand total's, when there is one.
    var summaries: [ColumnSummary] = []

    init(
        id: UInt64,
        spec: SectionSpec,
        filter: UInt64?,
        descending: [Bool],
        rows: RowOrder,
        values: [CellValue],
        counts: SectionCounts,
        collapse: GroupCollapse
    ) {
        self.id = id
        self.spec = spec
        self.filter = filter
        self.descending = descending
        self.rows = rows
        self.values = values
        self.counts = counts
        self.collapse = collapse
        self.shape = Self.shape(spec, values: values, counts: counts, collapse: collapse)
    }

    /// The shape of leaves with paths `values` holding `counts` rows under `spec`, with
    /// `collapse`'s groups collapsed.
    private static func shape(
        _ spec: SectionSpec,
        values: [CellValue],
        counts: SectionCounts,
        collapse: GroupCollapse
    ) -> SectionShape {
        SectionShape(
            values: values,
            depth: spec.depth,
            counts: counts.counts,
            collapse: collapse,
            footers: spec.footers
        )
    }

    var depth: Int { spec.depth }
    var leafCount: Int { counts.sectionCount }

    /// The values naming `leaf`'s groups, outermost first.
    func path(_ leaf: Int) -> ArraySlice<CellValue> { values[leaf * depth..<(leaf + 1) * depth] }

    /// The shape made again from the leaves and the collapsed groups.
    mutating func reshape() {
        shape = Self.shape(spec, values: values, counts: counts, collapse: collapse)
    }

    /// How many rows the view shows.
    var shownCount: Int { shape.shown.total }

    /// The position in ``rows`` of the row shown at `position`.
    func fullPosition(ofShown position: Int) -> Int {
        guard !collapse.isEmpty else { return position }
        let leaf = shape.shown.section(holding: position)
        return counts.rowsBefore(leaf) + position - shape.shown.rowsBefore(leaf)
    }

    /// Where the row at `position` in ``rows`` is shown; `nil` under a collapsed group.
    func shownPosition(ofFull position: Int) -> Int? {
        guard !collapse.isEmpty else { return position }
        let leaf = counts.section(holding: position)
        guard shape.isShown(leaf) else { return nil }
        return shape.shown.rowsBefore(leaf) + position - counts.rowsBefore(leaf)
    }

    /// Up to `limit` of the rows shown from `position` on, in order.
    func shownSlots(from position: Int, limit: Int) -> [UInt32] {
        guard !collapse.isEmpty else { return rows.slots(from: position, limit: limit) }
        var slots: [UInt32] = []
        var next = position
        let end = min(shownCount, position + limit)
        while next < end {
            let leaf = shape.shown.section(holding: next)
            let inside = next - shape.shown.rowsBefore(leaf)
            let take = min(end - next, shape.shown.counts[leaf] - inside)
            slots += rows.slots(from: counts.rowsBefore(leaf) + inside, limit: take)
            next += take
        }
        return slots
    }

    /// Calls `body` with every shown row, in order.
    func forEachShownSlot(_ body: (UInt32) -> Void) {
        guard !collapse.isEmpty else { return rows.forEachSlot(body) }
        let page = 4096
        var position = 0
        while position < shownCount {
            let slots = shownSlots(from: position, limit: page)
            slots.forEach(body)
            position += slots.count
        }
    }

    /// Whether the path of `leaf` comes before (< 0), with (0) or after (> 0) `path`, compared
    /// on `path`'s levels (a shorter path names a group holding leaves).
    func compare(leaf: Int, with path: [CellValue]) -> Int {
        let own = self.path(leaf)
        for level in path.indices {
            let order = Table.sectionOrder(own[own.startIndex + level], path[level], descending: descending[level])
            if order != 0 { return order }
        }
        return 0
    }

    /// The first leaf that does not come before `path` (``leafCount`` when every leaf does).
    func firstLeaf(notBefore path: [CellValue]) -> Int {
        var low = 0
        var high = leafCount
        while low < high {
            let middle = (low + high) / 2
            if compare(leaf: middle, with: path) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension Table {
    /// Divides the rows of the view with `id` into sections as `spec` says (the rows its filter
    /// `within` shows, or every row), replacing any it had; groups by the same columns stay
    /// collapsed as they were. `prepared`, worked out at this version with the same spec and
    /// filter, is taken as it is; otherwise every row is looked at here (O(n)). `nil` ends its
    /// sections.
    public mutating func setSections(
        _ spec: SectionSpec?,
        id: UInt64,
        within filter: UInt64?,
        prepared: PreparedSections? = nil
    ) {
        let collapse = sectionsIndex(id).flatMap {
            sections[$0].spec.columns == spec?.columns ? sections[$0].collapse : nil
        }
        sections.removeAll { $0.id == id }
        filterGeneration += 1
        guard let spec else { return }
        if let prepared, prepared.version == version, prepared.rows.spec == spec, prepared.rows.filter == filter,
            prepared.rows.id == id, prepared.filterGeneration == filterGeneration - 1
        {
            sections.append(prepared.rows.collapsing(collapse))
        } else {
            sections.append(sectioned(spec, id: id, within: filter, collapse: collapse))
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

    /// The rows in sections, worked out from the start: each row's path coded level by level,
    /// rows gathered by leaf, the leaves put in order by their values' ranks.
    private func sectioned(
        _ spec: SectionSpec,
        id: UInt64,
        within filter: UInt64?,
        collapse: GroupCollapse? = nil
    ) -> SectionedRows {
        let shown = filter.flatMap(filterIndex)
        let depth = spec.depth
        let descending = spec.columns.indices.map { level in
            level < sortKeys.count && columnIndex[sortKeys[level].column] == spec.columns[level]
                && sortKeys[level].descending
        }
        let viewSlots = shown.map { filters[$0].rows.allSlots } ?? order.allSlots
        // Each level's value of each row, numbered as first met (the levels on cores of their
        // own); then each row's leaf (its path numbered as first met), a level at a time.
        let stores = spec.columns.map { self.stores[$0] }
        let levels = ConcurrentPieces.map(depth) { LevelValues(of: stores[$0], at: viewSlots) }
        let grouping = LeafGrouping(levels.map(\.rowCodes), valueCounts: levels.map(\.values.count))
        // Each level's values ranked in the level's order; the leaves sorted by their paths' ranks.
        let ranks = levels.indices.map { level -> [Int32] in
            let values = levels[level].values
            let sorted = values.indices.sorted {
                Self.sectionOrder(values[$0], values[$1], descending: descending[level]) < 0
            }
            var rank = [Int32](repeating: 0, count: values.count)
            for (place, code) in sorted.enumerated() { rank[code] = Int32(place) }
            return rank
        }
        let leaves = grouping.paths.indices.sorted { left, right in
            for level in 0..<depth where grouping.paths[left][level] != grouping.paths[right][level] {
                return ranks[level][Int(grouping.paths[left][level])]
                    < ranks[level][Int(grouping.paths[right][level])]
            }
            return false
        }
        // The rows dealt to their leaves in leaf order, each leaf's in the view's order.
        var rowsPerLeaf = [Int](repeating: 0, count: leaves.count)
        rowsPerLeaf.withUnsafeMutableBufferPointer { rowsPerLeaf in
            for leaf in grouping.leafOfRow { rowsPerLeaf[Int(leaf)] &+= 1 }
        }
        var next = [Int](repeating: 0, count: leaves.count)
        var placeOfLeaf = [Int32](repeating: 0, count: leaves.count)
        var start = 0
        for (place, leaf) in leaves.enumerated() {
            next[leaf] = start
            placeOfLeaf[leaf] = Int32(place)
            start += rowsPerLeaf[leaf]
        }
        // The rows dealt, and (for summaries) each slot's leaf, each a scatter of its own.
        let firstOfLeaf = next
        let leafPlaces = placeOfLeaf
        let placing = ConcurrentPieces.map(spec.aggregates.isEmpty ? 1 : 2) {
            piece -> (all: [UInt32], leafOfSlot: [Int32]) in
            if piece == 0 {
                var next = firstOfLeaf
                let all = [UInt32](unsafeUninitializedCapacity: viewSlots.count) { all, initialized in
                    next.withUnsafeMutableBufferPointer { next in
                        for (position, leaf) in grouping.leafOfRow.enumerated() {
                            all[next[Int(leaf)]] = viewSlots[position]
                            next[Int(leaf)] &+= 1
                        }
                    }
                    initialized = viewSlots.count
                }
                return (all, [])
            }
            var leafOfSlot = [Int32](repeating: -1, count: slotCount)
            leafOfSlot.withUnsafeMutableBufferPointer { leafOfSlot in
                for (position, leaf) in grouping.leafOfRow.enumerated() {
                    leafOfSlot[Int(viewSlots[position])] = leafPlaces[Int(leaf)]
                }
            }
            return ([], leafOfSlot)
        }
        let all = placing[0].all
        let leafOfSlot = placing.count > 1 ? placing[1].leafOfSlot : []
        var sectioned = SectionedRows(
            id: id,
            spec: spec,
            filter: filter,
            descending: descending,
            rows: RowOrder(),
            values: leaves.flatMap { leaf in (0..<depth).map { levels[$0].values[Int(grouping.paths[leaf][$0])] } },
            counts: SectionCounts(leaves.map { rowsPerLeaf[$0] }),
            collapse: collapse ?? GroupCollapse(depth: depth)
        )
        var layout: SummaryLayout?
        if !spec.aggregates.isEmpty {
            layout = sectioned.summaryLayout(leafOfSlot: leafOfSlot, heldCount: viewSlots.count)
        }
        (sectioned.rows, sectioned.summaries) = orderAndSummaries(of: all, spec: spec, layout: layout)
        return sectioned
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

    /// Cells of `slot` in `columns` changed: it may belong in another group, or be shown or
    /// hidden. Sections whose columns, filter and kept heights read none of them have nothing
    /// to do.
    mutating func sectionsUpdate(_ slot: UInt32, columns: [Int]) {
        guard natural.contains(slot) else { return }
        for index in sections.indices {
            // (Only a cell of a column that may wrap can change its row's height.)
            let heights = sections[index].keptOffsets.contains { kept in columns.contains(where: kept.rule.reads) }
            let summed = sections[index].summaries.contains { columns.contains($0.column) }
            let grouped = columns.contains(where: sections[index].spec.columns.contains)
            let sums = sections[index].keptSums.contains { columns.contains($0.column) }
            guard heights || summed || sums || grouped || columns.contains(where: { sectionsFilterReads($0, index) })
            else { continue }
            let shows = sectionsShow(slot, index)
            guard let position = sections[index].rows.position(of: slot) else {
                if shows { placeSectioned(slot, in: index) }
                continue
            }
            let leaf = sections[index].counts.section(holding: position)
            let path = sections[index].spec.columns.map { cell($0, slot) }
            if !shows || (grouped && sections[index].compare(leaf: leaf, with: path) != 0) {
                removeSectioned(slot, from: index)
                if shows { placeSectioned(slot, in: index) }
            } else {
                // Same leaf: its sums may have changed, and its height.
                if summed { resummarize(slot, columns: columns, leaf: leaf, in: index) }
                guard let shown = sections[index].shownPosition(ofFull: position) else { continue }
                for kept in sections[index].keptSums.indices {
                    sections[index].keptSums[kept].tree.set(
                        summedWeight(slot, sections[index].keptSums[kept].column),
                        at: shown
                    )
                }
                for kept in sections[index].keptOffsets.indices {
                    let height = height(of: slot, under: sections[index].keptOffsets[kept].rule)
                    if sections[index].keptOffsets[kept].index.height(at: shown) != height {
                        sections[index].keptOffsets[kept].index.setHeight(height, at: shown)
                    }
                }
            }
        }
    }

    /// The order or the filters' rows were rebuilt: so are the sections (collapsed groups stay so).
    mutating func sectionsRebuild() {
        for index in sections.indices {
            let current = sections[index]
            sections[index] = sectioned(
                current.spec,
                id: current.id,
                within: current.filter,
                collapse: current.collapse
            )
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
                sections[index] = prepared.rows.collapsing(current.collapse)
            } else {
                sections[index] = sectioned(current.spec, id: current.id, within: filter, collapse: current.collapse)
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

    /// Puts `slot` in its leaf: found by its path (a new leaf, and new groups, when none has
    /// it), then after the leaf's rows that come before it in the current order.
    private mutating func placeSectioned(_ slot: UInt32, in index: Int) {
        let path = sections[index].spec.columns.map { cell($0, slot) }
        let leaf = sections[index].firstLeaf(notBefore: path)
        if leaf == sections[index].leafCount || sections[index].compare(leaf: leaf, with: path) != 0 {
            insertLeaf(path, at: leaf, in: index)
        }
        // Right after the nearest row of the leaf before it in the current order: looked for
        // among the few rows just before, else found by halving the leaf's rows. (A row is
        // of the leaf by where it lies among the leaf's rows, not by its values: a row
        // whose value just changed may not have moved yet.)
        let position = orderPosition(of: slot)!
        var first = sections[index].counts.rowsBefore(leaf)
        var last = first + sections[index].counts.counts[leaf]
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
        sections[index].counts.add(1, to: leaf)
        sections[index].shape.add(1, to: leaf)
        summarize(slot, leaf: leaf, in: index)
        guard let shown = sections[index].shownPosition(ofFull: first) else { return }
        for kept in sections[index].keptSums.indices {
            sections[index].keptSums[kept].tree.insert(
                summedWeight(slot, sections[index].keptSums[kept].column),
                at: shown
            )
        }
        for kept in sections[index].keptOffsets.indices {
            sections[index].keptOffsets[kept].index.insert(
                height(of: slot, under: sections[index].keptOffsets[kept].rule),
                at: shown
            )
        }
    }

    /// A new, empty leaf at `leaf` with `path`, and the groups that start with it.
    private mutating func insertLeaf(_ path: [CellValue], at leaf: Int, in index: Int) {
        let depth = sections[index].depth
        sections[index].values.insert(contentsOf: path, at: leaf * depth)
        sections[index].counts.insertSection(at: leaf)
        sections[index].reshape()
        for level in 0..<depth where !sections[index].summaries.isEmpty {
            let group = sections[index].shape.group(level, of: leaf)
            guard sections[index].shape.leaves(level, group: group).count == 1 else { continue }
            for summary in sections[index].summaries.indices {
                sections[index].summaries[summary].insertGroup(at: group, level: level)
            }
        }
    }

    /// Takes `slot` out of the sections at `index`, dropping its leaf (and the groups that
    /// hold no other) when it empties.
    private mutating func removeSectioned(_ slot: UInt32, from index: Int) {
        guard let position = sections[index].rows.position(of: slot) else { return }
        let leaf = sections[index].counts.section(holding: position)
        unsummarize(slot, leaf: leaf, in: index)
        let shown = sections[index].shownPosition(ofFull: position)
        sections[index].rows.remove(slot)
        sections[index].counts.add(-1, to: leaf)
        sections[index].shape.add(-1, to: leaf)
        if let shown {
            for kept in sections[index].keptOffsets.indices {
                sections[index].keptOffsets[kept].index.remove(at: shown)
            }
            for kept in sections[index].keptSums.indices { sections[index].keptSums[kept].tree.remove(at: shown) }
        }
        guard sections[index].counts.counts[leaf] == 0 else { return }
        let depth = sections[index].depth
        for level in 0..<depth where !sections[index].summaries.isEmpty {
            let group = sections[index].shape.group(level, of: leaf)
            guard sections[index].shape.leaves(level, group: group).count == 1 else { continue }
            for summary in sections[index].summaries.indices {
                sections[index].summaries[summary].removeGroup(at: group, level: level)
            }
        }
        sections[index].values.removeSubrange(leaf * depth..<(leaf + 1) * depth)
        sections[index].counts.removeSection(at: leaf)
        sections[index].reshape()
    }
}

extension SectionedRows {
    /// These sections with the groups of `collapse` collapsed (none: as they are).
    func collapsing(_ collapse: GroupCollapse?) -> SectionedRows {
        guard let collapse, collapse != self.collapse else { return self }
        var collapsed = self
        collapsed.collapse = collapse
        collapsed.keptOffsets = []
        collapsed.keptSums = []
        collapsed.reshape()
        return collapsed
    }
}
