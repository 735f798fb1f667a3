import MemberwiseInit

/// `watch`: the connection's view of a table (see `scroll`) made live. The reply is the window
/// as `scroll` gives it, with the watch's id; from then on the connection receives `window`
/// notifications (``WindowDelta``): what changed in the window since the last one, keyed by row
/// id, at most `maxRate` times a second and only while the client reads what it was sent. A
/// client that applies each delta to its copy of the window holds what a fresh `scroll` with
/// the same params would return at the delta's version (without `highlight`, which a watched
/// window does not carry).
///
/// `watch` again on the same table (or with the watch's id) moves or reshapes the window, as
/// `scroll` does, and answers with a delta from what the client holds (`delta`), or the whole
/// window when that is smaller.
@MemberwiseInit
public struct WatchRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "watch"
    /// The line `help` shows for the method.
    public static let summary = "Make this connection's view of a table live: its window now, then what changes in it."

    /// The most `window` notifications a second unless told (`maxRate`), and the range allowed.
    public static let defaultRate = 30
    public static let rates = 1...120

    /// The view to make live, as `scroll` takes it (table, viewport, to, overscan, follow,
    /// sections, layout settings).
    public var scroll: ScrollRequest
    /// The id of a watch of this connection to move or reshape; absent: the watch of this
    /// table, made when there is none.
    public var watch: Int?
    /// The most `window` notifications a second, 1 to 120 (default 30; absent keeps the
    /// watch's).
    public var maxRate: Int?
    /// While `true`, the window keeps its rows and their order: their cells still change, and
    /// rows added, removed or moved elsewhere are counted in `pending` and come in one delta
    /// when `false` again (absent keeps the watch's; a new watch is not frozen).
    public var freeze: Bool?

    private enum CodingKeys: String, CodingKey {
        case watch, maxRate, freeze
    }

    /// Reads the watch's own members and `scroll`'s from one params object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        watch = try container.decodeIfPresent(Int.self, forKey: .watch)
        maxRate = try container.decodeIfPresent(Int.self, forKey: .maxRate)
        freeze = try container.decodeIfPresent(Bool.self, forKey: .freeze)
        scroll = try ScrollRequest(from: decoder)
    }

    /// Writes the watch's own members and `scroll`'s side by side in one params object.
    public func encode(to encoder: any Encoder) throws {
        try scroll.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(watch, forKey: .watch)
        try container.encodeIfPresent(maxRate, forKey: .maxRate)
        try container.encodeIfPresent(freeze, forKey: .freeze)
    }

    public func validate() throws(ResponseError) {
        if let maxRate, !Self.rates.contains(maxRate) {
            throw .invalidParams(
                "maxRate must be from \(Self.rates.lowerBound) to \(Self.rates.upperBound) updates a second.",
                field: "params.maxRate"
            )
        }
    }

    /// The `result` of a `watch`: the window's members as `scroll` gives them, with `watch`
    /// (a new watch, or a reshape whose delta would be larger); or `watch` and `delta`, what
    /// changed in the window the client holds.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The watch's id on this connection.
        public var watch: Int
        /// The whole window, when the reply carries it: its members are the reply's.
        public var window: JSONValue?
        /// What changed in the window the client holds, when the reply carries that instead.
        public var delta: WindowDelta?

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        /// Reads `watch` and `delta`, or `watch` and the window's members.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            watch = try container.decode(Int.self, forKey: Key(stringValue: "watch"))
            delta = try container.decodeIfPresent(WindowDelta.self, forKey: Key(stringValue: "delta"))
            guard delta == nil else { return }
            var members: [String: JSONValue] = [:]
            for key in container.allKeys where key.stringValue != "watch" {
                members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            window = .object(members)
        }

        /// Writes `watch` and `delta`, or `watch` beside the window's members.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(watch, forKey: Key(stringValue: "watch"))
            try container.encodeIfPresent(delta, forKey: Key(stringValue: "delta"))
            for (key, value) in window?.objectMembers ?? [:] where key != "watch" {
                try container.encode(value, forKey: Key(stringValue: key))
            }
        }
    }
}

/// `unwatch`: ends a watch of this connection (by its id, or the watch of a table); closing the
/// connection ends them all. A watch that is not there (any more) is not an error.
public struct UnwatchRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "unwatch"
    /// The line `help` shows for the method.
    public static let summary = "End a watch: no more window notifications for it."

    /// The watch's id.
    public var watch: Int?
    /// Or the watched table.
    public var table: String?

    /// Params naming the watch or its table.
    public init(watch: Int? = nil, table: String? = nil) {
        self.watch = watch
        self.table = table
    }

    public func validate() throws(ResponseError) {
        guard (watch == nil) != (table == nil) else {
            throw .invalidParams("Name the watch by its id or by its table (one of them).", field: "params.watch")
        }
    }

    /// The `result` of an `unwatch`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The watch's id; absent when the connection had no such watch.
        public var watch: Int?
        /// Whether a watch ended (`false`: there was none to end, which is not an error).
        public var ended: Bool
    }
}
