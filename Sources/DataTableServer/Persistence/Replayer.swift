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
    /// Requests whose replay left their table at another version than the first time.
    private(set) var diverged = 0
    private let logger: Logger

    /// Replays onto `catalog`'s tables, each keeping `undoDepth` changes to undo (as the daemon
    /// that wrote the log did, so undo finds the same history).
    init(catalog: TableCatalog, undoDepth: Int, logger: Logger) {
        self.logger = logger
        let unbounded = ServerLimits(
            maxLineBytes: .max,
            maxConnections: .max,
            maxBatchSize: .max,
            maxOutputBytes: .max,
            maxTables: .max,
            maxRows: .max
        )
        server = ServerState(limits: unbounded, catalog: catalog, undoDepth: undoDepth, accountingMemory: false)
        context = RequestContext(
            connection: ConnectionInfo(id: 0, peer: nil),
            server: server,
            logger: Logger(label: "datatabled.replay", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        context.isReplay = true
    }

    /// The tables as replayed so far.
    var catalog: TableCatalog { server.tables.catalog() }

    /// Applies `record`. A request its method refuses is fine (a refused edit still leaves its
    /// drafts, the first time and now); a request no method answers is damage.
    func apply(_ record: StateRecord) async throws {
        count += 1
        switch record {
        case .request(let line, let table, let version):
            let header = try EnvelopeScanner.header(line) ?? JSONDecoder().decode(RequestHeader.self, from: line)
            guard let method = header.method?.stringValue, let handlers = methods.handlers(for: method) else {
                throw StateDirectoryError.damaged("a change names no known method")
            }
            var context = self.context
            _ = try? await KnownParams.$lenient.withValue(true) {
                try await handlers.full(line, header.paramsRange, &context)
            }
            self.context = context
            // A dropped table is gone after its replay; any other must be where it was.
            if let now = try? server.read(table, by: .daemon, \.version), now != version {
                diverged += 1
                logger.error(
                    "a replayed change left its table at another version than when it was made",
                    metadata: [
                        "table": "\(table)", "method": "\(method)", "logged": "\(version)", "replayed": "\(now)",
                    ]
                )
            }
        case .table(let image):
            let table = try TableImageCoding.decode(image)
            server.tables.replace(table)
        case .snapshotHeader, .snapshotEnd:
            throw StateDirectoryError.damaged("a log holds a snapshot record")
        }
    }
}
