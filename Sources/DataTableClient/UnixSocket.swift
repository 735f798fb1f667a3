import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Plain Unix-domain stream sockets, for clients that drive their own reads and writes.
public enum UnixSocket {
    /// Why a connection could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, for a person, like `connect PATH: No such file or directory`.
        public var description: String
        /// The system's error number.
        public var errno: Int32
    }

    /// A blocking descriptor connected to the socket at `path`; the caller closes it.
    public static func connect(_ path: String) throws(Failure) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw Failure(description: "socket: \(String(cString: strerror(errno)))", errno: errno)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw Failure(description: "the socket path is too long: \(path)", errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(description: "connect \(path): \(String(cString: strerror(code)))", errno: code)
        }
        return descriptor
    }

    /// Writes all of `bytes` to the socket `descriptor`: a daemon that closed its end is an
    /// error, not a SIGPIPE that ends the process, and a write a signal interrupted is retried.
    public static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                throw Failure(description: "write: \(String(cString: strerror(errno)))", errno: errno)
            }
            offset += written
        }
    }

    /// Reads what has arrived on `descriptor` into `buffer` (waiting for something); 0 at the end
    /// of the stream. A read a signal interrupted is retried.
    public static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw Failure(description: "read: \(String(cString: strerror(errno)))", errno: errno)
        }
    }
}
