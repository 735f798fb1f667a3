import ArgumentParser
import DataTableProtocol
import Foundation

/// `datatable tables`.
struct Tables: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the tables with their row counts.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.withSession { session in
            let reply = try session.call("tables")
            guard !common.json else { return }
            var table = TextTable(
                ["table", "rows", "columns", "selected", "errors", "version"],
                alignments: [.leading, .trailing, .trailing, .trailing, .trailing, .trailing]
            )
            for entry in reply["tables"]?.arrayValue ?? [] {
                table.add(["name", "rows", "columns", "selected", "errors", "version"].map { entry[$0]?.text ?? "" })
            }
            table.print()
        }
    }
}

/// `datatable describe TABLE`.
struct Describe: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "A table's columns, sort, selection mode and counts.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.") var table: String

    func run() throws {
        try common.withSession { session in
            let reply = try session.call("describe", ["table": .string(table)])
            guard !common.json else { return }
            let sort = (reply["sort"]?.arrayValue ?? []).map { key in
                (key["column"]?.text ?? "") + (key["descending"]?.boolValue == true ? " descending" : "")
            }
            print("\(table): \(reply["rows"]?.text ?? "0") rows, version \(reply["version"]?.text ?? "")")
            print(
                "sort: \(sort.isEmpty ? "none" : sort.joined(separator: ", ")); selection: \(reply["selection"]?.text ?? "")"
            )
            var columns = TextTable(["column", "label", "type", "editable", "rules"])
            for column in reply["columns"]?.arrayValue ?? [] {
                let members = column.objectValue ?? [:]
                let shown: Set = ["key", "label", "type", "editable"]
                let rules = members.filter { !shown.contains($0.key) }.sorted { $0.key < $1.key }
                    .map { "\($0.key)=\($0.value.text)" }.joined(separator: " ")
                columns.add([
                    column["key"]?.text ?? "", column["label"]?.text ?? "", column["type"]?.text ?? "text",
                    column["editable"]?.boolValue == false ? "no" : "yes", rules,
                ])
            }
            columns.print()
        }
    }
}

/// `datatable create TABLE --column KEY[:TYPE] …`.
struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a table.",
        discussion: """
            datatable create log --column day:date --column note --sort day:desc
            Types: text (default), number, date, time, duration, picker, image. For constraints,
            labels and options give the columns as JSON: --columns '[{"key":"qty","type":"number","min":0}]'.
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table's name.") var table: String
    @Option(name: .customLong("column"), help: "A column as KEY or KEY:TYPE; repeat in order.") var columns: [String] =
        []
    @Option(name: .customLong("columns"), help: "The columns as a JSON array of column definitions.")
    var columnsJSON: String?
    @Option(help: "Sort by COLUMN or COLUMN:desc; repeat for more keys.") var sort: [String] = []
    @Option(help: "The column whose values are the row ids.") var key: String?

    func run() throws {
        var definitions: [JSONValue] = columns.map { spec in
            let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
            var column: [String: JSONValue] = ["key": .string(parts[0])]
            if parts.count > 1 { column["type"] = .string(parts[1]) }
            return .object(column)
        }
        if let columnsJSON {
            guard let given = try? JSONDecoder().decode([JSONValue].self, from: Data(columnsJSON.utf8)) else {
                throw ValidationError("--columns must be a JSON array of column definitions.")
            }
            definitions += given
        }
        guard !definitions.isEmpty else { throw ValidationError("Give at least one --column (or --columns).") }
        var params: [String: JSONValue] = ["table": .string(table), "columns": .array(definitions)]
        if !sort.isEmpty { params["sort"] = SortKeys.parse(sort) }
        if let key { params["key"] = .string(key) }
        try common.withSession { session in
            try session.call("create", params)
            if !common.json {
                print("created \(table) with \(definitions.count) column\(definitions.count == 1 ? "" : "s")")
            }
        }
    }
}

/// `datatable drop TABLE`.
struct Drop: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a table and all its rows.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.") var table: String

    func run() throws {
        try common.withSession { session in
            let reply = try session.call("drop", ["table": .string(table)])
            if !common.json { print("dropped \(table) (\(reply["rows"]?.text ?? "0") rows)") }
        }
    }
}

/// `datatable chmod TABLE MODE`.
struct Chmod: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change who may read and change a table (its owner, root or the daemon's user only).",
        discussion: """
            MODE is read (4) and write (2) bits for the owner, the table's group and everyone else, \
            in octal: 0640 lets the group read and others nothing.
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.") var table: String
    @Argument(help: "The new mode, like 0640 (keep it with -).") var mode: String
    @Option(help: "Give the table this group id (your own group; root: any).") var group: Int?
    @Option(help: "Give the table to this user id (root only).") var owner: Int?

    func run() throws {
        try common.withSession { session in
            var params: [String: JSONValue] = ["table": .string(table)]
            if mode != "-" { params["mode"] = .string(mode) }
            if let group { params["group"] = .number(Double(group)) }
            if let owner { params["owner"] = .number(Double(owner)) }
            let reply = try session.call("chmod", params)
            if !common.json {
                print(
                    "\(table): mode \(reply["mode"]?.text ?? "?"), owner \(reply["owner"]?.text ?? "?"), "
                        + "group \(reply["group"]?.text ?? "?")"
                )
            }
        }
    }
}

