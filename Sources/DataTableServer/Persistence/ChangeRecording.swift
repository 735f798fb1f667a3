import DataTableEngine
import DataTableProtocol
import Foundation
import Synchronization

/// The request being answered, as the log would record it: set by the dispatcher around each
/// request when the daemon keeps a state directory.
///
/// Before a request changes a table it claims room in the log for its record (``claim(_:in:)``):
/// when the log has none, the request is refused and changes nothing. Once it changed a table,
/// ``ServerState/update(_:by:needing:_:)`` appends its record (the catalog's own changes, a
/// table created or dropped, append theirs where they are made), inside the table's lock, so
/// the log holds each table's changes in the order they were made; the dispatcher then waits
/// for that record before it replies.
final class ChangeRecording: Sendable {
    /// The request being answered on this task, if its changes are to be recorded.
    @TaskLocal static var current: ChangeRecording?

    let line: Data

    private struct Progress {
        /// The log record of the request's change, once it made one.
        var sequence: UInt64?
        /// Bytes of log claimed for the record and not used yet.
        var claimed = 0
        /// How long the change took to make, so far: about what replaying it will take.
        var work = Duration.zero
    }

    private let progress = Mutex(Progress())

    init(line: Data) {
        self.line = line
    }

    /// The log record of this request's change, once it made one.
    var recorded: UInt64? { progress.withLock { $0.sequence } }

    /// Makes sure the log has room for a record of `bytes` of this request, before its change is
    /// made; `not_saved` (the change must not be made) when it has not.
    func claim(_ bytes: Int, in journal: Journal) throws(ResponseError) {
        try progress.withLock { progress throws(ResponseError) in
            guard progress.sequence == nil, bytes > progress.claimed else { return }
            do {
                try journal.claim(bytes - progress.claimed)
            } catch {
                throw .notSaved("\(error)")
            }
            progress.claimed = bytes
        }
    }

    /// Gives back room claimed and not used (the change was refused, or made none).
    func releaseClaim(in journal: Journal) {
        progress.withLock { progress in
            journal.release(progress.claimed)
            progress.claimed = 0
        }
    }

    /// Counts `elapsed` as time spent making the change (see ``Journal/append(_:claimed:work:)``).
    func addWork(_ elapsed: Duration) {
        progress.withLock { $0.work += elapsed }
    }

    /// Appends `record` unless this request was recorded already.
    func record(in journal: Journal, _ record: @autoclosure () -> StateRecord) {
        progress.withLock { progress in
            guard progress.sequence == nil else { return }
            progress.sequence = journal.append(record(), claimed: progress.claimed, work: progress.work)
            progress.claimed = 0
        }
    }
}

extension ServerState {
    /// Records the current request's change to `table` (as it is after the change) in the log,
    /// if there is a log. Call it while holding the table's lock, right where the change is made.
    func recordChange(of table: Table) {
        guard let journal, let recording = ChangeRecording.current else { return }
        recording.record(in: journal, .request(recording.line, table: table.name, version: table.version))
    }

    /// Claims room in the log for the current request's record of a change to the table called
    /// `name`, before the change is made; `not_saved` when the log has none.
    func claimRoom(forChangeTo name: String) throws(ResponseError) {
        guard let journal, let recording = ChangeRecording.current else { return }
        try recording.claim(StateRecord.requestSize(line: recording.line, table: name), in: journal)
    }

    /// Claims room in the log for the current request's record of a whole table (`image`).
    func claimRoom(forImage image: [UInt8]) throws(ResponseError) {
        guard let journal, let recording = ChangeRecording.current else { return }
        try recording.claim(StateRecord.tableSize(image: image), in: journal)
    }

    /// Gives back what the current request claimed and did not use.
    func releaseRoom() {
        guard let journal, let recording = ChangeRecording.current else { return }
        recording.releaseClaim(in: journal)
    }
}
