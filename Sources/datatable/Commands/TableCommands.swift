import ArgumentParser
import DataTableProtocol
import Foundation

/// `datatable tables`.
struct Tables: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the tables you may read with their row counts, owner, group and mode."
    )
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.withSession { session in
            let reply = try session.send(TablesRequest())
            guard !common.json else { return }
            var table = TextTable(
                ["table", "rows", "columns", "selected", "errors", "version", "owner", "group", "mode"],
                alignments: [
                    .leading, .trailing, .trailing, .trailing, .trailing, .trailing, .leading, .leading, .leading,
                ]
            )
            for entry in reply.tables {
                table.add(
                    [entry.name]
                        + [entry.rows, entry.columns, entry.selected, entry.errors, entry.version].map(String.init)
                        + [Self.userName(entry.owner), Self.groupName(entry.group), entry.mode ?? ""]
                )
            }
            table.print()
        }
    }

    /// A user id as its name here, else the number.
    static func userName(_ uid: Int?) -> String {
        guard let uid else { return "" }
        return getpwuid(uid_t(truncatingIfNeeded: uid)).map { String(cString: $0.pointee.pw_name) } ?? String(uid)
    }

    /// A group id as its name here, else the number.
    static func groupName(_ gid: Int?) -> String {
        guard let gid else { return "" }
        return getgrgid(gid_t(truncatingIfNeeded: gid)).map { String(cString: $0.pointee.gr_name) } ?? String(gid)
    }
}

