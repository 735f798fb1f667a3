import ArgumentParser
import DataTableClient
import DataTableProtocol
import Foundation

/// `datatable shell`: requests typed one per line on one connection, as redis-cli takes them.
struct Shell: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Type requests on one connection, with history, editing and completion.",
        discussion: """
            A line is a method and its params as name=value words (a dotted name nests: \
            viewport.height=20; a value that reads as JSON is that JSON, anything else text), a \
            method and one JSON object, or a whole JSON request. Tab completes methods, params, \
            table names, column keys and fixed values. `help` lists the methods, `help METHOD` \
            its params; `quit` or Ctrl-D leaves. Replies are shown indented (--raw: as they came); \
            events and progress of the connection are shown as they come.

              stock> get table=stock count=2 columns=["item","qty"]
              stock> scroll table=stock viewport.height=10 unit=cell
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print each reply and notification line as it came.") var raw = false
    @Option(help: "Keep the line history in this file (default: ~/.datatable_history; \"\" for none).")
    var history: String?

    func run() throws {
        let path = try connection.socketPath
        let link: LineConnection
        do {
            link = try LineConnection(path: path)
        } catch {
            Output.error("Cannot reach datatabled at \(path): \(error).")
            throw ExitCode(2)
        }
        let completer = ShellCompleter(socketPath: path)
        let editor = LineEditor(historyPath: historyPath) { before, word in
            completer.candidates(before: before, word: word)
        }
        let session = ShellSession(connection: link, raw: raw)
        let prompt = "datatable> "
        while true {
            try session.showNotificationsWaiting()
            guard let typed = editor.readLine(prompt: prompt) else { break }
            let input: ShellInput
            do {
                input = try ShellInput.parse(typed)
            } catch {
                print("(error) \(error)")
                continue
            }
            switch input {
            case .nothing: continue
            case .quit: return
            case .help(let method): try session.help(method)
            case .request(let method, let params): try session.request(method: method, params: params)
            case .line(let line): try session.send(line: line)
            }
        }
    }

    private var historyPath: String? {
        if let history { return history.isEmpty ? nil : history }
        guard let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.datatable_history"
    }
}

/// The connection of a shell: sends what was typed, shows replies and notifications.
final class ShellSession {
    private let connection: LineConnection
    private let raw: Bool
    private var nextID = 0

    init(connection: LineConnection, raw: Bool) {
        self.connection = connection
        self.raw = raw
    }

    /// A request of `method` with `params`.
    func request(method: String, params: JSONValue?) throws {
        nextID += 1
        var members: [String: JSONValue] = ["jsonrpc": "2.0", "id": .integer(Int64(nextID)), "method": .string(method)]
        if let params { members["params"] = params }
        try send(line: Self.compact(.object(members)))
    }

    /// A line as typed (a whole request or batch); shows every line that comes back for it.
    func send(line: String) throws {
        try connection.send(line: line)
        let isNotification = !line.contains("\"id\"")
        if isNotification {
            // A notification gets no reply; show whatever comes back in a moment (an error).
            usleep(100_000)
            try showNotificationsWaiting()
            return
        }
        while true {
            let received = try connection.nextLine()
            show(received)
            if LineConnection.isReply(received) { return }
        }
    }

    /// `help`, or `help METHOD` with the method's params.
    func help(_ method: String?) throws {
        nextID += 1
        do {
            Methods.print(try connection.send(HelpRequest(method: method), id: nextID))
        } catch let error as ResponseError {
            print("(error) \(error.message) [\(error.kind.rawValue)]")
        }
    }

    /// Shows the notifications (events, progress) that came while nothing was asked.
    func showNotificationsWaiting() throws {
        while connection.hasBufferedLine || Self.isReadable(connection.descriptor) {
            show(try connection.nextLine())
        }
    }

    private func show(_ line: String) {
        guard !raw, let value = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)) else {
            print(line)
            return
        }
        if let error = value["error"], let message = error["message"]?.stringValue {
            let kind = error["data"]?["kind"]?.stringValue ?? "error"
            print("(error) \(message) [\(kind)]")
        } else if let result = value["result"] {
            print(Self.pretty(result))
        } else if let method = value["method"]?.stringValue {
            print("(\(method)) \(Self.compact(value["params"] ?? .null))")
        } else {
            print(Self.pretty(value))
        }
    }

    private static func isReadable(_ descriptor: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0 && poller.revents & Int16(POLLIN) != 0
    }

    private static func pretty(_ value: JSONValue) -> String {
        encode(value, [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    private static func compact(_ value: JSONValue) -> String {
        encode(value, [.sortedKeys, .withoutEscapingSlashes])
    }

    private static func encode(_ value: JSONValue, _ formatting: JSONEncoder.OutputFormatting) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }
}
