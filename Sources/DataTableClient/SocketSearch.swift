import DataTableProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Finds the daemon a client should talk to when no socket is named: the first of
/// ``SocketLocation/clientPaths(environment:uid:)`` that accepts a connection (the user's own
/// daemon, else the system service).
public enum SocketSearch {
    /// No socket tried accepted a connection; says each path tried and why.
    public struct Unreachable: Error, CustomStringConvertible {
        /// Each path tried, with the system's reason it could not be reached.
        public var tried: [(path: String, reason: String)]

        public var description: String {
            if tried.count == 1, let only = tried.first {
                return "Cannot reach datatabled at \(only.path): \(only.reason)."
            }
            let list = tried.map { "\($0.path) (\($0.reason))" }.joined(separator: ", ")
            return """
                Cannot reach datatabled: tried \(list). Start one with `datatabled`, or name its socket \
                with --socket or $\(SocketLocation.environmentVariable).
                """
        }
    }

    /// The first of `paths` that accepts a connection; a path whose socket refuses this user
    /// says which group the socket admits.
    public static func firstReachable(_ paths: [String]) throws(Unreachable) -> String {
        var tried: [(path: String, reason: String)] = []
        for path in paths {
            do {
                let descriptor = try UnixSocket.connect(path)
                close(descriptor)
                return path
            } catch {
                tried.append((path, reason(path, errno: error.errno)))
            }
        }
        throw Unreachable(tried: tried)
    }

    private static func reason(_ path: String, errno code: Int32) -> String {
        let text = String(cString: strerror(code))
        guard code == EACCES else { return text }
        var status = stat()
        guard stat(path, &status) == 0, let group = getgrgid(status.st_gid) else { return text }
        return "\(text); it admits members of the group \(String(cString: group.pointee.gr_name))"
    }
}
