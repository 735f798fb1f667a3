import MemberwiseInit

/// `subscribe`: events for one table on this connection, as notifications
/// `{"jsonrpc":"2.0","method":"event","params":{…}}` (``TableEvent``) — rows added, edited or
/// deleted, selection, sort, drafts, and the table's creation or removal. Subscribing again
/// replaces the kinds asked for.
@MemberwiseInit
public struct SubscribeRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "subscribe"
    /// The line `help` shows for the method.
    public static let summary =
        "Receive events (rows added/edited/deleted, selection, sort, drafts, schema) for a table."

    /// The table whose events to send; it must exist and the peer must be allowed to read it.
    public var table: String
    /// The kinds of event wanted (``TableEvent/Kind``); absent means all.
    public var events: [TableEvent.Kind]?

    private enum CodingKeys: String, CodingKey {
        case table, events
    }

    /// Reads `table` and `events`; a kind `subscribe` does not take (one not in
    /// ``TableEvent/Kind/allCases``) is `invalid_params` naming its place (`params.events[1]`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        table = try container.decode(String.self, forKey: .table)
        events = try container.decodeIfPresent([Subscribable].self, forKey: .events)?.map(\.kind)
    }

    /// A kind of event `subscribe` takes.
    private struct Subscribable: Decodable {
        var kind: TableEvent.Kind

        init(from decoder: any Decoder) throws {
            kind = try TableEvent.Kind(from: decoder)
            guard TableEvent.Kind.allCases.contains(kind) else {
                throw UnknownChoice(name: kind.rawValue, codingPath: decoder.codingPath, kind: .invalidParams) {
                    _,
                    field in
                    let place = field.hasPrefix("params.") ? field.dropFirst("params.".count) : Substring(field)
                    let names = TableEvent.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                    return "\(place) must be one of \(names)."
                }
            }
        }
    }

    /// The `result` of a `subscribe`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The version events continue from.
        public var version: Int
        /// Always `true`.
        public var subscribed: Bool
        /// The kinds now sent, in the order `added`, `edited`, `deleted`, `selection`, `sort`, `drafts`, `schema`.
        public var events: [TableEvent.Kind]
    }
}

/// `unsubscribe`: no more events for a table on this connection.
public struct UnsubscribeRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "unsubscribe"
    /// The line `help` shows for the method.
    public static let summary = "Stop receiving a table's events."

    /// The table whose events to stop; one that does not exist (any more) is not an error.
    public var table: String

    /// Params naming the table.
    public init(table: String) { self.table = table }

    /// The `result` of an `unsubscribe`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name, as given.
        public var table: String
        /// Whether the connection was subscribed.
        public var subscribed: Bool
    }
}