/// `datatable load FILE`.
struct Load: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load rows from a CSV or NDJSON file; creates the table if needed.",
        discussion: """
            The daemon reads the file when it may (you are root or its user, or the file is under its \
            --import-dir); otherwise this command reads it with your rights and sends it.
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The file: .csv, or .ndjson / .jsonl.") var file: String
    @Option(help: "The table (default: the file's name without its extension).") var table: String?
    @Option(help: "csv or ndjson (default: from the extension).") var format: String?
    @Option(help: "When the table is created: the column whose values are the row ids.") var key: String?
    @Option(help: "When the table is created: sort by COLUMN or COLUMN:desc.") var sort: [String] = []

    func run() throws {
        let url = URL(fileURLWithPath: file)
        let name = table ?? url.deletingPathExtension().lastPathComponent
        var params: [String: JSONValue] = ["table": .string(name), "path": .string(url.standardizedFileURL.path)]
        if let format { params["format"] = .string(format) }
        if let key { params["key"] = .string(key) }
        if !sort.isEmpty { params["sort"] = SortKeys.parse(sort) }
        try common.withSession { session in
            let reply: JSONValue
            do {
                reply = try session.call("load", params, quiet: true)
            } catch let refused as DaemonSession.Refused where refused.kind == "not_permitted" {
                // The daemon may not open it for us: read it as ourselves and send it.
                reply = try Self.upload(url, params: params, table: name, session: session)
            }
            if common.json, let line = session.lastReply { print(line) }
            guard !common.json else { return }
            let created = reply["created"]?.boolValue == true ? "created \(name); " : ""
            print(
                "\(created)loaded \(reply["added"]?.text ?? "0") rows into \(name) (\(reply["rows"]?.text ?? "0") now)"
            )
        }
    }
}

extension Load {
    /// Text sent per `upload` request: escaped, even text of control characters stays within
    /// the daemon's default 1 MiB line.
    static let uploadPieceBytes = 128 * 1024

    /// Sends the file's text in pieces, then loads what was sent.
    static func upload(_ url: URL, params: [String: JSONValue], table: String, session: DaemonSession) throws
        -> JSONValue
    {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw DaemonSession.Refused(
                message: "cannot read \(url.path): \(error.localizedDescription)",
                kind: "invalid_value",
                field: nil
            )
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw DaemonSession.Refused(message: "\(url.path) is not UTF-8 text", kind: "invalid_value", field: nil)
        }
        var start = 0
        while start < bytes.count {
            var end = min(bytes.count, start + uploadPieceBytes)
            // A piece ends at a character's end: back off continuation bytes.
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            let piece = String(decoding: bytes[start..<end], as: UTF8.self)
            try session.call("upload", ["table": .string(table), "text": .string(piece)], quiet: true)
            start = end
        }
        var params = params
        params["path"] = nil
        params["upload"] = .bool(true)
        if bytes.isEmpty { params["text"] = .string(""); params["upload"] = nil }
        return try session.call("load", params, quiet: true)
    }
}

/// `datatable export TABLE`.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a table's rows (or its selection) as CSV or NDJSON."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.") var table: String
    @Option(help: "csv (default) or ndjson.") var format: String?
    @Flag(help: "Only the selected rows.") var selection = false
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?

    func run() throws {
        var params: [String: JSONValue] = ["table": .string(table)]
        if let format { params["format"] = .string(format) }
        if selection { params["selection"] = .bool(true) }
        try common.withSession { session in
            let reply = try session.call("export", params)
            guard !common.json else { return }
            let text = reply["text"]?.stringValue ?? ""
            if let output {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output))
                Output.error("wrote \(reply["rows"]?.text ?? "0") rows to \(output)")
            } else {
                print(text, terminator: text.hasSuffix("\n") || text.isEmpty ? "" : "\n")
            }
        }
    }
}

/// Sort keys as typed: `COLUMN` or `COLUMN:desc`.
enum SortKeys {
    static func parse(_ specs: [String]) -> JSONValue {
        .array(
            specs.map { spec in
                let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
                let descending = parts.count > 1 && ["desc", "descending"].contains(parts[1].lowercased())
                return .object(["column": .string(parts[0]), "descending": .bool(descending)])
            }
        )
    }
}
