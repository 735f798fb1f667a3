import DataTableProtocol
import Foundation

/// The reply to a line read while the daemon shuts down: every request in it that would be
/// answered is refused `shutting_down` and not carried out. A batch gets an array, one error per
/// request that is not a notification; a notification gets nothing; a request without
/// `"jsonrpc"` (shell mode) gets its error like any other.
enum ShutdownRefusal {
    /// The error each refused request gets.
    static let error = ResponseError(
        code: .unavailable,
        kind: .shuttingDown,
        message: "The daemon is shutting down and takes no new requests; this one was not carried out."
    )

    /// The reply to `line`, and how many requests it held.
    static func reply(to line: Data) -> (reply: PendingReply, requests: Int) {
        let first = line.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
        guard first == UInt8(ascii: "["), let ranges = EnvelopeScanner.elementRanges(line), !ranges.isEmpty else {
            return (PendingReply(parts: part(for: line).map { [$0] } ?? []), 1)
        }
        let parts = ranges.compactMap { range in
            part(for: line.subdata(in: (line.startIndex + range.lowerBound)..<(line.startIndex + range.upperBound)))
        }
        return (PendingReply(parts: parts, isBatch: true), ranges.count)
    }

    /// The refusal of one request, or `nil` for a notification.
    private static func part(for request: Data) -> PendingReply.Part? {
        let header = EnvelopeScanner.header(request)
        if header?.isNotification == true { return nil }
        let id =
            header.flatMap { header in
                header.id.flatMap(RequestID.init).map { header.exactID.map(RequestID.exact) ?? $0 }
            } ?? .null
        return PendingReply.Part(line: ReplyEncoding.failure(id: id, error), id: id)
    }
}
