/// `selection`: the ids of the selected rows, in the current order.
public struct SelectionRequest: DataTableRequest {
    public static let method = "selection"
    public static let summary = "List the ids of the selected rows in the current order."

    public var table: String

    public init(table: String) { self.table = table }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        public var version: Int
        public var count: Int
        public var mode: String
        public var ids: [JSONValue]

        public init(table: String, version: Int, count: Int, mode: String, ids: [JSONValue]) {
            self.table = table
            self.version = version
            self.count = count
            self.mode = mode
            self.ids = ids
        }
    }
}
