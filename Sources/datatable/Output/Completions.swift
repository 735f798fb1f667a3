import DataTableClient
import DataTableProtocol
import Foundation

/// What the shell completion scripts (`datatable --generate-completion-script bash|zsh|fish`)
/// offer for table and column names: asked of the daemon when Tab is pressed, on the socket the
/// command line names (`--socket`) or the default one; nothing when it cannot be reached.
enum Completions {
    /// The tables the daemon has that start with what was typed.
    @Sendable static func tables(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let connection = connection(words) else { return [] }
        let names = (try? connection.send(TablesRequest()))?.tables.map(\.name) ?? []
        return names.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// The column keys of the table the command line names (its first word after the
    /// subcommand that is not an option) that start with what was typed; `sort` keys get
    /// `:desc` forms too.
    @Sendable static func columns(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard words.count > 2, let connection = connection(words) else { return [] }
        var table: String?
        var position = 2
        while position < words.count, position != index {
            let word = words[position]
            if word == "--socket" {
                position += 2
                continue
            }
            if !word.hasPrefix("-") {
                table = word
                break
            }
            position += 1
        }
        guard let table, let reply = try? connection.send(DescribeRequest(table: table)) else { return [] }
        var keys = reply.columns.map(\.key)
        if words[1] == "sort" { keys += keys.map { $0 + ":desc" } }
        return keys.filter { $0.hasPrefix(prefix) }
    }

    /// A connection to the socket `--socket` names in `words`, else the default one.
    private static func connection(_ words: [String]) -> LineConnection? {
        let given = words.firstIndex(of: "--socket").flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
        let paths =
            given.map { [$0] }
            ?? SocketLocation.clientPaths(environment: ProcessInfo.processInfo.environment, uid: getuid())
        guard let path = try? SocketSearch.firstReachable(paths) else { return nil }
        return try? LineConnection(path: path)
    }
}
