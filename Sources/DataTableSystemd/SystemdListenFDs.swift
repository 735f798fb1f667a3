import CSystemd
import Glibc

/// Sockets systemd handed over (socket activation): `LISTEN_FDS`/`LISTEN_PID`, with names from
/// `LISTEN_FDNAMES` when present.
public enum SystemdListenFDs {
    /// One inherited descriptor.
    public struct Descriptor: Sendable, Hashable {
        /// The descriptor number: `SD_LISTEN_FDS_START` (3) for the first, then one up for each.
        public var fd: CInt
        /// `FileDescriptorName=` of the socket unit (the unit's name by default); `"unknown"` when
        /// systemd gave none.
        public var name: String
        /// Whether the descriptor is a listening Unix stream socket, the only kind served.
        public var isListeningUnixStream: Bool
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
            let name = names?[Int(offset)].map { String(cString: $0) } ?? "unknown"
            let listening = sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0
            return Descriptor(fd: fd, name: name, isListeningUnixStream: listening)
        }
    }
}
