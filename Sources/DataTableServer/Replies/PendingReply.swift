import DataTableProtocol
import Foundation

/// A reply on its way out, which may have to wait until the change it acknowledges is in the
/// state directory's log.
///
/// A batch is one reply of several parts; each part that made a change waits for its record,
/// and when the log cannot be written those parts become `not_saved` errors.
public struct PendingReply: Sendable {
    /// The reply to one request.
    struct Part: Sendable {
        var line: Data
        /// The log record of the request's change, when it made one.
        var record: UInt64?
        /// The request's id, for a `not_saved` error in place of `line`.
        var id: RequestID
    }

    var parts: [Part]
    var isBatch = false

    init(parts: [Part], isBatch: Bool = false) {
        self.parts = parts
        self.isBatch = isBatch
    }

    /// A reply that waits for nothing.
    init(_ line: Data) {
        self.init(parts: [Part(line: line, id: .null)])
    }

    /// The last log record the reply waits for, if any.
    public var record: UInt64? { parts.compactMap(\.record).max() }

    /// The line to send once every change it acknowledges is in the log (`journal`), or `nil`
    /// when nothing is to be sent.
    public func settled(by journal: Journal?) async -> Data? {
        guard let journal, let record else { return line(unsaved: nil) }
        do {
            try await journal.waitUntilDurable(record)
            return line(unsaved: nil)
        } catch {
            return line(unsaved: error)
        }
    }

    /// The line to send (`nil` when nothing is to be sent), once the log holds every change it
    /// acknowledges or, with `unsaved`, once the log failed: then the parts that made a change
    /// become `not_saved` errors.
    public func line(unsaved: (any Error)?) -> Data? {
        guard !parts.isEmpty else { return nil }
        var parts = parts
        if let unsaved {
            for index in parts.indices where parts[index].record != nil {
                parts[index].line = ReplyEncoding.failure(id: parts[index].id, .notSaved("\(unsaved)"))
            }
        }
        guard isBatch else { return parts[0].line }
        var joined = Data("[".utf8)
        for (index, part) in parts.enumerated() {
            if index > 0 { joined.append(UInt8(ascii: ",")) }
            joined.append(part.line)
        }
        joined.append(UInt8(ascii: "]"))
        return joined
    }
}
