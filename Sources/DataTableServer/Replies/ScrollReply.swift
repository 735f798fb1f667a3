import DataTableEngine
import DataTableProtocol

/// `scroll`'s reply: the engine's window and the table's counts at the time.
///
/// It writes its JSON straight from the window (``write(to:)``, on the hot path of every
/// scroll); encoded with `JSONEncoder` it reads the same, through the documented
/// ``ScrollRequest/Response`` (``response``).
struct ScrollReply: Encodable, Sendable {
    var window: ScrollWindow
    var table: String
    var version: Int
    var selected: Int
    var errors: Int
    /// Per column on screen (in ``ScrollWindow/columns`` order): its sort direction and whether
    /// its cells are read-only, for assistive technology.
    var columnStates: [(sort: String?, readOnly: Bool)]
    /// Per column on screen, its rules, for the rows' typed values; empty unless the scroll
    /// asked for values.
    var valueRules: [ColumnRules] = []
    /// The rules of each column the window's aggregates read, by key, for their typed values.
    var aggregateRules: [String: ColumnRules] = [:]
    /// What the view lost in the table since it last heard (columns dropped under its filter
    /// or sections), and whether the table still keeps a filter for it.
    var losses: [ViewLoss] = []
    var keepsFilter = false
    /// ``losses`` as the reply tells them, once the view has taken them in.
    var lost: ViewLost?

    /// The reply for `view`'s window of `table`, with what the view lost since it last heard.
    init(_ window: ScrollWindow, table: Table, losses view: TableView) {
        self.init(window, table: table)
        losses = table.viewLosses(of: view.id, after: view.lossesSeen)
        if !losses.isEmpty { keepsFilter = table.hasFilter(view.id) }
    }

