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
/// Root and the daemon's own user may do anything to any table. So may a request with no peer:
/// one the daemon makes itself (a replay of its log, an in-process client).
struct Requester: Sendable, Hashable {
    var uid: UInt32
    var gid: UInt32
    var isPrivileged: Bool

    /// The daemon itself.
    static var daemon: Requester { Requester(uid: geteuid(), gid: getegid(), isPrivileged: true) }

    init(uid: UInt32, gid: UInt32, isPrivileged: Bool) {
        self.uid = uid
        self.gid = gid
        self.isPrivileged = isPrivileged
    }

    init(peer: PeerCredentials?) {
        guard let peer else {
            self = .daemon
            return
        }
        self.init(uid: peer.uid, gid: peer.gid, isPrivileged: FilePolicy.isPrivileged(peer))
    }

    /// Whether this requester may do `right` to a table with `access`. As with files, the
    /// owner's bits apply to the owner, the group's to the group's members, the rest to others.
    func may(_ right: TableRight, _ access: TableAccess) -> Bool {
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
        guard may(right, table.access) else { throw .permissionDenied(right, table: table.name) }
    }

    /// The access of a table this requester makes, with `mode`: owned by the requester and its group.
    func access(mode: UInt16) -> TableAccess {
        TableAccess(owner: uid, group: gid, mode: mode)
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

extension RequestContext {
    /// Who asks, for the tables' owners and modes to decide.
    var requester: Requester {
        isReplay ? .daemon : Requester(peer: connection.peer)
    }
}
