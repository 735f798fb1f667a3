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
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Option(parsing: .upToNextOption, help: "The row's cells as KEY=VALUE …") var row: [String] = []
    @Option(help: "Where to put the row in an unsorted table (default: at the end).") var index: Int?
    @Flag(help: "Replace the row with the same key, if there is one (a table with a key column).")
    var upsert = false

    /// The request the arguments make (a usage error, with this command's usage, when they make none).
    func request() throws -> AddRequest {
        var cells: [String: JSONValue] = [:]
        for pair in row {
            guard let equals = pair.firstIndex(of: "=") else {
                throw ValidationError("Give cells as KEY=VALUE, not \(pair).")
            }
            cells[String(pair[..<equals])] = .cell(String(pair[pair.index(after: equals)...]))
        }
        guard !cells.isEmpty else { throw ValidationError("Give the row: --row KEY=VALUE …") }
        return AddRequest(table: table, row: .object(cells), index: index, upsert: upsert ? true : nil)
    }

    func validate() throws { _ = try request() }

    func run() throws {
        let request = try request()
        try common.withSession { session in
            let reply = try session.send(request)
            guard !common.json else { return }
            if let added = reply.added.first {
                print("added row \(added.id.text) at index \(added.index) (\(Output.count(reply.rows, "row")))")
            } else if let replaced = reply.replaced?.first {
                print(
                    "replaced row \(replaced.id.text) at index \(replaced.index) (\(Output.count(reply.rows, "row")))"
                )
            }
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
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    // Unrecognized words are arguments too: a negative number is a value, not an option.
    @Argument(parsing: .allUnrecognized, help: "ID COLUMN VALUE, or with --selection COLUMN VALUE.")
    var arguments: [String]
    @Flag(help: "Set the column in every selected row.") var selection = false

    /// The request the arguments make (a usage error, with this command's usage, when they make none).
    func request() throws -> EditRequest {
        // A word like an option that is not one is a misspelt option, not a value.
        if let unknown = arguments.first(where: { $0.hasPrefix("--") || ($0.hasPrefix("-") && Double($0) == nil) }) {
            throw ValidationError("Unknown option \(unknown).")
        }
        if selection {
            guard arguments.count == 2 else { throw ValidationError("With --selection give COLUMN VALUE.") }
            return EditRequest(table: table, column: arguments[0], value: .cell(arguments[1]), selection: true)
        }
        guard arguments.count == 3 else { throw ValidationError("Give ID COLUMN VALUE.") }
        return EditRequest(table: table, id: .rowID(arguments[0]), column: arguments[1], value: .cell(arguments[2]))
    }

    func validate() throws { _ = try request() }

    func run() throws {
        let request = try request()
        try common.withSession { session in
            let reply = try session.send(request)
            guard !common.json else { return }
            if let cell = reply.cells.first, reply.cells.count == 1 {
                print("\(cell.column) of row \(cell.id.text): \(cell.display)")
            } else {
                print("set \(Output.count(reply.edited, "cell"))")
            }
        }
    }
}

/// `datatable revert TABLE`.
struct Revert: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Clear drafts: of a cell, a row, or the whole table.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Option(help: "Only this row.") var id: String?
    @Option(help: "Only this column.") var column: String?

    func run() throws {
        try common.withSession { session in
            let reply = try session.send(RevertRequest(table: table, id: id.map(JSONValue.rowID), column: column))
            if !common.json { print("cleared \(Output.count(reply.cleared, "draft")) (\(reply.errors) left)") }
        }
    }
}

/// `datatable delete TABLE ID …`.
struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete rows by id, or the selected rows.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Argument(help: "Row ids.") var ids: [String] = []
    @Flag(help: "Delete the selected rows.") var selection = false

    func validate() throws {
        guard ids.isEmpty != !selection else { throw ValidationError("Give row ids or --selection (one of them).") }
    }

    func run() throws {
        let request =
            selection
            ? DeleteRequest(table: table, selection: true) : DeleteRequest(table: table, ids: ids.map(JSONValue.rowID))
        try common.withSession { session in
            let reply = try session.send(request)
            if !common.json { print("deleted \(Output.count(reply.deleted, "row")) (\(reply.rows) left)") }
        }
    }
}

/// `datatable clear TABLE`.
struct Clear: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove every row of a table, keeping its columns.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String

    func run() throws {
        try common.withSession { session in
            let reply = try session.send(ClearRequest(table: table))
            if !common.json { print("cleared \(reply.table): \(Output.count(reply.deleted, "row")) removed") }
        }
    }
}

/// `datatable get TABLE`.
struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Rows by id or by position, with their display text.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Option(help: "Rows with these ids (repeat).") var id: [String] = []
    @Option(help: "The first position (default 0).") var from: Int?
    @Option(help: "How many rows (default 20).") var count: Int?
    @Option(help: "Only these columns (repeat).", completion: .custom(Completions.columns)) var column: [String] = []

    func run() throws {
        let request = GetRequest(
            table: table,
            ids: id.isEmpty ? nil : id.map(JSONValue.rowID),
            from: from,
            count: count ?? (id.isEmpty ? 20 : nil),
            columns: column.isEmpty ? nil : column
        )
        try common.withSession { session in
            let reply = try session.sendForJSON(request)
            guard !common.json else { return }
            let described = try session.send(DescribeRequest(table: table), quiet: true)
            let columns = described.columns.filter { column.isEmpty || column.contains($0.key) }
            let numeric: Set<ColumnValueType> = [.number, .duration]
            var text = TextTable(
                ["id", "#"] + columns.map { $0.label ?? $0.key },
                alignments: [.trailing, .trailing]
                    + columns.map { $0.type.map(numeric.contains) == true ? .trailing : .leading }
            )
            for row in reply["rows"]?.arrayValue ?? [] {
                let cells = columns.map { column -> String in
                    let key = column.key
                    if let draft = row["drafts"]?[key] { return "\(draft["text"]?.text ?? "") ⚠" }
                    return row["display"]?[key]?.text ?? ""
                }
                text.add([row["id"]?.text ?? "", row["index"]?.text ?? ""] + cells)
            }
            text.print()
            Output.summary(
                "\(reply["rows"]?.arrayValue?.count ?? 0) of \(Output.count(reply["total"]?.intValue ?? 0, "row"))"
            )
        }
    }
}

/// `datatable undo TABLE` and `datatable redo TABLE`.
struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take back the last add, edit, delete, clear or alter."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String

    func run() throws { try UndoRedo.print(common) { try $0.send(UndoRequest(table: table)) } }
}

struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Make the last undone change again.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String

    func run() throws { try UndoRedo.print(common) { try $0.send(RedoRequest(table: table)) } }
}

enum UndoRedo {
    /// Sends the request `send` makes and prints the cells it set.
    static func print(_ common: CommonOptions, _ send: (DaemonSession) throws -> UndoResponse) throws {
        try common.withSession { session in
            let reply = try send(session)
            guard !common.json else { return }
            for cell in reply.cells { Swift.print("\(cell.column) of row \(cell.id.text): \(cell.display)") }
            if let restored = reply.restored {
                Swift.print("rows back: " + restored.map(\.text).joined(separator: ", "))
            }
            if let removed = reply.removed {
                Swift.print("rows taken out: " + removed.map(\.text).joined(separator: ", "))
            }
            if let altered = reply.altered { Swift.print("columns: " + Alter.describe(altered)) }
        }
    }
}
