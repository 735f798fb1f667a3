import ArgumentParser
import DataTableProtocol
import Foundation

/// Layout settings a subcommand passes on to `layout` or `scroll`.
struct LayoutFlags: ParsableArguments {
    @Option(help: "The container's width (default: the terminal's, else 100).") var width: Int?
    @Option(help: "cell (default) or pt.") var unit = LengthUnit.cell
    @Flag(help: "Compact size class (a list report unless --horizontal-scroll).") var compact = false
    @Flag(help: "The container scrolls sideways: natural widths, nothing omitted.") var horizontalScroll = false
    @Option(help: "Leave this column out (repeat).", completion: .custom(Completions.columns)) var hide: [String] = []
    @Option(help: "Show this column first (repeat: in this order).", completion: .custom(Completions.columns))
    var first: [String] = []

    var resolvedWidth: Int { width ?? Output.terminalSize()?.columns ?? 100 }

    /// The column state these flags give a view: hidden columns, and the ones shown first.
    var columnState: (columns: [String: ColumnHints]?, order: [String]?) {
        (
            hide.isEmpty
                ? nil : Dictionary(hide.map { ($0, ColumnHints(hidden: true)) }, uniquingKeysWith: { a, _ in a }),
            first.isEmpty ? nil : first
        )
    }

    /// A `layout` of `table` with these settings.
    func layoutRequest(_ table: String) -> LayoutRequest {
        var request = LayoutRequest(
            table: table,
            width: Double(resolvedWidth),
            sizeClass: compact ? .compact : nil,
            horizontalScroll: horizontalScroll ? true : nil,
            unit: unit
        )
        (request.columns, request.columnOrder) = columnState
        return request
    }

    /// A `scroll` of `table` with these settings.
    func scrollRequest(_ table: String, viewport: ScrollRequest.Viewport?, to target: ScrollRequest.Target?)
        -> ScrollRequest
    {
        var request = ScrollRequest(table: table, viewport: viewport, to: target, unit: unit)
        if compact { request.sizeClass = .compact }
        if horizontalScroll { request.horizontalScroll = true }
        (request.columns, request.columnOrder) = columnState
        return request
    }

}

/// `datatable layout TABLE`.
struct Layout: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The column plan for a container width.")
    @OptionGroup var common: CommonOptions
    @OptionGroup var layout: LayoutFlags
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String

    func run() throws {
        try common.withSession { session in
            let plan = try session.sendForJSON(layout.layoutRequest(table))
            guard !common.json else { return }
            Output.summary(
                "\(plan["mode"]?.text ?? "") in \(plan["width"]?.text ?? "") \(plan["unit"]?.text ?? ""): content \(plan["contentWidth"]?.text ?? "") × \(plan["contentHeight"]?.text ?? "")"
            )
            var text = TextTable(
                ["column", "x", "width", "align", "state"],
                alignments: [.leading, .trailing, .trailing, .leading, .leading]
            )
            for column in plan["columns"]?.arrayValue ?? [] {
                let state =
                    column["omitted"]?.boolValue == true
                    ? "omitted"
                    : column["binding"]?.stringValue ?? (column["truncated"]?.boolValue == true ? "truncated" : "")
                text.add([
                    column["key"]?.text ?? "", column["x"]?.text ?? "", column["width"]?.text ?? "",
                    column["align"]?.text ?? "", state,
                ])
            }
            text.print()
        }
    }
}

/// `datatable scroll TABLE`: a window of the table as the daemon lays it out, as text.
struct Scroll: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a window of rows, laid out by the daemon in terminal cells.",
        discussion: """
            datatable scroll stock                 (the top)
            datatable scroll stock --to 500        (row 500 at the top)
            datatable scroll stock --id 7 --align center
            """
    )
    @OptionGroup var common: CommonOptions
    @OptionGroup var layout: LayoutFlags
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Option(help: "Rows shown (default 20).") var rows = 20
    @Option(help: "Bring the row at this position into view.") var to: Int?
    @Option(help: "Bring the row with this id into view.") var id: String?
    @Option(help: "With --to or --id: top (default), center, bottom or nearest.") var align: TargetAlignment?
    @Option(help: "The content offset from the top (cells: lines).") var y: Int?
    @Option(help: "The content offset from the left, when scrolling sideways.") var x: Int?

    func run() throws {
        let viewport = ScrollRequest.Viewport(
            x: x.map(Double.init),
            y: y.map(Double.init),
            width: Double(layout.resolvedWidth),
            height: Double(rows + 1)
        )
        let target =
            to != nil || id != nil
            ? ScrollRequest.Target(id: id.map(JSONValue.rowID), index: to, align: align ?? .top) : nil
        try common.withSession { session in
            let window = try session.sendForJSON(layout.scrollRequest(table, viewport: viewport, to: target))
            guard !common.json else { return }
            for line in WindowText(window: window).lines { print(line) }
        }
    }
}

/// `datatable subscribe TABLE`: print a table's events as they come.
struct Subscribe: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a table's events as they come, one per line.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Option(help: "Stop after this many events.") var count: Int?
    @Option(help: "Stop after this many seconds (however many events came).") var seconds: Double?

    func run() throws {
        try common.withSession { session in
            try session.send(SubscribeRequest(table: table))
            var seen = 0
            let deadline = seconds.map { Date().addingTimeInterval($0) }
            while count.map({ seen < $0 }) ?? true, let event = try session.nextNotification(before: deadline) {
                guard event["method"]?.stringValue == "event", let params = event["params"] else { continue }
                seen += 1
                if common.json {
                    print(try DaemonSession.line(params))
                } else {
                    let ids = params["ids"].map { " ids \($0.text)" } ?? ""
                    print(
                        "v\(params["version"]?.text ?? "") \(params["kind"]?.text ?? "")\(ids) (\(params["rows"]?.text ?? "") rows)"
                    )
                }
                fflush(nil)
            }
        }
    }
}
