import Foundation

/// Which peers the daemon serves: everyone, or only the users and groups listed (`--allow-uid`,
/// `--allow-group`). A peer is admitted when its user id is listed, or its primary group, or
/// one of its supplementary groups (read from `/proc/PID/status` while the peer runs).
public struct PeerPolicy: Sendable, Hashable {
    /// The user ids served (`--allow-uid`).
    public var uids: Set<UInt32>
    /// The group ids served, as a peer's primary or supplementary group (`--allow-group`).
    public var gids: Set<UInt32>

    /// A policy serving the users and groups listed; with neither, every peer is served.
    public init(uids: Set<UInt32> = [], gids: Set<UInt32> = []) {
        self.uids = uids
        self.gids = gids
    }

    /// Whether every peer is served.
    public var admitsEveryone: Bool { uids.isEmpty && gids.isEmpty }

    /// Whether `peer` is served; a peer the kernel did not describe is not, unless everyone is.
    public func admits(_ peer: PeerCredentials?) -> Bool {
        if admitsEveryone { return true }
        guard let peer else { return false }
        if uids.contains(peer.uid) || gids.contains(peer.gid) { return true }
        return !gids.isDisjoint(with: Self.supplementaryGroups(of: peer.pid))
    }

    /// The supplementary groups of process `pid`; none when its status cannot be read.
    static func supplementaryGroups(of pid: Int32) -> Set<UInt32> {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return [] }
        return groups(inStatus: status)
    }

    /// The groups on the `Groups:` line of a `/proc/PID/status` text.
    static func groups(inStatus status: String) -> Set<UInt32> {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Groups:") }) else { return [] }
        return Set(line.dropFirst("Groups:".count).split(whereSeparator: \.isWhitespace).compactMap { UInt32($0) })
    }
}
