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
            rows = .uniform(height: rule.rowHeight, count: sections[index].rows.count)
        } else if let kept = sections[index].keptOffsets.first(where: { $0.rule == rule }) {
            rows = .indexed(kept.index)
        } else {
            return nil
        }
        return SectionGeometry(
            rows: rows,
            counts: sections[index].counts,
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
        heights.reserveCapacity(sections[index].rows.count)
        sections[index].rows.forEachSlot { heights.append(height(of: $0, under: rule)) }
        if sections[index].keptOffsets.count >= Self.rowOffsetsLimit { sections[index].keptOffsets.removeFirst() }
        sections[index].keptOffsets.append(KeptOffsets(rule: rule, index: OffsetIndex(heights: heights)))
    }

    /// A section's title: its value as the column shows it.
    func sectionTitle(_ value: CellValue, _ index: Int) -> String {
        OneLine.text(columns[sections[index].spec.column].rules.displayText(value))
    }

    /// The sections a window shows, from the one holding its first row (with overscan) to the
    /// one holding its last; in plain style the top one's header sticks below the table's
    /// header until the next header pushes it up. With an index, every section's title and the
    /// offset that brings it to the top.
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
        let spec = sections[index].spec
        let metrics = geometry.metrics
        let values = sections[index].values
        var shown: [ScrollWindow.Section] = []
        // Where section headers stick: below the table's header, and below a grand total pinned there.
        let stickAt = header + (spec.grandTotal == .pinnedTop ? metrics.totalAbove : 0)
        if let first, let last, !values.isEmpty {
            let total = geometry.counts.total
            let from = geometry.counts.section(holding: max(0, first - overscan))
            let to = geometry.counts.section(holding: min(total - 1, last + overscan))
            for section in from...to {
                let top = header + geometry.headerTop(section) - y
                var placed = ScrollWindow.Section(
                    title: sectionTitle(values[section], index),
                    count: geometry.counts.counts[section],
                    y: top,
                    height: metrics.header,
                    footerY: metrics.footer > 0 ? header + geometry.footerTop(section) - y : nil,
                    sticky: false,
                    aggregates: spec.aggregates.isEmpty ? [] : sectionAggregates(section, in: index)
                )
                if spec.style == .plain, top < stickAt {
                    // Pinned below the table's header, pushed up by the next section's header.
                    let next = section + 1 < values.count ? header + geometry.headerTop(section + 1) - y : Int.max
                    placed.y = min(stickAt, next - metrics.header)
                    placed.sticky = true
                }
                shown.append(placed)
            }
        }
        let titles: [ScrollWindow.IndexEntry]? =
            spec.style == .plain && spec.index
            ? values.indices.map { .init(title: sectionTitle(values[$0], index), y: geometry.headerTop($0)) } : nil
        var grandTotal: ScrollWindow.GrandTotal?
        if let placement = spec.grandTotal, !values.isEmpty, let aggregates = grandAggregates(in: index) {
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
            style: spec.style,
            count: values.count,
            inset: metrics.inset,
            shown: shown,
            index: titles,
            totals: spec.totals,
            grandTotal: grandTotal
        )
    }
}
