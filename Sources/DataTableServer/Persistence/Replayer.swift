import DataTableEngine
import DataTableProtocol
import Foundation
import Logging

/// Applies the records of a log to tables at start-up: each change made again by
/// ``Table/apply(_:now:)``, exactly as the first time; whole tables in place of the table of
/// their name; and request lines (a `drop`, and every change of logs written before changes
/// were logged as what they did) through their own methods.
///
/// Replay happens under limits no configuration can make smaller than what was once accepted,
/// and records nothing: the changes it makes are the log's own records. Its server has no log,
/// and the context its requests are answered in no ``ChangeRecording``.
final class Replayer {
    private let server: ServerState
    private let methods = MethodTable.builtin()
    private var context: RequestContext
    /// Changes applied (records of tables and their changes; not the daemon's settings).
    private(set) var count = 0
    /// Requests whose replay left their table at another version than the first time.
    private(set) var diverged = 0
    private let logger: Logger
    /// With `--recover`: a whole table in the log that cannot be read is set aside, not fatal.
    private let recover: Bool
    /// The tables set aside so far.
    private(set) var unreadable: [StateStore.UnreadableTable] = []

    /// Replays onto `catalog`'s tables, each keeping `undoDepth` changes to undo (as the daemon
    /// that wrote the log did, so undo finds the same history).
    init(catalog: TableCatalog, undoDepth: Int, logger: Logger, recover: Bool = false) {
        self.logger = logger
        self.recover = recover
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
        // Logged requests were accepted once, and are again, params and all.
        context.lenientParams = true
    }

    /// How many changes each table can take back, as the log has it so far.
    var undoDepth: Int { server.tables.undoDepth }
    /// Whether the snapshot or the log said so (logs written before they did leave the
    /// daemon's own setting in force).
    var undoDepthIsLogged = false

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
            // Answered with no recording (`context.recording` stays `nil`): the change is
            // already in the log.
            var context = self.context
            _ = try? await handlers.full(line, header.paramsRange, &context)
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
        case .change(let bytes, let table, let version):
            let change: TableChange
            do {
                change = try TableChange(decoding: bytes, coder: TableImageCoding.columnCoder)
            } catch {
                throw StateDirectoryError.damaged("a change to \(table) cannot be read: \(error)")
            }
            // A refused change is fine: it was refused the first time too, and left what it left
            // (a refused edit its drafts). Applied to the table directly, recording nothing.
            let now = try? server.tables.entry(table).update { table in
                _ = try? table.apply(change)
                return table.version
            }
            if let now, now != version {
                diverged += 1
                logger.error(
                    "a replayed change left its table at another version than when it was made",
                    metadata: ["table": "\(table)", "logged": "\(version)", "replayed": "\(now)"]
                )
            }
        case .table(let image):
            do {
                server.tables.replace(try TableImageCoding.decode(image))
            } catch {
                guard recover else { throw error }
                let name = TableImageCoding.name(of: image)
                // What the log said before about the table is not the table now: leave it out.
                if let name { _ = try? server.tables.remove(name) }
                unreadable.append(.init(name: name, image: image, reason: "\(error)"))
            }
        case .settings(let undoDepth):
            count -= 1
            server.tables.setUndoDepth(undoDepth)
            undoDepthIsLogged = true
        case .snapshotHeader, .snapshotEnd:
            throw StateDirectoryError.damaged("a log holds a snapshot record")
        }
    }
}
