import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking connection to the daemon for one request at a time: write a line, read the reply
/// line. Suits scripts and measurements where each round trip should be timed on its own.
public final class LineConnection {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    /// Why the connection failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Connects to the socket at `path`.
    public init(path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw Failure(description: "the socket path is too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "connect \(path): \(message)")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Sends `line` (a newline is added) and returns the next line that is a reply, skipping
    /// notifications (lines without an `id` member) such as `progress`.
    public func request(_ line: String) throws -> String {
        try send(line + "\n")
        while true {
            let reply = try readLine()
            if reply.contains("\"id\":") { return reply }
        }
    }

    private func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure(description: "write: \(String(cString: strerror(errno)))") }
            bytes = bytes.dropFirst(written)
        }
    }

    private func readLine() throws -> String {
        var searched = 0
        while true {
            if let newline = pending[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            searched = pending.count
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "the daemon closed the connection") }
            pending += chunk[..<count]
        }
    }
}
