import ArgumentParser
import DataTableClient
import DataTableProtocol
import Foundation

/// Options every subcommand that talks to the daemon shares.
struct CommonOptions: ParsableArguments {
    @OptionGroup var connection: ConnectionOptions

    @Flag(help: "Print the daemon's reply as it came (one JSON line) instead of text.")
    var json = false

    @Flag(help: "Print listings as CSV (a header line, then one line per row).")
    var csv = false

    @Flag(help: "Print listings as tab-separated values.")
    var tsv = false

    func validate() throws {
        guard [json, csv, tsv].filter({ $0 }).count <= 1 else {
            throw ValidationError("Give one of --json, --csv and --tsv.")
        }
    }

    var socketPath: String { get throws { try connection.socketPath } }

    /// Runs `body` with a session on the daemon. An error reply is printed as one line on stderr
    /// (exit 1); a daemon that cannot be reached exits 2.
    func withSession(_ body: (DaemonSession) throws -> Void) throws {
        Output.listFormat = csv ? .csv : tsv ? .tsv : .aligned
        let path = try socketPath
        let session: DaemonSession
        do {
            session = try DaemonSession(path: path, printReplies: json)
        } catch {
            Output.error("Cannot reach datatabled at \(path): \(error).")
            throw ExitCode(2)
        }
        do {
            try body(session)
        } catch let failure as DaemonSession.Refused {
            Output.error("\(failure.message) (\(failure.kind))")
            throw ExitCode(1)
        } catch let failure as LineConnection.Failure {
            Output.error("The connection to datatabled failed: \(failure).")
            throw ExitCode(2)
        }
    }
}

/// One connection to the daemon for the length of a command: requests in, results out. The
/// connection keeps its state between requests (a view scrolled twice stays the same view).
final class DaemonSession {
    /// An error reply.
    struct Refused: Error {
        var message: String
        var kind: String
        var field: String?
    }

    private let connection: LineConnection
    private let printReplies: Bool

    /// The socket, for `poll`; and whether a line is already read and waiting (a notification
    /// kept, or a line read and not yet taken).
    var descriptor: Int32 { connection.descriptor }
    var hasBufferedLine: Bool { !kept.isEmpty || connection.hasBufferedLine }
    /// Whether notifications that come while a request waits for its reply, and are not about
    /// it (a watch's `window` notifications), are kept for ``nextNotification()`` in the order
    /// they came; else they are skipped.
    var keepsNotifications = false
    private var kept: [JSONValue] = []
    private var nextID = 1
    /// The last reply line, as it came.
    private(set) var lastReply: String?

    init(path: String, printReplies: Bool) throws {
        connection = try LineConnection(path: path)
        self.printReplies = printReplies
    }

    /// The typed result of `request`; throws ``Refused`` for an error reply. With `--json` the
    /// reply line is printed as it came (unless `quiet`).
    @discardableResult
    func send<Request: DataTableRequest>(_ request: Request, quiet: Bool = false) throws -> Request.Response {
        let result = try sendForJSON(request, quiet: quiet)
        return try JSONDecoder().decode(Request.Response.self, from: JSONEncoder().encode(result))
    }

    /// The result of `request` as the daemon wrote it, for output drawn from the reply's JSON as
    /// it is (a scroll's window, a layout's plan).
    @discardableResult
    func sendForJSON<Request: DataTableRequest>(_ request: Request, quiet: Bool = false) throws -> JSONValue {
        try sendForJSON(request, quiet: quiet, notified: nil)
    }

    /// Like ``send(_:quiet:)``, handing `notified` each notification the daemon sends about this
    /// request before its reply (`progress` of a load, `chunk` of a streamed export): its method
    /// and params.
    @discardableResult
    func send<Request: DataTableRequest>(
        _ request: Request,
        quiet: Bool = false,
        notified: @escaping (_ method: String, _ params: [String: JSONValue]) throws -> Void
    ) throws -> Request.Response {
        let result = try sendForJSON(request, quiet: quiet, notified: notified)
        return try JSONDecoder().decode(Request.Response.self, from: JSONEncoder().encode(result))
    }

