/// `subscribe`: events for one table on this connection, as notifications
/// `{"jsonrpc":"2.0","method":"event","params":{…}}` (``TableEvent``) — rows added, edited or
/// deleted, selection, sort, drafts, and the table's creation or removal. Subscribing again
/// replaces the kinds asked for.
public struct SubscribeRequest: DataTableRequest {
    public static let method = "subscribe"
    public static let summary =
        "Receive events (rows added/edited/deleted, selection, sort, drafts, schema) for a table."

    public var table: String
    /// The kinds of event wanted (``TableEvent/Kind``); absent means all.
    public var events: [String]?

    public init(table: String, events: [String]? = nil) {
        self.table = table
        self.events = events
    }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        /// The version events continue from.
        public var version: Int
        public var subscribed: Bool
        public var events: [String]

        public init(table: String, version: Int, subscribed: Bool, events: [String]) {
            self.table = table
            self.version = version
            self.subscribed = subscribed
            self.events = events
        }
    }
}

/// `unsubscribe`: no more events for a table on this connection.
public struct UnsubscribeRequest: DataTableRequest {
    public static let method = "unsubscribe"
    public static let summary = "Stop receiving a table's events."

    public var table: String

    public init(table: String) { self.table = table }

    public struct Response: Codable, Hashable, Sendable {
        public var table: String
        /// Whether the connection was subscribed.
        public var subscribed: Bool

        public init(table: String, subscribed: Bool) {
            self.table = table
            self.subscribed = subscribed
        }
    }
}
