import ArgumentParser
import DataTableProtocol
import Foundation

/// `datatable group TABLE COLUMN… --sum qty --avg weight`: the table's rows grouped by a column
/// (or nested by several), a line per group with its rows and aggregates, nested groups
/// indented under theirs, and a total line.
struct Group: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Group the rows by a column (or nest groups by several): each group's rows and aggregates, and a total line.",
        discussion: """
            datatable group stock status --sum qty --avg weight --max weight
            datatable group stock rack --count item --count-distinct status --csv
            datatable group stock status rack --sum qty

            Empty cells are skipped; --count counts the cells that hold a value. The aggregates
            are kept by the daemon as rows change (see protocol.md, "Aggregates and totals").
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Argument(help: "The column whose values name the groups; more nest groups within them (up to 4).")
    var columns: [String]
    @Option(help: "Count the cells of this column that hold a value (repeatable).") var count: [String] = []
    @Option(help: "Total this number or duration column (repeatable).") var sum: [String] = []
    @Option(help: "Mean of this number or duration column (repeatable).") var avg: [String] = []
    @Option(help: "Least value of this column (repeatable).") var min: [String] = []
    @Option(help: "Greatest value of this column (repeatable).") var max: [String] = []
    @Option(help: "Different values in this column (repeatable).") var countDistinct: [String] = []
    @Option(help: "Middle value of this column (repeatable).") var median: [String] = []
    @Option(help: "First value of this column in the table's order (repeatable).") var first: [String] = []
    @Option(help: "Last value of this column in the table's order (repeatable).") var last: [String] = []

    /// The aggregates asked for, by column.
    var aggregates: [String: ScrollRequest.AggregateFunctions] {
        let asked: [(AggregateFunction, [String])] = [
            (.count, count), (.sum, sum), (.avg, avg), (.min, min), (.max, max), (.countDistinct, countDistinct),
            (.median, median), (.first, first), (.last, last),
        ]
        var byColumn: [String: [AggregateFunction]] = [:]
        for (function, columns) in asked {
            for column in columns { byColumn[column, default: []].append(function) }
        }
        return byColumn.mapValues { ScrollRequest.AggregateFunctions($0) }
    }

    func run() throws {
        try common.withSession { session in
            // A view in plain sections with its innermost groups collapsed shows every group's
            // header and no row: one window as tall as that holds them all.
            var request = ScrollRequest(table: table, viewport: .init(x: 0, y: 0, width: 80, height: 2), unit: .cell)
            request.sections = .init(
                column: columns.count == 1 ? columns[0] : nil,
                columns: columns.count == 1 ? nil : columns,
                aggregates: aggregates.isEmpty ? nil : aggregates,
                grandTotal: aggregates.isEmpty ? nil : .bottom
            )
            let window = try session.send(request, quiet: true)
            _ = try session.send(CollapseRequest(table: table, level: columns.count - 1), quiet: true)
            let headers = try session.send(ScrollRequest(table: table, viewport: .init(y: 0, height: 2)), quiet: true)
            let all = ScrollRequest(
                table: table,
                viewport: .init(
                    y: 0,
                    height: Double(Swift.max(2, Swift.min(headers.contentHeight, ScrollRequest.maximumHeight)))
                )
            )
            let groups = (try session.send(all, quiet: true).sections?.shown ?? []).sorted { $0.y < $1.y }
            let columns = (groups.first?.aggregates ?? window.sections?.grandTotal?.aggregates ?? []).map {
                "\($0.function.rawValue)(\($0.column))"
            }
            var text = TextTable(
                [self.columns.joined(separator: " › "), "rows"] + columns,
                alignments: [.leading] + Array(repeating: .trailing, count: columns.count + 1)
            )
            for group in groups {
                let indent = String(repeating: "  ", count: group.level ?? 0)
                text.add(
                    [indent + (group.title.isEmpty ? "(none)" : group.title), String(group.count)]
                        + (group.aggregates ?? []).map(\.text)
                )
            }
            if let total = window.sections?.grandTotal {
                text.add(["total", String(window.total)] + total.aggregates.map(\.text))
            }
            if common.json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                for group in groups { print(String(decoding: try encoder.encode(group), as: UTF8.self)) }
            } else {
                text.print()
            }
        }
    }
}

/// `datatable distinct TABLE COLUMN`: a column's different values and how many rows hold each.
struct Distinct: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List a column's different values with how many rows hold each.",
        discussion: """
            datatable distinct stock status --by-count
            datatable distinct stock rack --prefix a --limit 10
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Argument(help: "The column.") var column: String
    @Option(help: "Only values starting with this, ignoring case.") var prefix: String?
    @Flag(help: "Most rows first (default: in the column's sort order).") var byCount = false
    @Option(help: "The most values listed (default 1000).") var limit: Int?

    func run() throws {
        try common.withSession { session in
            let reply = try session.send(
                DistinctRequest(
                    table: table,
                    column: column,
                    prefix: prefix,
                    order: byCount ? .count : nil,
                    limit: limit
                )
            )
            guard !common.json else { return }
            var text = TextTable([column, "rows"], alignments: [.leading, .trailing])
            for value in reply.values { text.add([value.text.isEmpty ? "(empty)" : value.text, String(value.count)]) }
            text.print()
            if reply.values.count < reply.distinct {
                Output.summary("\(reply.values.count) of \(reply.distinct) values")
            }
        }
    }
}
