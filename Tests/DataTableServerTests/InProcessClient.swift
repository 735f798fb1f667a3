import DataTableProtocol
import DataTableServer
import Foundation
import Logging
import Testing

/// Talks to a dispatcher directly, as one connection would: same per-connection state between
/// requests, no socket.
struct InProcessClient {
    let dispatcher: RequestDispatcher
    var context: RequestContext

    init(
        limits: ServerLimits = ServerLimits(),
        logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
        server: ServerState? = nil,
        peer: PeerCredentials? = PeerCredentials(pid: 42, uid: 1000, gid: 1000)
    ) {
        dispatcher = RequestDispatcher(methods: .builtin(), limits: limits)
        context = RequestContext(
            connection: ConnectionInfo(id: 1, peer: peer),
            server: server ?? ServerState(limits: limits),
            logger: logger
        )
    }

    /// The raw reply line to `line`, or `nil` when none is sent.
    mutating func send(_ line: String) async -> String? {
        await dispatcher.reply(to: Data(line.utf8), context: &context).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The reply to `line`, parsed.
    mutating func reply(_ line: String) async throws -> JSONValue {
        let text = try #require(await send(line))
        return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }
}