/// `datatable describe TABLE`.
struct Describe: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "A table's columns, sort, selection mode and counts.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String

    func run() throws {
        try common.withSession { session in
            // The columns are printed with every setting they came with, as the daemon wrote them.
            let reply = try session.sendForJSON(DescribeRequest(table: table))
            guard !common.json else { return }
            let sort = (reply["sort"]?.arrayValue ?? []).map { key in
                (key["column"]?.text ?? "") + (key["descending"]?.boolValue == true ? " descending" : "")
            }
            Output.summary("\(table): \(reply["rows"]?.text ?? "0") rows, version \(reply["version"]?.text ?? "")")
            Output.summary(
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
                    column["editable"]?.boolValue == false || column["expression"] != nil ? "no" : "yes", rules,
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
    @Option(help: "Keep at most this many rows: adding past it drops the oldest.") var limit: Int?

    func validate() throws { _ = try request() }

    func run() throws {
        let request = try request()
        let definitions = request.columns
        try common.withSession { session in
            try session.send(request)
            if !common.json {
                print("created \(table) with \(definitions.count) column\(definitions.count == 1 ? "" : "s")")
            }
        }
    }

    /// The request the arguments make (a usage error, with this command's usage, when they make none).
    func request() throws -> CreateRequest {
        var definitions: [ColumnDefinition] = try columns.map { spec in
            let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
            var column = ColumnDefinition(key: parts[0])
            if parts.count > 1 { column.type = try ColumnValueType.named(parts[1], in: spec) }
            return column
        }
        if let columnsJSON { definitions += try Self.columnDefinitions(columnsJSON) }
        guard !definitions.isEmpty else { throw ValidationError("Give at least one --column (or --columns).") }
        return CreateRequest(
            table: table,
            columns: definitions,
            key: key,
            sort: sort.isEmpty ? nil : try SortKeys.parse(sort),
            limit: limit
        )
    }
}

extension Create {
    /// The column definitions of `--columns`, refusing a setting no column has (it would be lost
    /// on the way, not refused by the daemon).
    static func columnDefinitions(_ text: String) throws -> [ColumnDefinition] {
        guard let given = try? JSONDecoder().decode([JSONValue].self, from: Data(text.utf8)),
            let definitions = try? JSONDecoder().decode([ColumnDefinition].self, from: Data(text.utf8))
        else {
            throw ValidationError("--columns must be a JSON array of column definitions.")
        }
        for (sent, definition) in zip(given, definitions) {
            let kept = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(definition))
            for (name, value) in sent.objectValue ?? [:] where value != .null && kept[name] == nil {
                throw ValidationError("--columns: \(name) is not a column setting (in the column \(definition.key)).")
            }
        }
        return definitions
    }
}

/// `datatable drop TABLE`.
struct Drop: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove a table and all its rows.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String

    func run() throws {
        try common.withSession { session in
            let reply = try session.send(DropRequest(table: table))
            if !common.json { print("dropped \(table) (\(Output.count(reply.rows, "row")))") }
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
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Argument(help: "The new mode, like 0640 (keep it with -).") var mode: String
    @Option(help: "Give the table this group id (your own group; root: any).") var group: Int?
    @Option(help: "Give the table to this user id (root only).") var owner: Int?

    func run() throws {
        try common.withSession { session in
            let request = ChmodRequest(table: table, mode: mode == "-" ? nil : mode, group: group, owner: owner)
            let reply = try session.send(request)
            if !common.json { print("\(table): mode \(reply.mode), owner \(reply.owner), group \(reply.group)") }
        }
    }
}

/// `datatable load FILE`.
struct Load: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load rows from a CSV, NDJSON or JSON file; creates the table if needed.",
        discussion: """
            The daemon reads the file when it may (you are root or its user, or the file is under its \
            --import-dir); otherwise this command reads it with your rights and sends it.
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The file: .csv, .ndjson / .jsonl, or .json (one array of objects).") var file: String
    @Option(help: "The table (default: the file's name without its extension).") var table: String?
    @Option(help: "csv, ndjson or json (default: from the extension, else from the first character).")
    var format: DataFileFormat?
    @Option(help: "When the table is created: the column whose values are the row ids.") var key: String?
    @Option(help: "When the table is created: sort by COLUMN or COLUMN:desc.") var sort: [String] = []
    @Option(help: "When the table is created: the locale (en-US, en-GB, de, …) that reads dates like 01/02/2024.")
    var locale: String?
    @Flag(
        help:
            "Replace the table's rows with the file's (a refresh): rows with a key that was there keep their ids and selection."
    )
    var replace = false

    func validate() throws {
        _ = try SortKeys.parse(sort)
        if replace && (key != nil || !sort.isEmpty || locale != nil) {
            throw ValidationError("--replace loads into a table that exists: --key, --sort and --locale do not apply.")
        }
    }

    func run() throws {
        let url = URL(fileURLWithPath: file)
        let name = table ?? url.deletingPathExtension().lastPathComponent
        let request = LoadRequest(
            table: name,
            format: format,
            path: url.standardizedFileURL.path,
            key: key,
            sort: sort.isEmpty ? nil : try SortKeys.parse(sort),
            locale: locale,
            replace: replace ? true : nil
        )
        try common.withSession { session in
            let reply: LoadRequest.Response
            let bar = ProgressBar(counting: "row", enabled: !common.json)
            defer { bar.finish() }
            // A path the daemon may not open for us is read as ourselves and sent. Which paths it
            // may open for us is asked first, so that a load that works logs no refusal; a
            // refusal still comes when the daemon itself cannot read the file.
            do {
                guard try session.send(HelloRequest(), quiet: true).files.mayLoad(from: request.path!) else {
                    throw DaemonSession.Refused(message: "", kind: "not_permitted")
                }
                reply = try session.send(request, quiet: true, notified: bar.loadProgress)
            } catch let refused as DaemonSession.Refused where refused.kind == "not_permitted" {
                reply = try Self.upload(url, request: request, session: session, bar: bar)
            }
            bar.finish()
            if common.json, let line = session.lastReply { print(line) }
            guard !common.json else { return }
            if let kept = reply.kept, let removed = reply.removed {
                print(
                    "replaced the rows of \(name): \(kept) kept, \(reply.added) new, \(removed) gone (\(reply.rows) now)"
                )
                return
            }
            let created = reply.created ? "created \(name); " : ""
            print("\(created)loaded \(Output.count(reply.added, "row")) into \(name) (\(reply.rows) now)")
            for (column, form) in (reply.dateForms ?? [:]).sorted(by: { $0.key < $1.key }) {
                print("\(column): dates read as \(form)")
            }
        }
    }
}

extension Load {
    /// Text sent per `upload` request: escaped, even text of control characters stays within
    /// the daemon's default 1 MiB line.
    static let uploadPieceBytes = 128 * 1024

    /// Sends the file's text in pieces, then loads what was sent.
    static func upload(
        _ url: URL,
        request: LoadRequest,
        session: DaemonSession,
        bar: ProgressBar
    ) throws -> LoadRequest.Response {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw DaemonSession.Refused(
                message: "Cannot read \(url.path): \(error.localizedDescription)",
                kind: "invalid_value",
                field: nil
            )
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw DaemonSession.Refused(message: "\(url.path) is not UTF-8 text.", kind: "invalid_value", field: nil)
        }
        var start = 0
        while start < bytes.count {
            var end = min(bytes.count, start + uploadPieceBytes)
            // A piece ends at a character's end: back off continuation bytes.
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            let piece = String(decoding: bytes[start..<end], as: UTF8.self)
            try session.send(UploadRequest(table: request.table, text: piece), quiet: true)
            start = end
        }
        var load = request
        load.path = nil
        if bytes.isEmpty { load.text = "" } else { load.upload = true }
        return try session.send(load, quiet: true, notified: bar.loadProgress)
    }
}

/// `datatable export TABLE`.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a table's rows (or its selection) as CSV, NDJSON or JSON."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Option(help: "csv (default), ndjson or json (one array of objects).") var format: DataFileFormat?
    @Flag(help: "Only the selected rows.") var selection = false
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?

    func run() throws {
        try common.withSession { session in
            let request = ExportRequest(table: table, format: format, selection: selection ? true : nil)
            guard !common.json else {
                try session.send(request)
                return
            }
            // Streamed: the text is written as it comes, never held whole. The file is made when
            // the first chunk comes, so a refused export leaves none.
            var destination: FileHandle?
            func opened() throws -> FileHandle {
                if let destination { return destination }
                guard let output else {
                    destination = FileHandle.standardOutput
                    return FileHandle.standardOutput
                }
                guard FileManager.default.createFile(atPath: output, contents: nil) else {
                    throw ValidationError("Cannot create \(output).")
                }
                let file = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
                destination = file
                return file
            }
            defer { if output != nil { try? destination?.close() } }
            let bar = ProgressBar(counting: "row")
            defer { bar.finish() }
            var streamed = request
            streamed.stream = true
            let reply = try session.send(streamed, quiet: true) { method, params in
                guard method == "chunk" else { return }
                if let text = params["text"]?.stringValue { try opened().write(contentsOf: Data(text.utf8)) }
                if let done = params["done"]?.intValue, let total = params["total"]?.intValue {
                    bar.update(done: done, total: total)
                }
            }
            bar.finish()
            if let output {
                _ = try opened()
                Output.error("Wrote \(Output.count(reply.rows, "row")) to \(output).")
            }
        }
    }
}

/// Sort keys as typed: `COLUMN` or `COLUMN:desc`.
enum SortKeys {
    /// Sort keys as typed: `COLUMN`, `COLUMN:asc` or `COLUMN:desc`; any other direction is an
    /// error, not ascending.
    static func parse(_ specs: [String]) throws -> [SortKeyParam] {
        try specs.map { spec in
            let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
            guard let column = parts.first, !column.isEmpty else { throw ValidationError("A sort key names a column.") }
            switch parts.count > 1 ? parts[1].lowercased() : "asc" {
            case "asc", "ascending": return SortKeyParam(column: column, descending: false)
            case "desc", "descending": return SortKeyParam(column: column, descending: true)
            default:
                throw ValidationError("Sort \(column) asc or desc (\(column):asc, \(column):desc), not \(parts[1]).")
            }
        }
    }
}

/// `datatable alter TABLE`: add, drop, rename and relabel columns, or change read-only.
struct Alter: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Add, drop, rename or relabel columns, add or redefine computed ones, or make the table read-only, as one "
            + "change undo takes back."
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Option(help: "Add a column KEY or KEY:TYPE (repeat); it goes after the last.") var add: [String] = []
    @Option(help: "KEY=VALUE: the value every row gets in the added column KEY (repeat).") var value: [String] = []
    @Option(help: "KEY=EXPRESSION: add a computed column, such as 'value=qty * weight' (repeat).")
    var addExpression: [String] = []
    @Option(help: "KEY=EXPRESSION: give the computed column KEY a new expression (repeat).")
    var redefine: [String] = []
    @Option(help: "Drop the column KEY (repeat).", completion: .custom(Completions.columns)) var drop: [String] = []
    @Option(help: "OLD=NEW: rename a column (repeat).") var rename: [String] = []
    @Option(help: "KEY=LABEL: give a column a new header label (repeat).") var label: [String] = []
    @Option(help: "true or false: the table's own read-only setting.") var readOnly: Bool?
    @Option(help: "Keep at most this many rows, dropping the oldest now and later (0: no limit).") var limit: Int?

    static func pair(_ text: String, _ option: String) throws -> (String, String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ValidationError("--\(option) takes KEY=VALUE, not \(text).")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    func validate() throws {
        guard
            !(add.isEmpty && addExpression.isEmpty && redefine.isEmpty && drop.isEmpty && rename.isEmpty
                && label.isEmpty && readOnly == nil && limit == nil)
        else {
            throw ValidationError(
                "Say what to change: --add, --add-expression, --redefine, --drop, --rename, --label, --read-only or "
                    + "--limit."
            )
        }
        for text in value + rename + label { _ = try Self.pair(text, "value, --rename or --label") }
        for text in addExpression + redefine { _ = try Self.pair(text, "add-expression or --redefine") }
    }

    func run() throws {
        var added = try add.map { text -> ColumnDefinition in
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            let type = try parts.count > 1 ? ColumnValueType.named(parts[1], in: text) : nil
            return ColumnDefinition(key: parts.first ?? text, type: type)
        }
        for text in addExpression {
            let (key, expression) = try Self.pair(text, "add-expression")
            added.append(ColumnDefinition(key: key, expression: expression))
        }
        var values: [String: JSONValue] = [:]
        for text in value {
            let (key, given) = try Self.pair(text, "value")
            values[key] = .string(given)
        }
        var renames: [String: String] = [:]
        for text in rename {
            let (old, new) = try Self.pair(text, "rename")
            renames[old] = new
        }
        try common.withSession { session in
            var changed: [ColumnDefinition] = []
            if !label.isEmpty || !redefine.isEmpty {
                // A new label or expression is a new definition: the column's own, with that replaced.
                let described = try session.send(DescribeRequest(table: table), quiet: true)
                func definition(_ key: String) throws -> ColumnDefinition {
                    if let index = changed.firstIndex(where: { $0.key == key }) { return changed.remove(at: index) }
                    guard let found = described.columns.first(where: { $0.key == key }) else {
                        throw ValidationError("\(table) has no column \(key).")
                    }
                    return found
                }
                for text in label {
                    let (key, newLabel) = try Self.pair(text, "label")
                    var column = try definition(key)
                    column.label = newLabel
                    changed.append(column)
                }
                for text in redefine {
                    let (key, expression) = try Self.pair(text, "redefine")
                    var column = try definition(key)
                    column.expression = expression
                    changed.append(column)
                }
            }
            let reply = try session.send(
                AlterRequest(
                    table: table,
                    change: changed.isEmpty ? nil : changed,
                    rename: renames.isEmpty ? nil : renames,
                    drop: drop.isEmpty ? nil : drop,
                    add: added.isEmpty ? nil : added,
                    values: values.isEmpty ? nil : values,
                    readOnly: readOnly,
                    limit: limit
                )
            )
            guard !common.json else { return }
            print("altered \(reply.table): \(Alter.describe(reply.altered))")
            print("columns: \(reply.columns.joined(separator: ", "))")
        }
    }

    /// What a change of columns did, in a line: "added rack; renamed qty → count".
    static func describe(_ change: SchemaChangeReply) -> String {
        var parts: [String] = []
        if let added = change.added { parts.append("added " + added.joined(separator: ", ")) }
        if let dropped = change.dropped { parts.append("dropped " + dropped.joined(separator: ", ")) }
        if let renamed = change.renamed {
            parts.append("renamed " + renamed.map { $0.joined(separator: " → ") }.joined(separator: ", "))
        }
        if let changed = change.changed { parts.append("changed " + changed.joined(separator: ", ")) }
        if let readOnly = change.readOnly { parts.append(readOnly ? "read-only" : "not read-only") }
        if let limit = change.limit { parts.append(limit == 0 ? "no row limit" : "at most \(limit) rows") }
        return parts.joined(separator: "; ")
    }
}

/// `datatable column-state TABLE [NAME]`: column arrangements kept by name.
struct ColumnStateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "column-state",
        abstract: "List, show, save or delete the column arrangements a table keeps by name.",
        discussion: """
            datatable column-state stock                          # the names
            datatable column-state stock narrow --hide notes --first qty   # save
            datatable column-state stock narrow                   # show it
            datatable column-state stock narrow --delete
            A view takes an arrangement with the columnState request (datatable shell).
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String
    @Argument(help: "The arrangement's name.") var name: String?
    @Option(help: "Save: hide this column (repeat).", completion: .custom(Completions.columns)) var hide: [String] = []
    @Option(help: "Save: show this column first (repeat, in order).", completion: .custom(Completions.columns))
    var first: [String] = []
    @Flag(help: "Forget the arrangement.") var delete = false

    func validate() throws {
        let saving = !hide.isEmpty || !first.isEmpty
        if (saving || delete) && name == nil { throw ValidationError("Name the arrangement to save or delete.") }
        if saving && delete { throw ValidationError("Save (--hide, --first) or --delete, not both.") }
    }

    func run() throws {
        let saving = !hide.isEmpty || !first.isEmpty
        let state =
            saving
            ? ColumnState(
                columns: hide.isEmpty
                    ? nil : Dictionary(uniqueKeysWithValues: hide.map { ($0, ColumnHints(hidden: true)) }),
                columnOrder: first.isEmpty ? nil : first
            ) : nil
        try common.withSession { session in
            let reply = try session.send(
                ColumnStateRequest(table: table, name: name, save: state, delete: delete ? true : nil)
            )
            guard !common.json else { return }
            if let shown = reply.state, let name {
                let hidden = (shown.columns ?? [:]).filter { $0.value.hidden == true }.keys.sorted()
                print("\(name): hidden \(hidden.isEmpty ? "none" : hidden.joined(separator: ", "))")
                print("\(name): first \(shown.columnOrder.map { $0.joined(separator: ", ") } ?? "as the table")")
            } else {
                print(reply.names.isEmpty ? "no column states" : reply.names.joined(separator: "\n"))
            }
        }
    }
}
