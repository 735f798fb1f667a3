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
            its params; `clear` clears the screen; `quit`, `exit` or Ctrl-D leaves. Replies are \
            shown as indented JSON, and a `scroll` as `datatable scroll` draws it (in terminal \
            cells, the terminal's width unless viewport.width says); --json shows every reply as \
            JSON, --raw as it came. Events and progress of the connection are shown as they come.

              datatable> get table=stock count=2 columns=["item","qty"]
              datatable> scroll table=stock viewport.height=10
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print each reply and notification line as it came.") var raw = false
    @Flag(help: "Show every reply as indented JSON (a scroll too, not drawn).") var json = false
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
        // Whatever the process was started with, the end of its terminal ends it.
        var endings = sigset_t()
        sigemptyset(&endings)
        for signal in [SIGHUP, SIGTERM, SIGINT] { sigaddset(&endings, signal) }
        sigprocmask(SIG_UNBLOCK, &endings, nil)
        Glibc.signal(SIGHUP, SIG_DFL)
        Glibc.signal(SIGTERM, SIG_DFL)
        let session = ShellSession(connection: link, display: raw ? .raw : json ? .json : .drawn)
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
            case .clearScreen: print("\u{1B}[H\u{1B}[2J", terminator: "")
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
    /// How replies are shown.
    enum Display {
        /// Indented JSON; a window in cells drawn as `datatable scroll` draws it.
        case drawn
        /// Indented JSON, always.
        case json
        /// Each line as it came.
        case raw
    }

    private let connection: LineConnection
    private let display: Display
    private var nextID = 0

    init(connection: LineConnection, display: Display) {
        self.connection = connection
        self.display = display
    }

    /// A request of `method` with `params`.
    func request(method: String, params: JSONValue?) throws {
        nextID += 1
        var members: [String: JSONValue] = ["jsonrpc": "2.0", "id": .integer(Int64(nextID)), "method": .string(method)]
        if let params { members["params"] = params }
        if method == "scroll", display == .drawn { members["params"] = Self.drawable(params) }
        try send(line: Self.compact(.object(members)))
    }

    /// A scroll's params made drawable in this terminal: in cells unless a unit is given, and
    /// as wide as the terminal (20 rows high) unless the viewport says.
    static func drawable(_ params: JSONValue?) -> JSONValue? {
        guard var members = params?.objectValue ?? (params == nil ? [:] : nil), members["unit"] == nil else {
            return params
        }
        members["unit"] = "cell"
        var viewport = members["viewport"]?.objectValue ?? [:]
        let size = Output.terminalSize()
        viewport["width"] = viewport["width"] ?? .integer(Int64(size?.columns ?? 100))
        viewport["height"] = viewport["height"] ?? .integer(Int64(min(21, max(3, (size?.rows ?? 24) - 3))))
        members["viewport"] = .object(viewport)
        return .object(members)
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
            return
        }
        guard method == nil else { return }
        print(
            """

            help METHOD describes one; clear clears the screen; quit, exit or Ctrl-D leaves.
            """
        )
    }

    /// Shows the notifications (events, progress) that came while nothing was asked.
    func showNotificationsWaiting() throws {
        while connection.hasBufferedLine || Self.isReadable(connection.descriptor) {
            show(try connection.nextLine())
        }
    }

    private func show(_ line: String) {
        guard display != .raw, let value = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)) else {
            print(line)
            return
        }
        if let error = value["error"], let message = error["message"]?.stringValue {
            let kind = error["data"]?["kind"]?.stringValue ?? "error"
            print("(error) \(message) [\(kind)]")
        } else if let result = value["result"], display == .drawn, result["unit"]?.stringValue == "cell",
            result["rows"] != nil, result["columns"] != nil
        {
            for line in WindowText(window: result).lines { print(line) }
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
