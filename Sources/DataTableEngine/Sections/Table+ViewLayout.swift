extension Table {
    /// ``layout(_:)`` of a view: the same columns (their widths come from every row, so a
    /// filter does not make them jump), with the row count, two-line rows and content height of
    /// the rows the view shows, its sections' headers, footers and gaps included (inset grouped
    /// sections lay the columns out narrower by their inset).
    public mutating func layout(_ options: LayoutOptions, view: ViewState) throws(TableError) -> LayoutPlan {
        let options = insetOptions(options, view: view)
        var plan = try layout(options)
        let rows = viewRows(view)
        let heights: (rows: RowOffsets, all: Int)
        switch rows {
        case .all: return plan
        case .filtered:
            guard let offsets = filteredOffsets(view.filter!, for: plan.heightRule) else { return plan }
            heights = (offsets, offsets.totalHeight)
        case .sectioned(let index):
            keepSectionOffsets(index, for: plan.heightRule)
            let geometry = sectionGeometry(index, plan: plan, options: options)!
            heights = (geometry.rows, geometry.totalHeight)
        }
        plan.rowCount = heights.rows.count
        let extra = plan.twoLineRowHeight - plan.rowHeight
        plan.twoLineRows = extra > 0 ? (heights.rows.totalHeight - plan.rowCount * plan.rowHeight) / extra : 0
        plan.contentHeight = plan.headerHeight + heights.all
        return plan
    }
}
