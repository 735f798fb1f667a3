import ArgumentParser
import DataTableProtocol
import Foundation

/// `datatable add TABLE --row KEY=VALUE …`.
struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a row; it lands where the table's sort puts it.",
        discussion: "datatable add stock --row item=Bolt qty=4 received=2024-05-06"
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.") var table: String
    @Option(parsing: .upToNextOption, help: "The row's cells as KEY=VALUE …") var row: [String] = []
    @Option(help: "Where to put the row in an unsorted table (default: at the end).") var index: Int?

    func run() throws {
        var cells: [String: JSONValue] = [:]
        for pair in row {
            guard let equals = pair.firstIndex(of: "=") else {
                throw ValidationError("Give cells as KEY=VALUE, not \(pair).")
            }
            cells[String(pair[..<equals])] = .cell(String(pair[pair.index(after: equals)...]))
        }
        guard !cells.isEmpty else { throw ValidationError("Give the row: --row KEY=VALUE …") }
        var params: [String: JSONValue] = ["table": .string(table), "row": .object(cells)]
        if let index { params["index"] = .integer(Int64(index)) }
        try common.withSession { session in
            let reply = try session.call("add", params)
            guard !common.json, let added = reply["added"]?.arrayValue?.first else { return }
            print(
                "added row \(added["id"]?.text ?? "") at index \(added["index"]?.text ?? "") (\(reply["rows"]?.text ?? "") rows)"
            )
        }
    }
}

/// `datatable edit TABLE ID COLUMN VALUE`.
struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set one cell (or, with --selection, a column of every selected row).",
        discussion: """
            datatable edit stock 3 qty 12
            datatable edit stock --selection status Reorder
            A value that does not fit its column is refused and kept as the cell's draft, with the reason.
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.") var table: String
    @Argument(help: "ID COLUMN VALUE, or with --selection COLUMN VALUE.") var arguments: [String]
    @Flag(help: "Set the column in every selected row.") var selection = false

    func run() throws {
        var params: [String: JSONValue] = ["table": .string(table)]
        if selection {
            guard arguments.count == 2 else { throw ValidationError("With --selection give COLUMN VALUE.") }
            params["selection"] = .bool(true)
            params["column"] = .string(arguments[0])
            params["value"] = .cell(arguments[1])
        } else {
            guard arguments.count == 3 else { throw ValidationError("Give ID COLUMN VALUE.") }
            params["id"] = .rowID(arguments[0])
            params["column"] = .string(arguments[1])
            params["value"] = .cell(arguments[2])
        }
        try common.withSession { session in
            let reply = try session.call("edit", params)
            guard !common.json else { return }
            let cells = reply["cells"]?.arrayValue ?? []
            if let cell = cells.first, cells.count == 1 {
                print("\(cell["column"]?.text ?? "") of row \(cell["id"]?.text ?? ""): \(cell["display"]?.text ?? "")")
            } else {
                print("set \(reply["edited"]?.text ?? "0") cells")
            }
        }
    }
}

/// `datatable revert TABLE`.
struct Revert: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Clear drafts: of a cell, a row, or the whole table.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.") var table: String
    @Option(help: "Only this row.") var id: String?
    @Option(help: "Only this column.") var column: String?

    func run() throws {
        var params: [String: JSONValue] = ["table": .string(table)]
        if let id { params["id"] = .rowID(id) }
        if let column { params["column"] = .string(column) }
        try common.withSession { session in
            let reply = try session.call("revert", params)
            if !common.json {
                print("cleared \(reply["cleared"]?.text ?? "0") drafts (\(reply["errors"]?.text ?? "0") left)")
            }
        }
    }
}

/// `datatable delete TABLE ID …`.
struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete rows by id, or the selected rows.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.") var table: String
    @Argument(help: "Row ids.") var ids: [String] = []
    @Flag(help: "Delete the selected rows.") var selection = false

    func run() throws {
        guard ids.isEmpty != !selection else { throw ValidationError("Give row ids or --selection (one of them).") }
        var params: [String: JSONValue] = ["table": .string(table)]
        if selection { params["selection"] = .bool(true) } else { params["ids"] = .array(ids.map(JSONValue.rowID)) }
        try common.withSession { session in
            let reply = try session.call("delete", params)
            if !common.json {
                print("deleted \(reply["deleted"]?.text ?? "0") rows (\(reply["rows"]?.text ?? "0") left)")
            }
        }
    }
}

/// `datatable get TABLE`.
struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Rows by id or by position, with their display text.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.") var table: String
    @Option(help: "Rows with these ids (repeat).") var id: [String] = []
    @Option(help: "The first position (default 0).") var from: Int?
    @Option(help: "How many rows (default 20).") var count: Int?
    @Option(help: "Only these columns (repeat).") var column: [String] = []

    func run() throws {
        var params: [String: JSONValue] = ["table": .string(table)]
        if !id.isEmpty { params["ids"] = .array(id.map(JSONValue.rowID)) }
        if let from { params["from"] = .integer(Int64(from)) }
        params["count"] = .integer(Int64(count ?? 20))
        if !column.isEmpty { params["columns"] = .array(column.map(JSONValue.string)) }
        try common.withSession { session in
            let reply = try session.call("get", params)
            guard !common.json else { return }
            let described = try session.call("describe", ["table": .string(table)], quiet: true)
            let columns = (described["columns"]?.arrayValue ?? []).filter {
                column.isEmpty || column.contains($0["key"]?.text ?? "")
            }
            let numeric: Set = ["number", "duration"]
            var text = TextTable(
                ["id", "#"] + columns.map { $0["label"]?.text ?? $0["key"]?.text ?? "" },
                alignments: [.trailing, .trailing]
                    + columns.map { numeric.contains($0["type"]?.text ?? "") ? .trailing : .leading }
            )
            for row in reply["rows"]?.arrayValue ?? [] {
                let cells = columns.map { column -> String in
                    let key = column["key"]?.text ?? ""
                    if let draft = row["drafts"]?[key] { return "\(draft["text"]?.text ?? "") ⚠" }
                    return row["display"]?[key]?.text ?? ""
                }
                text.add([row["id"]?.text ?? "", row["index"]?.text ?? ""] + cells)
            }
            text.print()
            print("\(reply["rows"]?.arrayValue?.count ?? 0) of \(reply["total"]?.text ?? "0") rows")
        }
    }
}

/// `datatable undo TABLE` and `datatable redo TABLE`.
struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Take back the last edit.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.") var table: String

    func run() throws { try UndoRedo.run("undo", table, common) }
}

struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Make the last undone edit again.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.") var table: String

    func run() throws { try UndoRedo.run("redo", table, common) }
}

enum UndoRedo {
    static func run(_ method: String, _ table: String, _ common: CommonOptions) throws {
        try common.withSession { session in
            let reply = try session.call(method, ["table": .string(table)])
            guard !common.json else { return }
            for cell in reply["cells"]?.arrayValue ?? [] {
                print("\(cell["column"]?.text ?? "") of row \(cell["id"]?.text ?? ""): \(cell["display"]?.text ?? "")")
            }
        }
    }
}