    init(_ window: ScrollWindow, table: Table) {
        self.window = window
        self.table = table.name
        self.version = Int(table.version)
        self.selected = table.selectedCount
        self.errors = table.errorCount
        // A loop, not a closure: a closure would take a copy of the whole table.
        columnStates = []
        columnStates.reserveCapacity(window.columns.count)
        for column in window.columns {
            columnStates.append((table.sortDirection(of: column.key), table.columnIsReadOnly(key: column.key)))
        }
        if window.rows.first?.values != nil {
            valueRules.reserveCapacity(window.columns.count)
            for column in window.columns {
                if let rules = table.column(column.key)?.rules { valueRules.append(rules) }
            }
        }
        if let sections = window.sections {
            let results = sections.shown.flatMap(\.aggregates) + (sections.grandTotal?.aggregates ?? [])
            for result in results where aggregateRules[result.column] == nil {
                aggregateRules[result.column] = table.column(result.column)?.rules
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        try response.encode(to: encoder)
    }

    /// The reply as the protocol's typed response.
    var response: ScrollRequest.Response {
        let window = window
        let plan = window.plan
        func accessory(_ placed: LayoutPlan.PlacedAccessory?) -> LayoutRequest.Accessory? {
            placed.map { .init(kind: $0.kind, x: $0.x, width: $0.width) }
        }
        let keys = window.columns.map(\.key)
        return ScrollRequest.Response(
            table: table,
            version: version,
            mode: plan.mode.rawValue,
            unit: plan.unit,
            total: window.rowCount,
            selected: selected,
            errors: errors,
            viewport: .init(x: window.x, y: window.y, width: window.width, height: window.height),
            contentWidth: window.contentWidth,
            contentHeight: window.contentHeight,
            header: .init(height: window.headerHeight, shadow: window.shadow),
            columns: zip(window.columns, columnStates).map { column, state in
                .init(
                    key: column.key,
                    x: column.x,
                    width: column.width,
                    align: column.align,
                    lines: column.lines,
                    header: column.header,
                    sticky: column.sticky ? true : nil,
                    binding: column.binding,
                    sort: state.sort,
                    readOnly: state.readOnly ? true : nil
                )
            },
            accessories: .init(left: accessory(leftAccessory), right: accessory(rightAccessory)),
            rows: window.rows.map { row in
                ScrollRequest.Row(
                    id: WireValues.json(row.id),
                    index: row.index,
                    y: row.y,
                    height: row.height,
                    cells: window.cells(of: row),
                    tall: row.tall ? true : nil,
                    selected: row.selected ? true : nil,
                    highlight: Self.highlight(row.highlight),
                    drafts: row.drafts.isEmpty
                        ? nil
                        : Dictionary(
                            row.drafts.map {
                                (keys[$0.column], DraftReply(text: $0.draft.text, error: $0.draft.message))
                            },
                            uniquingKeysWith: { first, _ in first }
                        ),
                    readOnly: row.readOnly.isEmpty ? nil : row.readOnly.map { keys[$0] },
                    syncStatus: row.syncStatus,
                    drillDown: row.drillDown,
                    version: Int(row.version),
                    values: row.values.map { values in
                        zip(values, valueRules).map { WireValues.json($0, rules: $1) }
                    }
                )
            },
            first: window.firstVisible,
            last: window.lastVisible,
            newAbove: window.newAbove,
            shown: window.shownCount,
            filter: window.filterDescription,
            hiddenNew: window.hiddenNew,
            sections: window.sections.map { sections in
                ScrollRequest.SectionsReply(
                    column: sections.column,
                    columns: sections.columns.count > 1 ? sections.columns : nil,
                    style: sections.style,
                    count: sections.count,
                    inset: sections.inset,
                    shown: sections.shown.map {
                        .init(
                            title: $0.title,
                            count: $0.count,
                            y: $0.y,
                            height: $0.height,
                            footerY: $0.footerY,
                            sticky: $0.sticky ? true : nil,
                            aggregates: $0.aggregates.isEmpty ? nil : $0.aggregates.map(aggregateReply),
                            level: sections.columns.count > 1 ? $0.level : nil,
                            path: sections.columns.count > 1 ? $0.path : nil,
                            collapsed: $0.collapsed ? true : nil
                        )
                    },
                    index: sections.index?.map { .init(title: $0.title, y: $0.y) },
                    totals: sections.shown.contains { !$0.aggregates.isEmpty } ? sections.totals : nil,
                    grandTotal: sections.grandTotal.map {
                        .init(
                            placement: $0.placement,
                            y: $0.y,
                            height: $0.height,
                            aggregates: $0.aggregates.map(aggregateReply)
                        )
                    }
                )
            },
            lost: lost
        )
    }

    /// An aggregate as the wire has it: its value typed as the column's values are.
    func aggregateReply(_ result: AggregateResult) -> ScrollRequest.AggregateReply {
        .init(
            column: result.column,
            function: result.function,
            value: result.value.map { value in
                switch value {
                case .count(let count): .integer(Int64(count))
                case .value(let cell): aggregateRules[result.column].map { WireValues.json(cell, rules: $0) } ?? .null
                }
            },
            text: result.text
        )
    }

    /// The accessories drawn beside the rows: none in list mode.
    var leftAccessory: LayoutPlan.PlacedAccessory? {
        window.plan.mode == .list ? nil : inset(window.plan.leftAccessory)
    }

    var rightAccessory: LayoutPlan.PlacedAccessory? {
        window.plan.mode == .list ? nil : inset(window.plan.rightAccessory)
    }

    /// An accessory where inset grouped sections put it: in from the edge, as the columns are.
    private func inset(_ accessory: LayoutPlan.PlacedAccessory?) -> LayoutPlan.PlacedAccessory? {
        guard var accessory, let inset = window.sections?.inset, inset > 0 else { return accessory }
        accessory.x += inset
        return accessory
    }

    /// A highlight to three decimals; absent once it rounds to 0.
    static func highlight(_ value: Double) -> Double? {
        let rounded = (value * 1000).rounded() / 1000
        return rounded > 0 ? rounded : nil
    }
}
