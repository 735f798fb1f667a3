import DataTableClient
import DataTableProtocol
import Foundation

/// What `datatable shell` completes: method names first, then a method's param names
/// (`table=`), and after `table=` the tables the daemon has, after `column=` or `columns=` the
/// columns of the table the line names, and the few params with a fixed set of values. Tables and
/// columns are asked of the daemon on a connection of the completer's own.
final class ShellCompleter {
    private let socketPath: String
    private var connection: LineConnection?

    init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// Words the shell knows besides the methods.
    static let commands = ["help", "quit", "exit"]

    /// Params whose values are one of a few words, by name or dotted path (`to.align`), for
    /// those a method's own params do not list (its `help` lists the names of its top-level ones).
    static let choices: [String: [String]] = [
        "unit": LengthUnit.names,
        "sizeClass": SizeClass.names,
        "leftAccessory": RowAccessory.names,
        "rightAccessory": RowAccessory.names,
        "follow": FollowEdge.names,
        "to.align": TargetAlignment.names,
        "sections.style": SectionStyle.names,
        "align": ColumnAlignment.names,
        "binding": ColumnBinding.names,
        "type": ColumnValueType.names,
        "op": FilterOp.names,
        "format": DataFileFormat.names,
        "action": SelectionAction.names,
        "selection": ["true", "false"],
    ]

    /// The words `word` may become after `before` (the line up to the word), and whether a
    /// space should follow.
    func candidates(before: String, word: String) -> (candidates: [String], appendSpace: Bool) {
        let words = (try? ShellInput.words(of: before)) ?? before.split(separator: " ").map(String.init)
        let method = words.first
        // The first word: a method or a command.
        guard let method, !(words.count == 1 && !before.hasSuffix(" ") && !before.hasSuffix("=")) else {
            let names = MethodRegistry.all.map { $0.method } + Self.commands
            return (names.filter { $0.hasPrefix(word) }.sorted(), true)
        }
        if method == "help" {
            return (MethodRegistry.all.map { $0.method }.filter { $0.hasPrefix(word) }.sorted(), true)
        }
        // A value: the word follows `name=`.
        if before.hasSuffix("="), let last = words.last {
            let path = String(last.dropLast())
            return (values(of: path, method: method, line: words).filter { $0.hasPrefix(word) }, true)
        }
        // A param name.
        guard let type = MethodRegistry.type(named: method) else { return ([], true) }
        let given = Set(words.dropFirst().compactMap { $0.split(separator: "=").first.map(String.init) })
        let names = ParamsSchema(of: type).params.map(\.name).filter { !given.contains($0) && $0.hasPrefix(word) }
        return (names.map { $0 + "=" }, false)
    }

    /// The values the param at `path` (`unit`, `to.align`) of `method` may take, as far as they
    /// can be listed.
    private func values(of path: String, method: String, line words: [String]) -> [String] {
        let name = path.split(separator: ".").last.map(String.init) ?? ""
        if !path.contains("."), let type = MethodRegistry.type(named: method),
            let names = ParamsSchema(of: type).params.first(where: { $0.name == name })?.values
        {
            return names
        }
        if let choices = Self.choices[path] ?? Self.choices[name] { return choices }
        switch name {
        case "table": return tableNames()
        case "column", "columns", "key":
            guard let table = words.lazy.compactMap({ Self.value(of: "table", in: $0) }).first else { return [] }
            return columnKeys(of: table)
        default: return []
        }
    }

    /// The value of `word` when it is `name=value`.
    private static func value(of name: String, in word: String) -> String? {
        guard word.hasPrefix(name + "=") else { return nil }
        let raw = String(word.dropFirst(name.count + 1))
        return ShellInput.value(of: raw).stringValue ?? raw
    }

    private func tableNames() -> [String] {
        guard let reply = try? ask(TablesRequest()) else { return [] }
        return reply.tables.map(\.name).sorted()
    }

    private func columnKeys(of table: String) -> [String] {
        guard let reply = try? ask(DescribeRequest(table: table)) else { return [] }
        return reply.columns.map(\.key)
    }

    private func ask<Request: DataTableRequest>(_ request: Request) throws -> Request.Response {
        if connection == nil { connection = try LineConnection(path: socketPath) }
        do {
            return try connection!.send(request)
        } catch let error as LineConnection.Failure {
            connection = nil
            throw error
        }
    }
}
