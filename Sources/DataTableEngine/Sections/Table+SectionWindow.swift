import DataTableVocabulary
import TextMeasure

extension Table {
    /// The options a view with inset grouped sections lays its columns out in: narrower by the
    /// inset on both sides (the window puts them back in place, inset).
    func insetOptions(_ options: LayoutOptions, view: ViewState) -> LayoutOptions {
        guard let index = view.sections.flatMap(sectionsIndex) else { return options }
        let inset = SectionMetrics(sections[index].spec, unit: options.unit).inset
        guard inset > 0 else { return options }
        var narrower = options
        narrower.width = max(1, options.width - 2 * inset)
        return narrower
    }

    /// The geometry of the sections at `index` under `plan` (its rows' heights, headers, footers
    /// and gaps); `nil` when its rows differ in height and their offsets are not kept yet
    /// (``keepSectionOffsets(_:for:)`` builds them).
    func sectionGeometry(_ index: Int, plan: LayoutPlan, options: LayoutOptions) -> SectionGeometry? {
        let rule = plan.heightRule
        let rows: RowOffsets
        if rule.isUniform || !contentWidths.contains(where: { $0.measure.identity == rule.measure }) {
            rows = .uniform(height: rule.rowHeight, count: sections[index].shownCount)
        } else if let kept = sections[index].keptOffsets.first(where: { $0.rule == rule }) {
            rows = .indexed(kept.index)
        } else {
            return nil
        }
        return SectionGeometry(
            rows: rows,
            shape: sections[index].shape,
            metrics: SectionMetrics(sections[index].spec, unit: options.unit)
        )
    }

    /// Builds the offsets of the rows of the sections at `index` under `rule` when they differ in
    /// height (O(rows) once; kept current by every change from then on).
    mutating func keepSectionOffsets(_ index: Int, for rule: RowHeightRule) {
        guard !rule.isUniform, contentWidths.contains(where: { $0.measure.identity == rule.measure }),
            !sections[index].keptOffsets.contains(where: { $0.rule == rule })
        else { return }
        var heights: [Int] = []
        heights.reserveCapacity(sections[index].shownCount)
        sections[index].forEachShownSlot { heights.append(height(of: $0, under: rule)) }
        if sections[index].keptOffsets.count >= Self.rowOffsetsLimit { sections[index].keptOffsets.removeFirst() }
        sections[index].keptOffsets.append(KeptOffsets(rule: rule, index: OffsetIndex(heights: heights)))
    }

    /// A group's title: the value of `level`'s column as the column shows it.
    func sectionTitle(_ value: CellValue, level: Int, in index: Int) -> String {
        OneLine.text(columns[sections[index].spec.columns[level]].rules.displayText(value))
    }

    /// The titles of the groups holding `leaf`, from the outermost down to `level`.
    func groupTitles(_ leaf: Int, through level: Int, in index: Int) -> [String] {
        let path = sections[index].path(leaf)
        return (0...level).map { sectionTitle(path[path.startIndex + $0], level: $0, in: index) }
    }

