import CSystemd
import Glibc

/// Sockets systemd handed over (socket activation): `LISTEN_FDS`/`LISTEN_PID`, with names from
/// `LISTEN_FDNAMES` when present.
public enum SystemdListenFDs {
    /// One inherited descriptor.
    public struct Descriptor: Sendable, Hashable {
        /// The descriptor number: `SD_LISTEN_FDS_START` (3) for the first, then one up for each.
        public var fd: CInt
        /// `FileDescriptorName=` of the socket unit (the unit's name by default); `nil` when the
        /// activator gave none (`systemd-socket-activate` without `--fdname`).
        public var name: String?
        /// The path the socket is bound to, for a Unix socket bound to one.
        public var path: String?
        /// Whether the descriptor is a listening Unix stream socket, the only kind served.
        public var isListeningUnixStream: Bool

        /// How logs name it: its name and path, as far as they are known.
        public var label: String {
            let parts = [name, path].compactMap { $0 }
            return parts.isEmpty ? "unnamed" : parts.joined(separator: ", ")
        }
    }

    /// Takes the descriptors passed to this process and clears the `LISTEN_*` variables so
    /// children do not inherit them. Empty when the process was not socket-activated.
    public static func take() -> [Descriptor] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(1, &names)
        guard count > 0 else { return [] }
        defer {
            if let names {
                for index in 0..<Int(count) { free(names[index]) }
                free(names)
            }
        }
        return (0..<count).map { offset in
            let fd = SD_LISTEN_FDS_START + offset
            // sd_listen_fds_with_names says "unknown" for a socket the activator did not name.
            let name = names?[Int(offset)].map { String(cString: $0) }.flatMap { $0 == "unknown" ? nil : $0 }
            let listening = sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0
            return Descriptor(fd: fd, name: name, path: boundPath(fd), isListeningUnixStream: listening)
        }
    }

    /// The path a Unix socket is bound to; `nil` for another kind, or an abstract or unbound one.
    static func boundPath(_ fd: CInt) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let path = withUnsafeBytes(of: &address.sun_path) { bytes -> String in
            let used = bytes.prefix(max(0, Int(length) - MemoryLayout<sa_family_t>.size))
            return String(decoding: used.prefix { $0 != 0 }, as: UTF8.self)
        }
        return path.isEmpty ? nil : path
    }
}
