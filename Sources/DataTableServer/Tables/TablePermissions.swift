import DataTableEngine
import DataTableProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// What a request does to a table, as its access decides.
enum TableRight: Sendable {
    /// `get`, `scroll`, `layout`, `export`, `describe`, `selection`, `subscribe`.
    case read
    /// Every change to rows, order, selection or drafts.
    case write
    /// `drop` and `chmod`: only the owner (or root, or the daemon's own user).
    case own

    var verb: String {
        switch self {
        case .read: "read"
        case .write: "change"
        case .own: "act as the owner of"
        }
    }
}

/// Who asks, as a table's owner and mode see it: the peer's user and group as the kernel
/// reported them when it connected (`SO_PEERCRED`).
///
/// Root and the daemon's own user may do anything to any table; so may the daemon itself when
/// it replays its log. A connection whose peer the kernel did not describe (a transport with no
/// `SO_PEERCRED`, a peer gone before it was asked) may do nothing to any table: it is nobody,
/// not the daemon, so no bridge or harness can reach more than the user it speaks for.
struct Requester: Sendable, Hashable {
    var uid: UInt32
    var gid: UInt32
    var isPrivileged: Bool
    /// Whether the kernel said who this is; an unidentified requester has no rights at all.
    var isIdentified: Bool

    /// The daemon itself, replaying what it did.
    static var daemon: Requester { Requester(uid: geteuid(), gid: getegid(), isPrivileged: true) }

    /// A peer no one could identify: user and group `(uid_t)-1`, which no table is owned by.
    static var unidentified: Requester {
        Requester(uid: .max, gid: .max, isPrivileged: false, isIdentified: false)
    }

    init(uid: UInt32, gid: UInt32, isPrivileged: Bool, isIdentified: Bool = true) {
        self.uid = uid
        self.gid = gid
        self.isPrivileged = isPrivileged
        self.isIdentified = isIdentified
    }

    init(peer: PeerCredentials?) {
        guard let peer else {
            self = .unidentified
            return
        }
        self.init(uid: peer.uid, gid: peer.gid, isPrivileged: FilePolicy.isPrivileged(peer))
    }

    /// Whether this requester may do `right` to a table with `access`. As with files, the
    /// owner's bits apply to the owner, the group's to the group's members, the rest to others;
    /// an unidentified requester is not even one of the others.
    func may(_ right: TableRight, _ access: TableAccess) -> Bool {
        guard isIdentified else { return false }
        if isPrivileged { return true }
        let bit: UInt16
        switch right {
        case .own: return uid == access.owner
        case .read: bit = 0o4
        case .write: bit = 0o2
        }
        if uid == access.owner { return access.mode & (bit << 6) != 0 }
        if gid == access.group { return access.mode & (bit << 3) != 0 }
        return access.mode & bit != 0
    }

    /// Refuses with `permission_denied` unless this requester may do `right` to `table`.
    func check(_ right: TableRight, _ table: borrowing Table) throws(ResponseError) {
        guard isIdentified else { throw .unidentifiedPeer(table: table.name) }
        guard may(right, table.access) else { throw .permissionDenied(right, table: table.name) }
    }

    /// The access of a table this requester makes, with `mode`: owned by the requester and its
    /// group. An unidentified requester makes no tables: there is no one to own them.
    func access(mode: UInt16) throws(ResponseError) -> TableAccess {
        guard isIdentified else { throw .unidentifiedPeer(table: nil) }
        return TableAccess(owner: uid, group: gid, mode: mode)
    }
}

extension ResponseError {
    /// A `permission_denied` refusal to do `right` to `table`. It names the table (which the
    /// client named) and nothing of its contents.
    static func permissionDenied(_ right: TableRight, table: String) -> ResponseError {
        let how =
            right == .own
            ? "only its owner or root may"
            : "its owner and mode do not let you (see describe, or ask its owner to chmod it)"
        return ResponseError(
            code: .permissionDenied,
            kind: .permissionDenied,
            message: "You may not \(right.verb) the table \(table): \(how).",
            details: ["table": .string(table)]
        )
    }
}

extension ResponseError {
    /// A `permission_denied` refusal of anything to do with tables, for a connection whose peer
    /// the kernel did not describe.
    static func unidentifiedPeer(table: String?) -> ResponseError {
        ResponseError(
            code: .permissionDenied,
            kind: .permissionDenied,
            message: "The daemon could not learn which user is at the other end of this connection, "
                + "so it may not read or change any table; connect through the daemon's Unix socket.",
            details: table.map { ["table": .string($0)] } ?? [:]
        )
    }
}

extension RequestContext {
    /// Who asks, for the tables' owners and modes to decide.
    var requester: Requester {
        isReplay ? .daemon : Requester(peer: connection.peer)
    }
}
