import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `scroll` (protocol.md, "Scroll and views").
    mutating func registerScrollMethods() {
        // A view whose rows are measured scrolls in microseconds, on the event loop; a first
        // scroll in a font measures every row first, and new sections of a large table are
        // worked out, on a copy, off the lock and the loop.
        register(ScrollRequest.self, replying: ScrollReply.self) { request, context in
            try Self.scroll(request, &context, unlessMeasuring: true)
        } otherwise: { request, context in
            try await Self.scrollMeasuring(request, &context)
        }
    }

    /// The scroll, with the table's rows measured first (on a copy, off the lock) when they must
    /// be, and new sections of a large table worked out off the lock.
    static func scrollMeasuring(_ request: ScrollRequest, _ context: inout RequestContext, looking: Bool = true)
        async throws -> ScrollReply
    {
        let (view, options) = try Self.prepare(request, context)
        try await context.server.measure(request.table, for: options, by: context.requester)
        var prepared: PreparedSections?
        if let sections = Self.sectionsChange(request, view) {
            let copy = try context.server.snapshot(request.table, by: context.requester)
            if let spec = try Self.sectionSpec(sections, in: copy) {
                prepared = try await context.server.heavyWork.run {
                    copy.preparedSections(spec, id: view.id, within: view.state.filter)
                }
            }
        }
        return try Self.scroll(request, &context, unlessMeasuring: false, prepared: prepared, looking: looking)!
    }

    /// The sections `request` sets, when they differ from the view's.
    static func sectionsChange(_ request: ScrollRequest, _ view: TableView) -> ScrollRequest.Sections? {
        request.sections.flatMap { $0 == view.sections ? nil : $0 }
    }

    /// The scroll, or `nil` (having changed nothing) when `unlessMeasuring` and the table's rows
    /// must be measured first, or new sections worked out (a large table's, off the lock).
    static func scroll(
        _ request: ScrollRequest,
        _ context: inout RequestContext,
        unlessMeasuring: Bool,
        prepared: PreparedSections? = nil,
        looking: Bool = true
    ) throws -> ScrollReply? {
        var (view, options) = try prepare(request, context)
        var input = try scrollInput(request, view: view)
        input.looks = looking
        var state = view.state
        // New sections are set in the table before the scroll.
        let sections = sectionsChange(request, view)
        // Most scrolls of a view change nothing in the table (its plan and row offsets are
        // kept): they read it alongside other readers.
        let requester = context.requester
        var reply =
            sections != nil
            ? nil
            : try context.server.read(request.table, by: requester) { table -> ScrollReply? in
                try table.scrollAsIs(options, input, view: &state).map {
                    ScrollReply($0, table: table, losses: view)
                }
            }
        if reply == nil {
            state = view.state
            // Asked under the same lock the scroll takes.
            reply = try context.server.readKeeping(request.table, by: requester) { table -> ScrollReply? in
                if unlessMeasuring, !ServerState.isMeasured(table, for: options) { return nil }
                if let sections {
                    let spec = try Self.sectionSpec(sections, in: table)
                    if unlessMeasuring, spec != nil, table.rowCount >= ServerState.offLockRows { return nil }
                    table.setSections(spec, id: view.id, within: state.filter, prepared: prepared)
                    state.sections = spec == nil ? nil : view.id
                }
                return ScrollReply(try table.scroll(options, input, view: &state), table: table, losses: view)
            }
            if reply != nil, let sections {
                view.sections = sections.column == nil && sections.columns == nil ? nil : sections
            }
        }
        guard var reply else { return nil }
        view.state = state
        // Columns dropped under the view's filter or sections: it lost them, and says so once.
        reply.lost = view.take(reply.losses, keepsFilter: reply.keepsFilter)
        context.views[request.table] = view
        return reply
    }

    /// The connection's view of the table with the request's changes to it, and its layout
    /// options; the connection keeps it only once the scroll is done.
    static func prepare(_ request: ScrollRequest, _ context: RequestContext) throws
        -> (view: TableView, options: LayoutOptions)
    {
        var view = context.views[request.table] ?? TableView(table: request.table)
        let isNew = context.views[request.table] == nil
        if view.merge(request) || view.resolved == nil {
            guard view.layout.width > 0 || !isNew else {
                throw ResponseError.invalidParams(
                    "The first scroll of a view gives viewport.width (and viewport.height).",
                    field: "params.viewport.width"
                )
            }
            var layout = view.layout
            if let width = request.viewport?.width { layout.width = width }
            view.resolved = try LayoutParams(layout, fonts: context.server.fonts, widthField: "params.viewport.width")
        }
        if let follow = request.follow {
            view.state.follow = follow
        }
        return (view, view.resolved!.options)
    }

    /// The sections `request` asks for, checked against `table`; `nil` ends them.
    static func sectionSpec(_ sections: ScrollRequest.Sections, in table: Table) throws -> SectionSpec? {
        let keys: [String]
        switch (sections.column, sections.columns) {
        case (let column?, nil): keys = [column]
        case (nil, let columns?): keys = columns
        case (_?, _?):
            throw ResponseError.invalidParams(
                "Give column (one level) or columns (nested groups), not both.",
                field: "params.sections.columns"
            )
        case (nil, nil):
            guard sections.style == nil, sections.index == nil, sections.footers == nil, sections.aggregates == nil,
                sections.totals == nil, sections.grandTotal == nil
            else {
                throw ResponseError.invalidParams(
                    "sections without a column ends them; give the column to set a style, index, footers or aggregates.",
                    field: "params.sections.column"
                )
            }
            return nil
        }
        guard (1...SectionSpec.maximumLevels).contains(keys.count) else {
            throw ResponseError.invalidParams(
                "columns nests groups by 1 to \(SectionSpec.maximumLevels) columns.",
                field: "params.sections.columns"
            )
        }
        var columns: [Int] = []
        for (position, key) in keys.enumerated() {
            guard let column = table.columnIndex(of: key) else {
                throw ResponseError(TableError.noSuchColumn(key, row: nil))
            }
            try table.checkNotViewOrder(column, "grouped by", field: "sections.columns[\(position)]")
            guard !columns.contains(column) else {
                throw ResponseError.invalidParams(
                    "\(key) is given twice: each level groups by another column.",
                    field: "params.sections.columns[\(position)]"
                )
            }
            columns.append(column)
        }
        let style = sections.style ?? .plain
        guard sections.index != true || style == .plain else {
            throw ResponseError.invalidParams(
                "An index goes with plain sections only (Apple HIG).",
                field: "params.sections.index"
            )
        }
        let aggregates = try sectionAggregates(sections.aggregates ?? [:], in: table)
        guard !aggregates.isEmpty || (sections.totals == nil && sections.grandTotal == nil) else {
            throw ResponseError.invalidParams(
                "totals and grandTotal place aggregates: give sections.aggregates too.",
                field: sections.totals != nil ? "params.sections.totals" : "params.sections.grandTotal"
            )
        }
        return SectionSpec(
            columns: columns,
            style: style,
            index: sections.index ?? false,
            footers: sections.footers ?? false,
            aggregates: aggregates,
            totals: sections.totals ?? .header,
            grandTotal: sections.grandTotal
        )
    }

    /// The aggregates asked for, each checked against its column's type, in the table's column
    /// order and each column's functions in the order ``AggregateFunction`` lists them.
    private static func sectionAggregates(
        _ asked: [String: ScrollRequest.AggregateFunctions],
        in table: Table
    ) throws -> [SectionAggregate] {
        var aggregates: [SectionAggregate] = []
        // By key, so that of several keys that are wrong, the same one is named every time.
        for (key, functions) in asked.sorted(by: { $0.key < $1.key }) {
            let field = "params.sections.aggregates.\(key)"
            guard let column = table.columnIndex(of: key) else {
                throw ResponseError(TableError.noSuchColumn(key, row: nil))
            }
            guard !functions.functions.isEmpty else {
                throw ResponseError.invalidParams("Give \(key) at least one function.", field: field)
            }
            try table.checkNotViewOrder(column, "summed up by section", field: "sections.aggregates.\(key)")
            let type = table.columns[column].type
            for function in functions.functions {
                guard function.fits(type) else {
                    let takes: String
                    switch function {
                    case .sum, .avg: takes = "a number or duration column"
                    default: takes = "a column that is not an image column"
                    }
                    throw ResponseError.invalidParams(
                        "\(function.rawValue) needs \(takes); \(key) is \(type.rawValue).",
                        field: field
                    )
                }
                let aggregate = SectionAggregate(column: column, function: function)
                if !aggregates.contains(aggregate) { aggregates.append(aggregate) }
            }
        }
        let order = AggregateFunction.allCases
        return aggregates.sorted {
            ($0.column, order.firstIndex(of: $0.function)!) < ($1.column, order.firstIndex(of: $1.function)!)
        }
    }

    /// The viewport height, offsets and target of a request, checked.
    private static func scrollInput(_ request: ScrollRequest, view: TableView) throws(ResponseError) -> ScrollInput {
        func whole(_ value: Double?, _ name: String, least: Int) throws(ResponseError) -> Int? {
            guard let value else { return nil }
            guard value.isFinite, value >= Double(least), value <= 1e12 else {
                throw .invalidParams("\(name) must be a number from \(least).", field: "params.\(name)")
            }
            return Int(value)
        }
        let height = try whole(request.viewport?.height, "viewport.height", least: 1) ?? view.state.height
        guard height > 0 else {
            throw .invalidParams("The first scroll of a view gives viewport.height.", field: "params.viewport.height")
        }
        guard height <= ScrollRequest.maximumHeight else {
            throw .invalidParams(
                "viewport.height must be at most \(ScrollRequest.maximumHeight).",
                field: "params.viewport.height"
            )
        }
        let overscan = request.overscan ?? 0
        guard overscan >= 0, overscan <= ScrollRequest.maximumOverscan else {
            throw .invalidParams(
                "overscan must be from 0 to \(ScrollRequest.maximumOverscan).",
                field: "params.overscan"
            )
        }
        var target: ScrollTarget?
        if let to = request.to {
            let align = to.align ?? .nearest
            switch (to.id, to.index, to.section) {
            case (let id?, nil, nil): target = .row(try WireValues.rowID(id, field: "params.to.id"), align)
            case (nil, let index?, nil): target = .index(index, align)
            case (nil, nil, let section?):
                guard to.align == nil else {
                    throw .invalidParams("A section comes to the top; align is for rows.", field: "params.to.align")
                }
                target = .section(try WireValues.cellInput(section, field: "params.to.section"))
            default:
                throw .invalidParams(
                    "to names a row by id or by index, or a section (one of them).",
                    field: "params.to"
                )
            }
            guard request.viewport?.y == nil else {
                throw .invalidParams("Give viewport.y or to, not both.", field: "params.to")
            }
        }
        var input = ScrollInput(
            height: height,
            x: try whole(request.viewport?.x, "viewport.x", least: 0),
            y: try whole(request.viewport?.y, "viewport.y", least: 0),
            target: target,
            overscan: overscan,
            now: Date().timeIntervalSince1970
        )
        input.values = request.values ?? false
        return input
    }
}
