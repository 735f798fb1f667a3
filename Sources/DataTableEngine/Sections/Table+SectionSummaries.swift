import DataTableVocabulary
import Foundation
import TextMeasure

extension AggregateFunction {
    /// Whether the function means something for a column of `type`: totals and means of
    /// numbers and durations; orders of anything but images; counts, first and last of anything.
    public func fits(_ type: ColumnType) -> Bool {
        switch self {
        case .count, .countDistinct, .first, .last: true
        case .sum, .avg: type == .number || type == .duration
        case .min, .max, .median: type != .image
        }
    }
}

/// An aggregate as a view shows it: its column, its function, what it comes to (`nil` when the
/// group has no value to give it, as a `min` of empty cells) and that as the column shows it.
public struct AggregateResult: Sendable, Hashable {
    /// The column's key.
    public var column: String
    public var function: AggregateFunction
    public var value: AggregateValue?
    /// The value in the column's display format (a count as a whole number); "" for none.
    public var text: String
}

extension Table {
    /// The sections' rows `all` as a counted order, and summaries of `spec`'s columns over the
    /// rows `layout` places (none without a layout), on every core in two rounds of pieces.
    /// First: each ordered summary's rows in value order (the longest pieces, first), the
    /// sections' order, and each summary's counts and totals. Then each ordered summary's
    /// levels, a level a piece, dealt from its rows in value order.
    func orderAndSummaries(
        of all: [UInt32],
        spec: SectionSpec,
        layout: SummaryLayout?
    ) -> (rows: RowOrder, summaries: [ColumnSummary]) {
        guard let layout else { return (RowOrder(all), []) }
        let orderedFunctions: Set<AggregateFunction> = [.min, .max, .median, .countDistinct]
        let columns = spec.summedColumns
        let stores = columns.map { self.stores[$0] }
        let ordered = columns.map { column in
            spec.aggregates.contains { $0.column == column && orderedFunctions.contains($0.function) }
        }
        enum Piece: Sendable {
            case valueOrder(Int)
            case sectionsOrder
            case summary(Int)
        }
        enum Made: Sendable {
            case valueOrder(Int, ColumnSummary.RowsByValue)
            case sectionsOrder(RowOrder)
            case summary(Int, ColumnSummary, ColumnSummary.RowsByValue?)
        }
        // An exact column's value order needs nothing of its summary; other text's reads the
        // values the summary keeps, and follows it in one piece.
        let apart = columns.indices.filter { ordered[$0] && stores[$0].orderKeyIsExact }
        let firstPieces = apart.map(Piece.valueOrder) + [.sectionsOrder] + columns.indices.map(Piece.summary)
        let firstRound = ConcurrentPieces.map(firstPieces.count) { piece -> Made in
            switch firstPieces[piece] {
            case .valueOrder(let index):
                return .valueOrder(index, ColumnSummary.valueOrder(store: stores[index], layout: layout, cells: nil))
            case .sectionsOrder:
                return .sectionsOrder(RowOrder(all))
            case .summary(let index):
                let summary = ColumnSummary(
                    column: columns[index],
                    ordered: ordered[index],
                    store: stores[index],
                    layout: layout
                )
                let byValue =
                    ordered[index] && !apart.contains(index)
                    ? ColumnSummary.valueOrder(store: stores[index], layout: layout, cells: summary.cells) : nil
                return .summary(index, summary, byValue)
            }
        }
        var rows = RowOrder()
        var summaries: [ColumnSummary] = []
        var byValue = [ColumnSummary.RowsByValue?](repeating: nil, count: columns.count)
        for made in firstRound {
            switch made {
            case .valueOrder(let index, let order): byValue[index] = order
            case .sectionsOrder(let order): rows = order
            case .summary(let index, let summary, let order):
                summaries.append(summary)
                if let order { byValue[index] = order }
            }
        }
        // The second round: one piece per ordered summary and level.
        let placings = columns.indices.flatMap { index in
            byValue[index] == nil ? [] : (0..<layout.levelCount).map { (index, $0) }
        }
        let (counted, sorted) = (summaries, byValue)
        let placed = ConcurrentPieces.map(placings.count) { piece in
            let (index, level) = placings[piece]
            return counted[index].placedInValueOrder(sorted[index]!, level: level, layout: layout)
        }
        for (piece, (index, level)) in placings.enumerated() {
            summaries[index].setValueOrder(level: level, placed[piece])
        }
        return (rows, summaries)
    }

    /// For each summed level of the sections at `index`, the group holding `leaf`; the grand
    /// total's one group last, when there is one.
    private func summaryGroups(of leaf: Int, in index: Int) -> [Int] {
        var groups = (0..<sections[index].depth).map { sections[index].shape.group($0, of: leaf) }
        if sections[index].spec.grandTotal != nil { groups.append(0) }
        return groups
    }

    /// `slot` was placed in `leaf` of the sections at `index`: the sums of every group holding
    /// it take it in.
    mutating func summarize(_ slot: UInt32, leaf: Int, in index: Int) {
        guard !sections[index].summaries.isEmpty else { return }
        let groups = summaryGroups(of: leaf, in: index)
        for summary in sections[index].summaries.indices {
            let value = stores[sections[index].summaries[summary].column][slot]
            sections[index].summaries[summary].insert(slot, value: value, groups: groups)
        }
    }

