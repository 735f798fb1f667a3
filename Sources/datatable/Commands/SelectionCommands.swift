import ArgumentParser
import DataTableProtocol
import Foundation

/// `datatable select TABLE`.
struct Select: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Select rows: by id or position range; add, remove, toggle; all or none; or set the mode.",
        discussion: """
            datatable select stock 3 5           (exactly these)
            datatable select stock --action toggle 3
            datatable select stock --from 0 --count 10
            datatable select stock --all         datatable select stock --none
            datatable select stock --mode single
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Argument(help: "Row ids.") var ids: [String] = []
    @Option(help: "set (default), add, remove or toggle.") var action: SelectionAction?
    @Option(help: "A range of positions: the first.") var from: Int?
    @Option(help: "A range of positions: how many (default 1).") var count: Int?
    @Flag(help: "Select every row.") var all = false
    @Flag(help: "Select no row.") var none = false
    @Option(help: "Switch the selection mode: none, single or multiple.") var mode: RowSelectionMode?

    func run() throws {
        let request = SelectRequest(
            table: table,
            action: all ? .all : none ? SelectionAction.none : action,
            ids: ids.isEmpty ? nil : ids.map(JSONValue.rowID),
            from: from,
            count: count,
            mode: mode
        )
        try common.withSession { session in
            let reply = try session.send(request)
            if !common.json { print("\(reply.count) selected (\(reply.mode.rawValue))") }
        }
    }
}

/// `datatable selection TABLE`.
struct Selection: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The selected row ids, in the table's order.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String

    func run() throws {
        try common.withSession { session in
            let reply = try session.send(SelectionRequest(table: table))
            guard !common.json else { return }
            for id in reply.ids { print(id.text) }
        }
    }
}

/// `datatable copy TABLE`: the selection as displayed, for a clipboard.
struct Copy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the selected rows as displayed: tab-separated (default), aligned text, or HTML.",
        discussion: "datatable copy stock | xclip -selection clipboard"
    )
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case tsv, text, html
    }
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Option(help: "tsv, text or html.") var format: Format = .tsv
    @Option(
        name: .customLong("column"),
        help: "Copy this column (repeat, in order) instead of every column.",
        completion: .custom(Completions.columns)
    ) var columns: [String] = []

    func run() throws {
        try common.withSession { session in
            let reply = try session.send(CopyRequest(table: table, columns: columns.isEmpty ? nil : columns))
            guard !common.json else { return }
            let text: String
            switch format {
            case .tsv: text = reply.tsv
            case .text: text = reply.text
            case .html: text = reply.html + "\n"
            }
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}

/// `datatable sort TABLE COLUMN[:desc] …`.
struct Sort: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sort by columns (COLUMN or COLUMN:desc); none returns to the table's own order."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Argument(help: "Sort keys, first key first.", completion: .custom(Completions.columns)) var keys: [String] = []

    func validate() throws { _ = try SortKeys.parse(keys) }

    func run() throws {
        let keys = try SortKeys.parse(keys)
        try common.withSession { session in
            let reply = try session.send(SortRequest(table: table, keys: keys))
            guard !common.json else { return }
            let keys = reply.keys.map { $0.column + ($0.descending == true ? " descending" : "") }
            print(keys.isEmpty ? "in the table's own order" : "sorted by " + keys.joined(separator: ", "))
        }
    }
}
