import DataTableClient
import Foundation
import Glibc

/// A plain blocking Unix-socket client, so tests control every byte and every close.
final class UnixClient {
    let descriptor: Int32
    private var pending: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to `path`.
    init(path: String) throws {
        descriptor = try Self.connected(to: path)
    }

    /// A descriptor connected to `path`.
    private static func connected(to path: String) throws -> Int32 {
        do {
            return try UnixSocket.connect(path)
        } catch {
            throw Failure(description: error.description)
        }
    }

    deinit { close(descriptor) }

    /// Writes all of `text`.
    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Closes the sending side, as socat does at the end of its input.
    func shutdownWrite() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// The next line without its newline; `nil` at end of stream. Fails after `timeout`.
    func readLine(timeout: Duration = .seconds(10)) throws -> String? {
        let deadline = ContinuousClock.now + timeout
        // Where the search for a newline goes on from: a reply of megabytes arrives in many
        // reads, and only the bytes new since the last search are looked at.
        var searched = 0
        while true {
            if let newline = pending[searched...].firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            searched = pending.count
            guard try fill(until: deadline) else {
                guard pending.isEmpty else {
                    let start = String(decoding: pending.prefix(200), as: UTF8.self)
                    throw Failure(description: "stream ended inside a line of \(pending.count) bytes: \(start)…")
                }
                return nil
            }
        }
    }

    /// Whether something can be read now without waiting (a reply, or the end of the stream).
    var hasInput: Bool {
        if pending.contains(0x0A) { return true }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }

    /// Every remaining line until the daemon closes.
    func readAll(timeout: Duration = .seconds(10)) throws -> [String] {
        var lines: [String] = []
        while let line = try readLine(timeout: timeout) { lines.append(line) }
        return lines
    }

    /// Reads more bytes; `false` at end of stream.
    private func fill(until deadline: ContinuousClock.Instant) throws -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, (deadline - .now).milliseconds)
        guard ready > 0 else { throw Failure(description: "no reply within the time allowed") }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
        if count < 0 {
            if errno == ECONNRESET { return false }
            throw Failure(description: "recv: \(String(cString: strerror(errno)))")
        }
        guard count > 0 else { return false }
        pending.append(contentsOf: chunk[..<count])
        return true
    }
}

extension Duration {
    /// Whole milliseconds, at least 0, for poll(2).
    var milliseconds: Int32 {
        Int32(max(0, components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000))
    }
}

extension sockaddr_un {
    /// The address of the socket at `path`.
    static func unix(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
        }
        return address
    }
}
