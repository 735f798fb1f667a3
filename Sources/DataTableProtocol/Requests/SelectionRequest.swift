import MemberwiseInit

/// `selection`: the ids of the selected rows, in the current order.
public struct SelectionRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "selection"
    /// The line `help` shows for the method.
    public static let summary = "List the ids of the selected rows in the current order."

    /// The table's name.
    public var table: String

    /// Params naming the table.
    public init(table: String) { self.table = table }

    /// The `result` of a `selection`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version the selection was read at.
        public var version: Int
        /// Rows selected.
        public var count: Int
        /// The selection mode: `none`, `single` or `multiple`.
        public var mode: RowSelectionMode
        /// The ids of the selected rows, in the current order.
        public var ids: [JSONValue]
    }
}
