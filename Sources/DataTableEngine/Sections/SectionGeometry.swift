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

/// A sectioned view's geometry, leaf by leaf (``SectionShape``): a leaf starts with its gap (if
/// any), then its headers, its shown rows and its footers; so the top of leaf `i` is
/// `above + header × headers before i + footer × footers before i + gap × gaps before i +` the
/// height of the rows shown before it (`above`: a grand total row before the first group), and
/// a shown row's top is its leaf's rows' top plus its offset among the shown rows.
/// Finding the leaf at an offset halves over the leaves (O(log² s) with the shape's trees).
struct SectionGeometry: ViewOffsets {
    /// The heights of the shown rows, by shown position.
    var rows: RowOffsets
    var shape: SectionShape
    var metrics: SectionMetrics

    var leafCount: Int { shape.leafCount }

    /// Headers, footers and gaps of the leaves before `leaf`.
    private func extras(before leaf: Int) -> Int {
        metrics.header * shape.headers.rowsBefore(leaf) + metrics.footer * shape.footers.rowsBefore(leaf)
            + metrics.gap * shape.gaps.rowsBefore(leaf)
    }

    var totalHeight: Int {
        guard leafCount > 0 else { return 0 }
        return leafTop(leafCount) + metrics.totalBelow
    }

    /// The top of `leaf` (its gap, then its headers); `leafCount`: the bottom of the last leaf.
    func leafTop(_ leaf: Int) -> Int {
        metrics.totalAbove + extras(before: leaf) + rows.offset(of: shape.shown.rowsBefore(leaf))
    }

    /// The top of `leaf`'s first shown row (or where it would be).
    func rowsTop(_ leaf: Int) -> Int {
        leafTop(leaf) + metrics.gap * shape.gaps.counts[leaf] + metrics.header * shape.headers.counts[leaf]
    }

    /// The top of the header of `level` above `leaf` (one of ``SectionShape/headerLevels(_:)``).
    func headerTop(_ leaf: Int, level: Int) -> Int {
        leafTop(leaf) + metrics.gap * shape.gaps.counts[leaf]
            + metrics.header * (level - shape.headerLevels(leaf).lowerBound)
    }

    /// The top of the footer of `level` after `leaf`'s rows (one of ``SectionShape/footerLevels(_:)``).
    func footerTop(_ leaf: Int, level: Int) -> Int {
        let first = shape.shown.rowsBefore(leaf)
        let rowsHeight = rows.offset(of: first + shape.shown.counts[leaf]) - rows.offset(of: first)
        return rowsTop(leaf) + rowsHeight + metrics.footer * (Int(shape.openDepth[leaf]) - 1 - level)
    }

    func offset(of position: Int) -> Int {
        let shown = shape.shown.total
        guard shown > 0 else { return metrics.totalAbove }
        let leaf = shape.shown.section(holding: min(position, shown - 1))
        return rowsTop(leaf) + rows.offset(of: position) - rows.offset(of: shape.shown.rowsBefore(leaf))
    }

    func height(at position: Int) -> Int { rows.height(at: position) }

    /// The last leaf whose headers start at or above `offset` (the first leaf when none does):
    /// the space before a leaf goes with the leaf above it.
    func leaf(atOffset offset: Int) -> Int {
        var low = 0
        var high = leafCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if leafTop(middle) + metrics.gap * shape.gaps.counts[middle] <= offset {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return max(0, low)
    }

    func position(atOffset offset: Int) -> (position: Int, inside: Int) {
        let total = shape.shown.total
        guard total > 0 else { return (0, 0) }
        let leaf = self.leaf(atOffset: offset)
        let first = shape.shown.rowsBefore(leaf)
        let end = first + shape.shown.counts[leaf]
        guard end > first else {
            // A collapsed group's header: the next row shown below it, else the last one above.
            let near = first < total ? first : total - 1
            return (near, offset - self.offset(of: near))
        }
        let local = offset - rowsTop(leaf)
        guard local >= 0 else { return (first, local) }
        let rowOffset = rows.offset(of: first) + local
        if rowOffset >= rows.offset(of: end) {
            // In the footers or the space after them: the leaf's last row.
            return (end - 1, rowOffset - rows.offset(of: end - 1))
        }
        return rows.position(atOffset: rowOffset)
    }
}
