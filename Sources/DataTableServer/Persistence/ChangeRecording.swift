import DataTableEngine
import DataTableProtocol
import Foundation
import Synchronization

/// The request being answered, as the log would record it: made by the dispatcher for each
/// request when the daemon keeps a state directory, and carried in the request's context
/// (``RequestContext/recording``) to whatever changes a table for it (``TableWriter``).
///
/// Before a request changes a table it claims room in the log for its record (``claim(_:)``):
/// when the log has none, the request is refused and changes nothing. Once it changed a table,
/// ``TableWriter/update(_:by:needing:ifVersion:_:)`` appends its record (the catalog's own
/// changes, a table created or dropped, append theirs where they are made), inside the table's
/// lock, so the log holds each table's changes in the order they were made; the dispatcher then
/// waits for that record before it replies.
final class ChangeRecording: Sendable {
    /// The request line, the record when the request noted no change of its own.
    let line: Data
    /// The log the record goes to.
    let journal: Journal

    private struct Progress {
        /// The log record of the request's change, once it made one.
        var sequence: UInt64?
        /// Bytes of log claimed for the record and not used yet.
        var claimed = 0
        /// What the request's change did, once the request said (``TableWriter/note(_:for:)``);
        /// without it the request line is the record.
        var change: [UInt8]?
        /// How long the change took to make, so far: about what replaying it will take.
        var work = Duration.zero
    }

    private let progress = Mutex(Progress())

    /// The recording of the request `line`, for `journal`.
    init(line: Data, journal: Journal) {
        self.line = line
        self.journal = journal
    }

    /// The log record of this request's change, once it made one.
    var recorded: UInt64? { progress.withLock { $0.sequence } }

    /// What the request's change did, in ``TableChange``'s binary form, once noted.
    var change: [UInt8]? {
        get { progress.withLock { $0.change } }
        set { progress.withLock { $0.change = newValue } }
    }

    /// Makes sure the log has room for a record of `bytes` of this request, before its change is
    /// made; `not_saved` (the change must not be made) when it has not.
    func claim(_ bytes: Int) throws(ResponseError) {
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
    func releaseClaim() {
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
    func record(_ record: @autoclosure () -> StateRecord) {
        progress.withLock { progress in
            guard progress.sequence == nil else { return }
            progress.sequence = journal.append(record(), claimed: progress.claimed, work: progress.work)
            progress.claimed = 0
        }
    }
}

extension TableWriter {
    /// Records the request's change to `table` (as it is after the change) in the log, if it is
    /// recorded: what the change did, when the request noted it (``note(_:for:)``), else the
    /// request line. Call it while holding the table's lock, right where the change is made.
    func recordChange(of table: Table) {
        guard let recording else { return }
        if let change = recording.change {
            recording.record(.change(change[...], table: table.name, version: table.version))
        } else {
            recording.record(.request(recording.line, table: table.name, version: table.version))
        }
    }

    /// Claims room in the log for the request's record of a change to the table called `name`,
    /// before the change is made; `not_saved` when the log has none.
    func claimRoom(forChangeTo name: String) throws(ResponseError) {
        guard let recording else { return }
        let size =
            recording.change.map { StateRecord.changeSize(bytes: $0.count, table: name) }
            ?? StateRecord.requestSize(line: recording.line, table: name)
        try recording.claim(size)
    }

    /// Notes `change` as what the request does to the table called `name`: the log keeps it in
    /// place of the request line. Room for it is claimed where the change is made
    /// (``claimRoom(forChangeTo:)``); note a change before handing it to
    /// ``updateOffLock(_:by:ifVersion:work:install:)``.
    func note(_ change: TableChange, for name: String) {
        guard let recording else { return }
        recording.change = change.encoded(coder: TableImageCoding.columnCoder)
    }

    /// Makes `change` to `table`, under its lock (inside ``update(_:by:needing:ifVersion:_:)``):
    /// notes it for the log and claims room for its record, then applies it. Refused
    /// `not_saved`, changing nothing, when the log has no room.
    func make(_ change: TableChange, to table: inout Table, now: Double = 0) throws -> ChangeOutcome {
        note(change, for: table.name)
        try claimRoom(forChangeTo: table.name)
        return try table.apply(change, now: now)
    }

    /// Claims room in the log for the request's record of a whole table (`image`).
    func claimRoom(forImage image: [UInt8]) throws(ResponseError) {
        try recording?.claim(StateRecord.tableSize(image: image))
    }

    /// Records a whole table (its image encoded off the lock) in the log in place of the
    /// request: for changes whose request could not be replayed (a `load` reads a file that may
    /// change). Call it under the table's lock (or the directory's, for a new table).
    func recordWhole(image: [UInt8]) {
        recording?.record(.table(image[...]))
    }

    /// Gives back what the request claimed and did not use.
    func releaseRoom() {
        recording?.releaseClaim()
    }
}
