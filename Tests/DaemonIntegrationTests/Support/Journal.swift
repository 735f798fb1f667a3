import Foundation
import Glibc
import Testing

/// Entries the journal holds for `pid`, as `journalctl -o json` prints them.
func journalEntries(pid: Int32) throws -> [[String: Any]] {
    let journalctl = try #require(which("journalctl"))
    let result = try run(journalctl, ["-o", "json", "--no-pager", "SYSLOG_IDENTIFIER=datatabled", "_PID=\(pid)"])
    return result.output.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
}

/// Whether a journald listens on its socket; a socket file left by a journald that is gone does not count.
func journaldAnswers() -> Bool {
    let probe = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    guard probe >= 0 else { return false }
    defer { close(probe) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
        for (index, byte) in "/run/systemd/journal/socket".utf8.enumerated() { bytes[index] = byte }
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
        }
    }
}
