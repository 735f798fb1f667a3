/// `clear`: remove every row of a table as one change, keeping its columns, sort and owner
/// (Perspective's `clear`, for a table about to be filled again).
public struct ClearRequest: DataTableRequest {
    /// The method name on the wire: `"clear"`.
    public static let method = "clear"
    /// The line `help` shows for `clear`.
    public static let summary = "Remove every row of a table, keeping its columns."

    /// The table to clear; the peer needs write (`permission_denied`).
    public var table: String
    /// Only if the table is still at this version (the `version` of the reply or event the
    /// client last saw): otherwise `conflict`, with the table's version in
    /// `data.version`, and nothing changes.
    public var ifVersion: Int?

    /// Params naming the table.
    public init(table: String, ifVersion: Int? = nil) {
        self.table = table
        self.ifVersion = ifVersion
    }

    /// How many rows went, and how many are left (0): the reply `delete` gives.
    public typealias Response = DeleteRequest.Response
}
