import DataTableEngine
import Foundation
import Synchronization

/// The request being answered, as the log would record it: set by the dispatcher around each
/// request when the daemon keeps a state directory.
///
/// The first change a request makes (its first event, see ``ServerState/publish(_:_:from:_:)``)
/// appends the request line to the log, inside the table's lock, so the log holds each table's changes in
/// the order they were made; the dispatcher then waits for that record before it replies.
final class ChangeRecording: Sendable {
    /// The request being answered on this task, if its changes are to be recorded.
    @TaskLocal static var current: ChangeRecording?

    let line: Data
    private let sequence = Mutex<UInt64?>(nil)

    init(line: Data) {
        self.line = line
    }

    /// The log record of this request's change, once it made one.
    var recorded: UInt64? { sequence.withLock { $0 } }

    /// Appends `record` unless this request was recorded already.
    func record(in journal: Journal, _ record: @autoclosure () -> StateRecord) {
        sequence.withLock { sequence in
            guard sequence == nil else { return }
            sequence = journal.append(record())
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
}
