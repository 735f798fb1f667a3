/// Where things sit below a table's header: answers what ``RowOffsets`` answers (a row's top,
/// the row at an offset, the height of everything), for a view with or without sections.
protocol ViewOffsets {
    var totalHeight: Int { get }
    func offset(of position: Int) -> Int
    func height(at position: Int) -> Int
    func position(atOffset offset: Int) -> (position: Int, inside: Int)
}

extension RowOffsets: ViewOffsets {}

/// The heights a view's sections add, in its unit: each section's header, its footer (when
/// asked for), the space before every section but the first (grouped styles), how far rows are
/// inset from both edges (inset grouped), and the grand total row (when asked for), as tall as
/// a header, before the first section or after the last.
public struct SectionMetrics: Sendable, Equatable {
    public var header: Int
    public var footer: Int
    public var gap: Int
    public var inset: Int
    /// The grand total row's height above the first section (top, pinned top) or below the last.
    public var totalAbove: Int
    public var totalBelow: Int

    /// The HIG's sizes for `spec` in `unit`: in cells a header and a footer are a line each,
    /// grouped sections are a line apart and inset rows two cells in; in points a header or
    /// footer is 28 pt, grouped sections 16 pt apart, inset rows 20 pt in.
    public init(_ spec: SectionSpec, unit: LayoutOptions.Unit) {
        let cells = unit == .cell
        header = cells ? 1 : 28
        footer = spec.footers ? (cells ? 1 : 28) : 0
        gap = spec.style == .plain ? 0 : (cells ? 1 : 16)
        inset = spec.style == .insetGrouped ? (cells ? 2 : 20) : 0
        let above = spec.grandTotal == .top || spec.grandTotal == .pinnedTop
        totalAbove = spec.grandTotal != nil && above ? header : 0
        totalBelow = spec.grandTotal != nil && !above ? header : 0
    }
}

/// A sectioned view's geometry: section `k` starts (its header's top) at
/// `above + k × (header + footer + gap) + rows before it`, its rows follow the header, its footer
/// the rows; so a row's top is `above + k × (header + footer + gap) + header + offset of the row`
/// (`above`: a grand total row before the first section).
/// Finding the section at an offset halves over the sections (O(log² s) with the counts' tree).
struct SectionGeometry: ViewOffsets {
    var rows: RowOffsets
    var counts: SectionCounts
    var metrics: SectionMetrics

    private var perSection: Int { metrics.header + metrics.footer + metrics.gap }

    var totalHeight: Int {
        let sections = counts.sectionCount
        guard sections > 0 else { return 0 }
        return metrics.totalAbove + sections * (metrics.header + metrics.footer) + (sections - 1) * metrics.gap
            + rows.totalHeight + metrics.totalBelow
    }

    /// The top of section `k`'s header (its gap, if any, is above it).
    func headerTop(_ section: Int) -> Int {
        metrics.totalAbove + section * perSection + rows.offset(of: counts.rowsBefore(section))
    }

    /// The top of section `k`'s footer (or where it would be).
    func footerTop(_ section: Int) -> Int {
        metrics.totalAbove + section * perSection + metrics.header + rows.offset(of: counts.rowsBefore(section + 1))
    }

    func offset(of position: Int) -> Int {
        let section = counts.section(holding: min(position, max(0, counts.total - 1)))
        return metrics.totalAbove + section * perSection + metrics.header + rows.offset(of: position)
    }

    func height(at position: Int) -> Int { rows.height(at: position) }

    /// The section whose header starts at or above `offset` (the first one above it).
    func section(atOffset offset: Int) -> Int {
        var low = 0
        var high = counts.sectionCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if headerTop(middle) <= offset { low = middle } else { high = middle - 1 }
        }
        return max(0, low)
    }

    func position(atOffset offset: Int) -> (position: Int, inside: Int) {
        let section = self.section(atOffset: offset)
        let first = counts.rowsBefore(section)
        let end = first + counts.counts[section]
        let local = offset - headerTop(section) - metrics.header
        guard local >= 0 else { return (first, local) }
        let rowOffset = rows.offset(of: first) + local
        if rowOffset >= rows.offset(of: end) {
            // In the footer or the space after it: the section's last row.
            return (end - 1, rowOffset - rows.offset(of: end - 1))
        }
        return rows.position(atOffset: rowOffset)
    }
}
