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
    /// The view's filter conditions and search text, as `filter` set them (its id in the table
    /// is `state.filter`).
    var conditions: [FilterConditionParam] = []
    var search = ""
    /// The view's sections as `scroll` set them (kept in the table as `state.sections`).
    var sections: ScrollRequest.Sections?

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

extension RequestContext {
    /// The id of the filter on this connection's view of `table` when a request asks to act on
    /// its view (`view: true`); `nil` (every row) otherwise, or when the view has no filter.
    func viewFilter(of table: String, if asked: Bool?) -> UInt64? {
        asked == true ? views[table]?.state.filter : nil
    }
}