    private func sendForJSON<Request: DataTableRequest>(
        _ request: Request,
        quiet: Bool,
        notified: ((_ method: String, _ params: [String: JSONValue]) throws -> Void)?
    ) throws -> JSONValue {
        nextID += 1
        let id = nextID
        // Notifications about this request go to `notified` (a subscription's events do not);
        // the others are kept when the session keeps them.
        let keeps = keepsNotifications
        let handler: ((String) throws -> Void)? =
            notified == nil && !keeps
            ? nil
            : { [unowned self] line in
                let notification = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
                if let notified, let method = notification["method"]?.stringValue,
                    let params = notification["params"]?.objectValue, params["request"]?.intValue == id
                {
                    try notified(method, params)
                } else if keeps {
                    kept.append(notification)
                }
            }
        do {
            let exchange = try connection.exchange(request, id: id, notified: handler)
            lastReply = exchange.line
            if printReplies && !quiet { print(exchange.line) }
            return exchange.result
        } catch let error as ResponseError {
            lastReply = connection.lastReplyLine
            if printReplies && !quiet, let line = lastReply { print(line) }
            throw Refused(message: error.message, kind: error.kind.rawValue, field: error.details["field"]?.stringValue)
        }
    }

    /// The next line from the daemon, parsed: a notification (`event`, `progress`) when no
    /// request is waiting for its reply; those kept while one waited come first.
    func nextNotification() throws -> JSONValue {
        if !kept.isEmpty { return kept.removeFirst() }
        return try JSONDecoder().decode(JSONValue.self, from: Data(try connection.nextLine().utf8))
    }

    /// The next notification, or `nil` once `deadline` passes without one (`nil` deadline: wait
    /// as long as it takes).
    func nextNotification(before deadline: Date?) throws -> JSONValue? {
        if let deadline, !hasBufferedLine {
            let left = Int32(max(0, min(Double(Int32.max), deadline.timeIntervalSinceNow * 1000)))
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, left) > 0 else { return nil }
        }
        return try nextNotification()
    }

    /// `value` as one line of JSON, members in key order, as the `--json` output of a stream
    /// of notifications prints each.
    static func line(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The notifications kept while requests waited for their replies (``keepsNotifications``),
    /// oldest first: they came before the last reply. Taking them empties the list.
    func takeKeptNotifications() -> [JSONValue] {
        defer { kept = [] }
        return kept
    }
}

/// What commands print.
enum Output {
    /// Whether to colour what is drawn: not when `NO_COLOR` is set (no-color.org).
    static var colours: Bool {
        (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// How listings (tables of rows) are printed.
    enum ListFormat {
        /// Aligned columns under a rule of box-drawing characters (ASCII when stdout is not a terminal).
        case aligned
        /// Comma-separated values, quoted where needed, a header line first.
        case csv
        /// Tab-separated values (tabs and line breaks in a value become spaces), a header line first.
        case tsv
    }

    /// The format of listings for this run (`--csv`, `--tsv`).
    nonisolated(unsafe) static var listFormat = ListFormat.aligned

    /// A line about a listing ("2 of 10 rows"): on stdout beside aligned columns, on stderr when
    /// the listing is CSV or TSV, so stdout holds nothing but the values.
    static func summary(_ text: String) {
        if listFormat == .aligned { print(text) } else { error(text) }
    }

    /// One line on stderr, prefixed with the program's name.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data("datatable: \(text)\n".utf8))
    }

    /// `number` and `noun`, plural unless the number is 1: "1 row", "3 rows".
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// The size of the terminal `descriptor` (stdout unless told) is on, or `nil` when it is not
    /// a terminal (or it does not say).
    static func terminalSize(of descriptor: Int32 = STDOUT_FILENO) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}

extension JSONValue {
    /// The members when this is an object.
    var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// A row id as typed on a command line: a whole number, else the text.
    static func rowID(_ text: String) -> JSONValue {
        Int64(text).map(JSONValue.integer) ?? .string(text)
    }

    /// A value as typed on a command line: `null` for nothing, else the text (the daemon reads
    /// it by the column's type).
    static func cell(_ text: String) -> JSONValue {
        text.isEmpty ? .null : .string(text)
    }

    /// How the value reads in text.
    var text: String {
        switch self {
        case .null: ""
        case .bool(let flag): String(flag)
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .string(let text): text
        case .array(let elements): elements.map(\.text).joined(separator: ", ")
        case .object: "{…}"
        }
    }
}
