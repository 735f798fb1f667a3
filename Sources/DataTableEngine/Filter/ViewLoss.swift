/// What a view lost when a column it filtered or grouped by was dropped: an `alter` (or an
/// undo or redo that takes a column out) is never held up by another connection's view; the
/// view loses that part instead, and is told on its next request.
public struct ViewLoss: Sendable, Equatable {
    /// Which part of the view went.
    public enum Part: String, Sendable {
        /// The filter's conditions on the column (the rest of the filter stays).
        case filter
        /// The sections, which were by the column.
        case sections
    }

    /// The dropped column's key.
    public var column: String
    /// What the view lost.
    public var part: Part
    /// The table's version after the change that dropped the column.
    public var version: UInt64
}

extension Table {
    /// What the view with `id` lost after the table's `version` (the version it last heard of),
    /// oldest first.
    public func viewLosses(of id: UInt64, after version: UInt64) -> [ViewLoss] {
        (lostByViews[id] ?? []).filter { $0.version > version }
    }

    /// The column at `index` is going: every view's filter loses its conditions on it and every
    /// view grouped by it loses its sections, each noted for the view. O(views).
    mutating func viewsLose(column index: Int) {
        let key = columns[index].key
        for filter in filters where filter.filter.conditionsRead(index) {
            for view in filter.views {
                lostByViews[view, default: []].append(ViewLoss(column: key, part: .filter, version: version + 1))
            }
        }
        let grouped = sections.filter { $0.spec.columns.contains(index) }
        guard !grouped.isEmpty else { return }
        for sectioned in grouped {
            lostByViews[sectioned.id, default: []].append(ViewLoss(column: key, part: .sections, version: version + 1))
        }
        sections.removeAll { $0.spec.columns.contains(index) }
        filterGeneration += 1
    }

    /// Filters left with no condition and no search let every row through: not kept (the view
    /// shows the whole table). Sections within them section every row.
    mutating func dropEmptyFilters() {
        let empty = Set(filters.filter { $0.filter.isEmpty }.flatMap(\.views))
        guard !empty.isEmpty else { return }
        filters.removeAll { $0.filter.isEmpty }
        for index in sections.indices where sections[index].filter.map(empty.contains) == true {
            sections[index].filter = nil
        }
        filterGeneration += 1
    }
}
