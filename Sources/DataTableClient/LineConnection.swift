import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking connection to the daemon for one request at a time: write a line, read the reply
/// line. Suits scripts and measurements where each round trip should be timed on its own.
public final class LineConnection {
    /// The socket, for `poll`.
    public let descriptor: Int32
    private var pending: [UInt8] = []
    /// The reply line ``request(_:)`` returned last, as it came.
    public private(set) var lastReplyLine: String?

    /// Whether a whole line is already read and waiting (``nextLine()`` returns it at once).
    public var hasBufferedLine: Bool { pending.contains(UInt8(ascii: "\n")) }

    /// Why the connection failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, for a person: the system's reason, or that the daemon closed the connection.
        public var description: String
    }

    /// Connects to the socket at `path`.
    public init(path: String) throws {
        do {
            descriptor = try UnixSocket.connect(path)
        } catch {
            throw Failure(description: error.description)
        }
    }

    deinit { close(descriptor) }

    /// Sends `line` (a newline is added) and returns the next line that is a reply, handing
    /// notifications that come first (`progress`, `chunk`) to `notified`, or skipping them.
    public func request(_ line: String, notified: ((String) throws -> Void)? = nil) throws -> String {
        try send(line + "\n")
        let reply = try nextReply(notified: notified)
        lastReplyLine = reply
        return reply
    }

    /// Whether `line` is a reply rather than a notification. The daemon writes members in
    /// sorted order, so a reply starts with its `error` or `id` (a batch's with `[`), and a
    /// notification, which has neither, with `jsonrpc`; text inside a notification's params
    /// cannot be mistaken for an id.
    public static func isReply(_ line: String) -> Bool {
        line.hasPrefix("[") || line.hasPrefix(#"{"id":"#) || line.hasPrefix(#"{"error":"#)
    }

    /// The next reply; notifications before it go to `notified`, or are skipped.
    public func nextReply(notified: ((String) throws -> Void)? = nil) throws -> String {
        while true {
            let line = try nextLine()
            if Self.isReply(line) { return line }
            try notified?(line)
        }
    }

    /// Sends `line` (a newline is added) without waiting for anything.
    public func send(line: String) throws {
        try send(line + "\n")
    }

    private func send(_ text: String) throws {
        do {
            try UnixSocket.writeAll(descriptor, Array(text.utf8))
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// One short conversation, as `socat` has it: sends `lines` (newlines are added), closes the
    /// sending side and returns every line the daemon sends until it closes the connection. It
    /// works for notifications (no reply) and batches alike.
    public func exchange(_ lines: [String]) throws -> [String] {
        try send(lines.map { $0 + "\n" }.joined())
        shutdown(descriptor, Int32(SHUT_WR))
        var received: [String] = []
        while let line = try nextLineUnlessClosed() { received.append(line) }
        return received
    }

    /// The next line the daemon sends (a reply or a notification), without its newline.
    public func nextLine() throws -> String {
        guard let line = try nextLineUnlessClosed() else {
            throw Failure(description: "the daemon closed the connection")
        }
        return line
    }

    /// The next line, or `nil` when the daemon closed the connection after the last whole one.
    private func nextLineUnlessClosed() throws -> String? {
        var searched = 0
        while true {
            if let newline = Self.newline(in: pending, from: searched) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            searched = pending.count
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { buffer throws(UnixSocket.Failure) in
                    try UnixSocket.read(descriptor, into: buffer)
                }
            } catch {
                throw Failure(description: "\(error)")
            }
            guard count > 0 else {
                guard pending.isEmpty else { throw Failure(description: "the daemon closed the connection mid-line") }
                return nil
            }
            pending += chunk[..<count]
        }
    }

    /// Where reads land, kept from read to read.
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// The index of the first newline in `bytes` at or after `start` (found with `memchr`: a
    /// reply may be tens of megabytes).
    private static func newline(in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes.withUnsafeBytes { buffer in
            memchr(buffer.baseAddress! + start, 0x0A, buffer.count - start).map {
                buffer.baseAddress!.distance(to: UnsafeRawPointer($0))
            }
        }
    }
}
