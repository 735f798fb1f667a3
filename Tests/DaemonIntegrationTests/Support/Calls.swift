import DataTableClient
import DataTableProtocol
import Foundation
import Testing

extension UnixClient {
    /// Sends `request` and returns its typed result; an error reply throws its ``ResponseError``.
    /// Notifications that arrive before the reply are skipped.
    @discardableResult
    func send<Request: DataTableRequest>(_ request: Request, id: Int = 1) throws -> Request.Response {
        let reply = try reply(toLine: LineConnection.line(for: request, id: id))
        if let error = reply.error { throw error }
        return try decoded(Request.Response.self, from: reply.result ?? .null)
    }

    /// Sends `request`, which must fail, and returns its error. A success fails the test.
    func failure<Request: DataTableRequest>(
        _ request: Request,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ResponseError {
        let reply = try reply(toLine: LineConnection.line(for: request, id: 1))
        return try #require(
            reply.error,
            "\(Request.method) succeeded: \(reply.result ?? .null)",
            sourceLocation: sourceLocation
        )
    }

    /// Sends `line` as it is (for what no request type can say: a misspelt member, a wrong type,
    /// broken JSON) and returns its reply. Notifications that arrive first are skipped.
    func reply(toLine line: String) throws -> ReplyMessage {
        try send(line + "\n")
        while true {
            let text = try #require(try readLine(), "the daemon closed the connection")
            guard LineConnection.isReply(text) else { continue }
            return try JSONDecoder().decode(ReplyMessage.self, from: Data(text.utf8))
        }
    }

    /// Sends `line` as it is and returns the error it must be answered with.
    func failure(
        toLine line: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ResponseError {
        let reply = try reply(toLine: line)
        return try #require(reply.error, "\(line) succeeded: \(reply.result ?? .null)", sourceLocation: sourceLocation)
    }

    /// The next `count` `event` notifications (replies in between are skipped).
    func events(_ count: Int, timeout: Duration = .seconds(10)) throws -> [TableEvent] {
        var events: [TableEvent] = []
        while events.count < count {
            let line = try #require(try readLine(timeout: timeout), "the daemon closed the connection")
            let message = try JSONDecoder().decode(Notification<TableEvent>.self, from: Data(line.utf8))
            if message.method == "event", let params = message.params { events.append(params) }
        }
        return events
    }
}

/// A line as a notification: its `method` and, when it is one of `Params`, its `params`.
struct Notification<Params: Decodable>: Decodable {
    var method: String?
    var params: Params?

    private enum CodingKeys: String, CodingKey { case method, params }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decodeIfPresent(String.self, forKey: .method)
        params = method == nil ? nil : try? container.decodeIfPresent(Params.self, forKey: .params)
    }
}

/// `value` (a reply's result, a JSON member) read as `type`.
func decoded<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
    try JSONDecoder().decode(type, from: JSONEncoder().encode(value))
}

/// Waits until `condition` holds, trying again every few milliseconds; fails after `timeout`.
func waitUntil(
    _ what: @autoclosure () -> String,
    timeout: Duration = .seconds(15),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () throws -> Bool
) throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting until \(what())", sourceLocation: sourceLocation)
            throw WaitTimedOut()
        }
        usleep(5_000)
    }
}

/// Thrown by ``waitUntil(_:timeout:sourceLocation:_:)`` when its condition never held.
struct WaitTimedOut: Error {}

/// A create request for a table `name` of `count` rows, `n` = 0 ..< count and `name` = "row N",
/// sorted by `n` descending (the newest on top).
func numberedTable(_ name: String, count: Int) -> CreateRequest {
    CreateRequest(
        table: name,
        columns: [ColumnDefinition(key: "n", type: .number), ColumnDefinition(key: "name")],
        rows: (0..<count).map { ["n": .integer(Int64($0)), "name": .string("row \($0)")] },
        sort: [SortKeyParam(column: "n", descending: true)]
    )
}

extension Tag {
    /// Tests that take seconds (restarts, large tables, timeouts, other processes):
    /// `scripts/test --quick` leaves them out, skipping what `scripts/slow-tests` finds tagged.
    @Tag static var slow: Self
}

// MARK: - Untyped calls, being replaced by the typed ones above

extension UnixClient {
    /// Sends `method` with `params` (JSON text) and returns the reply: its `result`, or its
    /// `error` object. Notifications that arrive first are skipped.
    @discardableResult
    func call(_ method: String, _ params: String = "{}") throws -> [String: Any] {
        try send(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"# + "\n")
        while true {
            let reply = try object(try readLine())
            guard reply["id"] != nil else { continue }
            return reply["result"] as? [String: Any] ?? reply["error"] as? [String: Any] ?? [:]
        }
    }

    /// The `params` of the next `count` `event` notifications (replies in between are skipped).
    func untypedEvents(_ count: Int, timeout: Duration = .seconds(10)) throws -> [[String: Any]] {
        var events: [[String: Any]] = []
        while events.count < count {
            let line = try object(try readLine(timeout: timeout))
            if line["method"] as? String == "event", let params = line["params"] as? [String: Any] {
                events.append(params)
            }
        }
        return events
    }
}

/// `error.data` of an error object returned by ``UnixClient/call(_:_:)``.
func errorData(_ error: [String: Any]) -> [String: Any] { error["data"] as? [String: Any] ?? [:] }

/// JSON text of ``numberedTable(_:count:)``.
func numberedTableText(_ name: String, count: Int) -> String {
    let rows = (0..<count).map { #"{"n":\#($0),"name":"row \#($0)"}"# }.joined(separator: ",")
    return #"""
        {"table":"\#(name)","columns":[{"key":"n","type":"number"},{"key":"name"}],\#
        "sort":[{"column":"n","descending":true}],"rows":[\#(rows)]}
        """#
}