    /// The groups a window shows: the headers of the leaves from the one at its top (or holding
    /// its first row, with overscan) to the one at its bottom (or holding its last), with the
    /// groups whose rows are under the top. In plain style a header whose place has scrolled
    /// above its place in the stack below the table's header (the outermost first, each nested
    /// one below its parent's) sticks there until the end of its group pushes it up, along with
    /// the nested headers that end where it ends. With an index, every outermost group's title
    /// and the offset that brings it to the top.
    func windowSections(
        _ geometry: SectionGeometry,
        index: Int,
        y: Int,
        height: Int,
        header: Int,
        first: Int?,
        last: Int?,
        overscan: Int
    ) -> ScrollWindow.Sections {
        let sectioned = sections[index]
        let spec = sectioned.spec
        let shape = sectioned.shape
        let metrics = geometry.metrics
        var shown: [ScrollWindow.Section] = []
        // Where headers stick: below the table's header, and below a grand total pinned there.
        let stickAt = header + (spec.grandTotal == .pinnedTop ? metrics.totalAbove : 0)
        if shape.leafCount > 0 {
            var from = geometry.leaf(atOffset: y)
            let bottom = geometry.leaf(atOffset: max(0, y + height - header - 1))
            let total = shape.shown.total
            if let first, total > 0 { from = min(from, shape.shown.section(holding: max(0, first - overscan))) }
            // The leaves holding the window's rows (overscan too) show their headers; below them,
            // a header shows if it starts above the viewport's bottom.
            let rowsTo = last.flatMap { total > 0 ? shape.shown.section(holding: min(total - 1, $0 + overscan)) : nil }
            let to = max(bottom, rowsTo ?? 0)
            var groups: [(level: Int, group: Int)] = []
            // The groups whose rows are under the place headers stick, when their headers are above the window.
            let under = geometry.leaf(atOffset: max(0, y + stickAt - header))
            for level in 0...min(Int(shape.openDepth[under]), spec.depth - 1) {
                let group = shape.group(level, of: under)
                if shape.leaves(level, group: group).lowerBound < from { groups.append((level, group)) }
            }
            var leaf = from
            while leaf <= to {
                for level in shape.headerLevels(leaf)
                where leaf <= rowsTo ?? -1 || header + geometry.headerTop(leaf, level: level) - y < height {
                    groups.append((level, shape.group(level, of: leaf)))
                }
                // The other leaves of a collapsed group show nothing: past them at once.
                let open = Int(shape.openDepth[leaf])
                leaf =
                    open < spec.depth
                    ? max(leaf + 1, shape.leaves(open, group: shape.group(open, of: leaf)).upperBound) : leaf + 1
            }
            for (level, group) in groups {
                shown.append(placedGroup(level, group: group, index: index, geometry: geometry, header: header, y: y))
            }
            if spec.style == .plain {
                stick(&shown, at: stickAt, step: metrics.header)
            }
            shown.sort { $0.y != $1.y ? $0.y < $1.y : $0.level < $1.level }
        }
        let outermost = shape.leafCount > 0 ? shape.groupCount(0) : 0
        let titles: [ScrollWindow.IndexEntry]? =
            spec.style == .plain && spec.index
            ? (0..<outermost).map { group in
                let leaf = shape.leaves(0, group: group).lowerBound
                return .init(
                    title: sectionTitle(sectioned.path(leaf).first!, level: 0, in: index),
                    y: geometry.headerTop(leaf, level: 0)
                )
            } : nil
        var grandTotal: ScrollWindow.GrandTotal?
        if let placement = spec.grandTotal, shape.leafCount > 0, let aggregates = grandAggregates(in: index) {
            let totalHeight = max(metrics.totalAbove, metrics.totalBelow)
            let scrolledTop = header - y
            let scrolledBottom = header + geometry.totalHeight - totalHeight - y
            let top: Int
            switch placement {
            case .top: top = scrolledTop
            case .pinnedTop: top = header
            case .bottom: top = scrolledBottom
            case .pinnedBottom: top = min(height - totalHeight, scrolledBottom)
            }
            grandTotal = ScrollWindow.GrandTotal(
                placement: placement,
                y: top,
                height: totalHeight,
                aggregates: aggregates
            )
        }
        return ScrollWindow.Sections(
            column: columns[spec.column].key,
            columns: spec.columns.map { columns[$0].key },
            style: spec.style,
            count: outermost,
            inset: metrics.inset,
            shown: shown,
            index: titles,
            totals: spec.totals,
            grandTotal: grandTotal
        )
    }

    /// The header of group `group` of `level` where it scrolls to, with its count, aggregates,
    /// titles, whether it is collapsed and where its footer is.
    private func placedGroup(
        _ level: Int,
        group: Int,
        index: Int,
        geometry: SectionGeometry,
        header: Int,
        y: Int
    ) -> ScrollWindow.Section {
        let shape = sections[index].shape
        let leaves = shape.leaves(level, group: group)
        let collapsed = Int(shape.openDepth[leaves.lowerBound]) == level
        let titles = groupTitles(leaves.lowerBound, through: level, in: index)
        return ScrollWindow.Section(
            title: titles.last!,
            count: groupRows(level, group: group, in: index).count,
            y: header + geometry.headerTop(leaves.lowerBound, level: level) - y,
            height: geometry.metrics.header,
            footerY: geometry.metrics.footer > 0 && !collapsed
                ? header + geometry.footerTop(leaves.upperBound - 1, level: level) - y : nil,
            sticky: false,
            aggregates: groupAggregates(level, group: group, in: index),
            level: level,
            path: titles,
            collapsed: collapsed,
            end: header + geometry.leafTop(leaves.upperBound) - y
        )
    }

    /// Sticks the headers in `shown` that have scrolled above their place in the stack below
    /// the table's header (at `stickAt`, each level one header lower): there, or pushed up by
    /// the end of the group, with the nested headers stuck above the same end stacked below it.
    private func stick(_ shown: inout [ScrollWindow.Section], at stickAt: Int, step: Int) {
        let stuck = shown.indices.filter { shown[$0].y < stickAt + shown[$0].level * step }
        for placed in stuck {
            let end = shown[placed].end
            let below = stuck.filter { shown[$0].level > shown[placed].level && shown[$0].end == end }.count
            shown[placed].y = min(stickAt + shown[placed].level * step, end - step * (1 + below))
            shown[placed].sticky = true
        }
    }
}
