import DataTableClient
import DataTableProtocol
import Foundation
import Testing

extension UnixClient {
    /// Sends `request` and returns its typed result; an error reply throws its ``ResponseError``.
    /// Notifications that arrive before the reply are skipped.
    @discardableResult
    func send<Request: DataTableRequest>(_ request: Request, id: Int = 1) throws -> Request.Response {
        try send(LineConnection.line(for: request, id: id) + "\n")
        let line = try nextReplyLine()
        let reply = try JSONDecoder().decode(TypedReply<Request.Response>.self, from: Data(line.utf8))
        if let error = reply.error { throw error }
        return try #require(reply.result, "the reply to \(Request.method) has no result: \(line)")
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
        return try JSONDecoder().decode(ReplyMessage.self, from: Data(nextReplyLine().utf8))
    }

    /// The next line that is a reply; notifications before it are skipped.
    private func nextReplyLine() throws -> String {
        while true {
            let text = try #require(try readLine(), "the daemon closed the connection")
            if LineConnection.isReply(text) { return text }
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

/// A reply read straight into the request's response type (no detour through `JSONValue`: a
/// reply of thousands of rows is decoded once).
private struct TypedReply<Result: Decodable>: Decodable {
    var result: Result?
    var error: ResponseError?
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
