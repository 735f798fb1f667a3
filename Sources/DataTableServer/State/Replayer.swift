import DataTableEngine
import DataTableProtocol
import Foundation
import Logging

/// Applies the records of a log to tables at start-up: requests through their own methods,
/// exactly as they ran the first time, and whole tables in place of the table of their name.
///
/// Replay happens under limits no configuration can make smaller than what was once accepted,
/// and records nothing.
final class Replayer {
    private let server: ServerState
    private let methods = MethodTable.builtin()
    private var context: RequestContext
    /// Records applied.
    private(set) var count = 0

    init(catalog: TableCatalog) {
        let unbounded = ServerLimits(
            maxLineBytes: .max,
            maxConnections: .max,
            maxBatchSize: .max,
            maxOutputBytes: .max,
            maxTables: .max,
            maxRows: .max
        )
        server = ServerState(limits: unbounded, catalog: catalog)
        context = RequestContext(
            connection: ConnectionInfo(id: 0, peer: nil),
            server: server,
            logger: Logger(label: "datatabled.replay", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        context.isReplay = true
    }

    /// The tables as replayed so far.
    var catalog: TableCatalog { server.catalog.withLock { $0 } }

    /// Applies `record`. A request its method refuses is fine (a refused edit still leaves its
    /// drafts, the first time and now); a request no method answers is damage.
    func apply(_ record: StateRecord) async throws {
        count += 1
        switch record {
        case .request(let line):
            let header = try JSONDecoder().decode(RequestHeader.self, from: line)
            guard let method = header.method?.stringValue, let handler = methods.handler(for: method) else {
                throw StateDirectoryError.damaged("a change names no known method")
            }
            _ = try? await handler(line, &context)
        case .table(let image):
            let table = try TableImageCoding.decode(image)
            try server.catalog.withLock { catalog in try catalog.replace(table) }
        case .snapshotHeader, .snapshotEnd:
            throw StateDirectoryError.damaged("a log holds a snapshot record")
        }
    }
}
