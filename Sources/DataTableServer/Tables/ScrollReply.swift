import DataTableEngine
import DataTableProtocol

/// `scroll`'s reply from the engine's window.
enum ScrollReply {
    static func response(_ window: ScrollWindow, table: Table) -> ScrollRequest.Response {
        let plan = window.plan
        func accessory(_ placed: LayoutPlan.PlacedAccessory?) -> LayoutRequest.Accessory? {
            placed.map { .init(kind: $0.kind.rawValue, x: $0.x, width: $0.width) }
        }
        let keys = window.columns.map(\.key)
        return ScrollRequest.Response(
            table: table.name,
            version: Int(table.version),
            mode: plan.mode.rawValue,
            unit: plan.unit.rawValue,
            total: window.rowCount,
            selected: table.selectedCount,
            errors: table.errorCount,
            viewport: .init(x: window.x, y: window.y, width: window.width, height: window.height),
            contentWidth: window.contentWidth,
            contentHeight: window.contentHeight,
            header: .init(height: window.headerHeight, shadow: window.shadow),
            columns: window.columns.map { column in
                .init(
                    key: column.key,
                    x: column.x,
                    width: column.width,
                    align: column.align.rawValue,
                    lines: column.lines,
                    header: column.header,
                    sticky: column.sticky ? true : nil,
                    binding: column.binding?.rawValue
                )
            },
            accessories: .init(
                left: accessory(plan.mode == .list ? nil : plan.leftAccessory),
                right: accessory(plan.mode == .list ? nil : plan.rightAccessory)
            ),
            rows: window.rows.map { row in
                ScrollRequest.Row(
                    id: WireValues.json(row.id),
                    index: row.index,
                    y: row.y,
                    height: row.height,
                    cells: row.cells,
                    tall: row.tall ? true : nil,
                    selected: row.selected ? true : nil,
                    highlight: highlight(row.highlight),
                    drafts: row.drafts.isEmpty
                        ? nil
                        : Dictionary(
                            row.drafts.map {
                                (keys[$0.column], DraftReply(text: $0.draft.text, error: $0.draft.message))
                            },
                            uniquingKeysWith: { first, _ in first }
                        ),
                    readOnly: row.readOnly.isEmpty ? nil : row.readOnly.map { keys[$0] }
                )
            },
            first: window.firstVisible,
            last: window.lastVisible,
            newAbove: window.newAbove
        )
    }

    /// A highlight to three decimals; absent once it rounds to 0.
    private static func highlight(_ value: Double) -> Double? {
        let rounded = (value * 1000).rounded() / 1000
        return rounded > 0 ? rounded : nil
    }
}
