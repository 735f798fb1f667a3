import Foundation
import Glibc

/// A datagram socket standing in for systemd's `NOTIFY_SOCKET`: collects what the daemon reports.
final class NotifySocket {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = try Self.bound(to: path)
    }

    /// A datagram descriptor bound to `path`; closed again on failure.
    private static func bound(to path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un.unix(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            throw UnixClient.Failure(description: "bind \(path): \(message)")
        }
        return descriptor
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// The next datagram, or `nil` if none comes within `timeout`.
    func receive(timeout: Duration = .seconds(10)) -> String? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeout.milliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Datagrams up to and including the first that holds `assignment` (like `READY=1`), or `nil`
    /// when it does not come within `timeout`.
    func receive(until assignment: String, timeout: Duration = .seconds(10)) -> [String]? {
        let deadline = ContinuousClock.now + timeout
        var seen: [String] = []
        while ContinuousClock.now < deadline {
            guard let message = receive(timeout: deadline - .now) else { return nil }
            seen.append(message)
            if message.split(separator: "\n").contains(Substring(assignment)) { return seen }
        }
        return nil
    }
}
