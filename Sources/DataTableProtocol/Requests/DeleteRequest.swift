import MemberwiseInit

/// `delete`: remove rows by `ids`, or the selected rows (`selection: true`). All or nothing.
@MemberwiseInit
public struct DeleteRequest: DataTableRequest {
    /// The method name on the wire: `"delete"`.
    public static let method = "delete"
    /// The line `help` shows for `delete`.
    public static let summary = "Delete rows by id or the selected rows."

    /// The table to delete from; the peer needs write (`permission_denied`).
    public var table: String
    /// Ids of the rows to delete (whole numbers or strings); an unknown id refuses the whole
    /// request (`no_such_row`).
    public var ids: [JSONValue]?
    /// `true` deletes the selected rows; give `ids` or `selection: true`, exactly one
    /// (`invalid_params`).
    public var selection: Bool?
    /// Only if the table is still at this version (the `version` of the reply or event the
    /// client last saw): otherwise `conflict`, with the table's version in
    /// `data.version`, and nothing changes.
    public var ifVersion: Int?
    /// With `selection`: delete only the selected rows this connection's view shows (`filter`).
    public var view: Bool?

    /// How many rows went and how many are left.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version after the delete; unchanged when no row went.
        public var version: Int
        /// Rows deleted (an id given twice counts once).
        public var deleted: Int
        /// Rows left.
        public var rows: Int
    }
}
