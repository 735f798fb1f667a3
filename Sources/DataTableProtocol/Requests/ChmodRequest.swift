import MemberwiseInit

/// `chmod`: change who may read and change a table: its mode, its group, or (root only) its
/// owner. Only the owner, root or the daemon's own user may. At least one of `mode`, `group`
/// and `owner` is needed (`invalid_params`).
@MemberwiseInit
public struct ChmodRequest: DataTableRequest {
    /// The method name on the wire: `"chmod"`.
    public static let method = "chmod"
    /// The line `help` shows for `chmod`.
    public static let summary = "Change a table's mode (who may read and change it), group or owner."

    /// The table to change; only its owner, root or the daemon's own user may (`permission_denied`).
    public var table: String
    /// Read and write bits for owner, group and others, as octal digits ("0640").
    public var mode: String?
    /// The table's new group id: the peer's primary group (root and the daemon's own user: any).
    public var group: Int?
    /// The table's new owner's user id (root and the daemon's own user only).
    public var owner: Int?

    /// The table's owner, group and mode as they are now.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version now: one more than before when anything changed, else the same.
        public var version: Int
        /// The owner's user id.
        public var owner: Int
        /// The table's group id.
        public var group: Int
        /// The mode as four octal digits ("0640").
        public var mode: String
    }
}
