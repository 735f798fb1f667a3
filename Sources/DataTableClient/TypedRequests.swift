import DataTableProtocol
import Foundation

/// Requests by their types: `connection.send(GetRequest(table: "stock", count: 5))` returns a
/// `GetRequest.Response`, and an error reply throws its ``ResponseError``.
extension LineConnection {
    /// The reply to one request: the line as it came, and its result.
    public struct Exchange: Sendable {
        /// The reply line as the daemon sent it, without its newline.
        public var line: String
        /// The reply's `result` member (`null` when it had none).
        public var result: JSONValue
    }

    /// Sends `request` with `id` and returns its typed result; an error reply throws its
    /// ``ResponseError``.
    public func send<Request: DataTableRequest>(_ request: Request, id: Int = 1) throws -> Request.Response {
        let exchange = try self.exchange(request, id: id)
        return try JSONDecoder().decode(Request.Response.self, from: JSONEncoder().encode(exchange.result))
    }

    /// Sends `request` with `id` and returns the reply line and its result as JSON; an error
    /// reply throws its ``ResponseError``. Notification lines that come before the reply go to
    /// `notified`, or are skipped.
    public func exchange<Request: DataTableRequest>(
        _ request: Request,
        id: Int = 1,
        notified: ((String) throws -> Void)? = nil
    ) throws -> Exchange {
        let line = try Self.line(for: request, id: id)
        let reply = try self.request(line, notified: notified)
        let message = try JSONDecoder().decode(ReplyMessage.self, from: Data(reply.utf8))
        if let error = message.error { throw error }
        return Exchange(line: reply, result: message.result ?? .null)
    }

    /// The request line for `request`: keys sorted, members the request leaves out left out.
    public static func line<Request: DataTableRequest>(for request: Request, id: Int) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let message = RequestMessage(id: .integer(Int64(id)), params: request)
        return String(decoding: try encoder.encode(message), as: UTF8.self)
    }
}