    /// `slot` is about to leave `leaf` of the sections at `index`: its sums let it go.
    mutating func unsummarize(_ slot: UInt32, leaf: Int, in index: Int) {
        guard !sections[index].summaries.isEmpty else { return }
        let groups = summaryGroups(of: leaf, in: index)
        for summary in sections[index].summaries.indices {
            sections[index].summaries[summary].remove(slot, groups: groups)
        }
    }

    /// Cells of `slot` in `columns` changed while it stays in `leaf`: the sums of those
    /// columns take its new values.
    mutating func resummarize(_ slot: UInt32, columns changed: [Int], leaf: Int, in index: Int) {
        let groups = summaryGroups(of: leaf, in: index)
        for summary in sections[index].summaries.indices
        where changed.contains(sections[index].summaries[summary].column) {
            let column = sections[index].summaries[summary].column
            sections[index].summaries[summary].remove(slot, groups: groups)
            sections[index].summaries[summary].insert(slot, value: cell(column, slot), groups: groups)
        }
    }

    // MARK: Reading them

    /// The rows of group `group` of `level` of the sections at `index`: where they start among
    /// the sections' rows, and how many.
    func groupRows(_ level: Int, group: Int, in index: Int) -> (start: Int, count: Int) {
        let leaves = sections[index].shape.leaves(level, group: group)
        let start = sections[index].counts.rowsBefore(leaves.lowerBound)
        return (start, sections[index].counts.rowsBefore(leaves.upperBound) - start)
    }

    /// The aggregates of group `group` of `level` of the sections at `index`, in the order the
    /// spec asks for them.
    func groupAggregates(_ level: Int, group: Int, in index: Int) -> [AggregateResult] {
        guard !sections[index].spec.aggregates.isEmpty else { return [] }
        let (start, count) = groupRows(level, group: group, in: index)
        return aggregates(in: index, level: level, group: group, start: start, count: count)
    }

    /// The aggregates of every row the view with sections at `index` shows; `nil` without a grand total.
    func grandAggregates(in index: Int) -> [AggregateResult]? {
        guard sections[index].spec.grandTotal != nil else { return nil }
        let count = sections[index].rows.count
        return aggregates(in: index, level: sections[index].depth, group: 0, start: 0, count: count)
    }

    /// The aggregates of the view with `id`'s groups: each group's (level by level, outermost
    /// first, each level's in order, with its titles from the outermost down) and the grand
    /// total's; `nil` when the view has no sections.
    public func summaries(of id: UInt64) -> (
        sections: [(path: [String], aggregates: [AggregateResult])], grand: [AggregateResult]?
    )? {
        guard let index = sectionsIndex(id) else { return nil }
        var groups: [(path: [String], aggregates: [AggregateResult])] = []
        for level in 0..<sections[index].depth {
            for group in 0..<sections[index].shape.groupCount(level) {
                let leaf = sections[index].shape.leaves(level, group: group).lowerBound
                groups.append(
                    (groupTitles(leaf, through: level, in: index), groupAggregates(level, group: group, in: index))
                )
            }
        }
        return (groups, grandAggregates(in: index))
    }

    /// The spec's aggregates of the rows at `start ..< start + count` of the sections' rows,
    /// read from the summaries' group `group` of `level` (the sections' depth: the grand total).
    private func aggregates(
        in index: Int,
        level: Int,
        group: Int,
        start: Int,
        count: Int
    ) -> [AggregateResult] {
        sections[index].spec.aggregates.map { aggregate in
            let value: AggregateValue?
            switch aggregate.function {
            case .first: value = edgeValue(of: aggregate.column, in: index, start: start, count: count, fromEnd: false)
            case .last: value = edgeValue(of: aggregate.column, in: index, start: start, count: count, fromEnd: true)
            default:
                let summary = sections[index].summaries.first { $0.column == aggregate.column }!
                value = summary.result(aggregate.function, level: level, group: group)
            }
            let text: String
            switch value {
            case .count(let count): text = String(count)
            case .value(let cell): text = OneLine.text(columns[aggregate.column].rules.displayText(cell))
            case nil: text = ""
            }
            return AggregateResult(
                column: columns[aggregate.column].key,
                function: aggregate.function,
                value: value,
                text: text
            )
        }
    }

    /// The first (or last) value of `column` among the sections' rows `start ..< start + count`,
    /// in the view's order, skipping empty cells: read a page of rows at a time from that end.
    private func edgeValue(of column: Int, in index: Int, start: Int, count: Int, fromEnd: Bool) -> AggregateValue? {
        let page = 64
        var done = 0
        while done < count {
            let take = min(page, count - done)
            let from = fromEnd ? start + count - done - take : start + done
            let slots = sections[index].rows.slots(from: from, limit: take)
            for slot in fromEnd ? slots.reversed() : slots where !cell(column, slot).isEmpty {
                return .value(cell(column, slot))
            }
            done += take
        }
        return nil
    }
}
