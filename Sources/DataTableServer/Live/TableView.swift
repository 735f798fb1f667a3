import DataTableEngine
import DataTableProtocol

/// One connection's view of one table: its layout settings (merged from every `scroll` that
/// gave some), the options they resolve to, and the engine's ``ViewState`` (offsets, anchor,
/// cached plan). Views live in the connection's ``RequestContext`` and go with it.
struct TableView: Sendable {
    /// The view's id in the table, for its filter and sections: unique in the process.
    let id = ServerState.nextViewID()
    /// The layout settings, as `layout` params; `width` is the viewport's.
    var layout: LayoutRequest
    /// `layout` resolved (fonts opened); `nil` after a change, until the next scroll.
    var resolved: LayoutParams?
    var state = ViewState()
    /// The view's filter terms and search text, as `filter` set them (its id in the table is
    /// `state.filter`).
    var conditions: [FilterTermParam] = []
    var search = ""
    /// The view's sections as `scroll` set them (kept in the table as `state.sections`).
    var sections: ScrollRequest.Sections?
    /// The table's version at the last loss the view was told of (``take(_:keepsFilter:)``).
    var lossesSeen: UInt64 = 0

    init(table: String) {
        layout = LayoutRequest(table: table, width: 0)
    }

    /// Takes the layout members `request` gives; returns whether any changed.
    mutating func merge(_ request: ScrollRequest) -> Bool {
        let before = layout
        if let width = request.viewport?.width { layout.width = width }
        layout.settings = layout.settings.merging(request.settings)
        return layout != before
    }
}

extension TableView {
    /// Takes in what the view lost in the table since it last heard (``Table/viewLosses(of:after:)``):
    /// its conditions on dropped columns go, and its sections when they were by one;
    /// `keepsFilter` says whether the table still keeps a filter for the view (one left with
    /// no condition and no search is not kept). Returns what was lost, for the reply, or `nil`.
    mutating func take(_ losses: [ViewLoss], keepsFilter: Bool) -> ViewLost? {
        guard let last = losses.last else { return nil }
        lossesSeen = last.version
        var lost = ViewLost(columns: [])
        for loss in losses {
            if !lost.columns.contains(loss.column) { lost.columns.append(loss.column) }
            switch loss.part {
            case .filter:
                let gone = conditions.filter { $0.reads(loss.column) }
                conditions.removeAll { $0.reads(loss.column) }
                if !gone.isEmpty { lost.where = (lost.where ?? []) + gone }
            case .sections:
                lost.sections = loss.column
                sections = nil
                state.sections = nil
            }
        }
        if !keepsFilter { state.filter = nil }
        return lost
    }
}

extension RequestContext {
    /// The id of the filter on this connection's view of `table` when a request asks to act on
    /// its view (`view: true`); `nil` (every row) otherwise, or when the view has no filter.
    func viewFilter(of table: String, if asked: Bool?) -> UInt64? {
        asked == true ? views[table]?.state.filter : nil
    }
}
