import DataTableEngine
import DataTableProtocol
import Foundation
import Logging

extension ServerState {
    /// The names of the tables attached to sources now.
    public var attachedTableNames: [String] { attached.names }

    /// Attaches again, in the background, each table the state directory keeps an attachment
    /// of (``SavedAttachments``), with its access: its rows read from the source as they are
    /// now. A source out of reach is tried again (1 s, doubling to 30 s) until it answers; an
    /// attachment that can no longer be made (the source is not configured, the relation is
    /// gone, a table of that name was made meanwhile) is forgotten, with the reason logged.
    public func attachSaved(logger: Logger) {
        guard let savedAttachments else { return }
        for record in savedAttachments.all {
            // Waiting from the start, before the first request is read.
            attached.setWaiting(record.table, for: record.source, true)
            Task.detached { [self] in await attachAgain(record, logger: logger) }
        }
    }

    private func attachAgain(_ record: SavedAttachment, logger: Logger) async {
        defer { attached.setWaiting(record.table, for: record.source, false) }
        let metadata: Logger.Metadata = ["table": "\(record.table)", "source": "\(record.source)"]
        func forget(_ reason: String) {
            logger.error("an attached table cannot be attached again: \(reason)", metadata: metadata)
            try? savedAttachments?.forget(record)
        }
        guard let source = sources[record.source] else {
            return forget("the daemon has no source \(record.source) now")
        }
        var delay = Duration.seconds(1)
        var warned = false
        // Until attached, or the record is replaced (the table attached again by a client).
        while savedAttachments?.keeps(record) == true {
            if tables.contains(record.table) {
                return forget("a table called \(record.table) was made meanwhile")
            }
            do {
                let attached = try await attach(record.table, from: source, as: record.origin, access: record.access)
                logger.notice(
                    "attached again: \(attached.rows) rows",
                    metadata: metadata.merging(["rows": "\(attached.rows)"]) { $1 }
                )
                return
            } catch let error as ResponseError where error.kind == .sourceUnavailable {
                if !warned {
                    logger.warning(
                        "an attached table waits for its source: \(error.message)",
                        metadata: metadata
                    )
                    warned = true
                }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(30))
            } catch let error as ResponseError {
                return forget(error.message)
            } catch {
                return forget("\(error)")
            }
        }
    }
}
