import DataTableClient
import DataTableProtocol
import Foundation
import Testing

/// A typed request encoded once, for one sent again and again or answered at length: each reply
/// is read straight into the request's typed response.
///
/// `UnixClient.send(_:)` goes through `JSONValue` both ways. For a 1000-row add and its
/// 1000-entry reply (debug build) that takes several times as long as the daemon takes to carry
/// the add out, and tests that must make their changes within a grace, or that keep the daemon
/// busy from several threads, would measure the client instead.
struct EncodedRequest<Request: DataTableRequest> {
    /// The request's line, newline included.
    let line: String

    init(_ request: Request, id: Int = 1) throws { line = try LineConnection.line(for: request, id: id) + "\n" }

    /// Sends the request on `client` and returns its typed result; an error reply throws its
    /// ``ResponseError``. Notifications that arrive before the reply are skipped.
    func send(on client: UnixClient) throws -> Request.Response {
        try client.send(line)
        while true {
            let text = try #require(try client.readLine(), "the daemon closed the connection")
            guard LineConnection.isReply(text) else { continue }
            let reply = try JSONDecoder().decode(TypedReply<Request.Response>.self, from: Data(text.utf8))
            if let error = reply.error { throw error }
            return try #require(reply.result, "no result: \(text)")
        }
    }
}

/// A reply line read straight into `Result`.
private struct TypedReply<Result: Decodable>: Decodable {
    var result: Result?
    var error: ResponseError?
}
