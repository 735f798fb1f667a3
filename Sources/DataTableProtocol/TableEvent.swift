/// The params of an `event` notification: what changed in a subscribed table.
///
/// `previous` is the version before the first change the event reports and `version` the
/// version after the last, so a client that last saw version `previous` is up to date once it
/// applies the event; any other `previous` means events were missed (or coalesced past what the
/// client saw) and the client re-fetches. Bursts of one kind are coalesced into one event.
public struct TableEvent: Codable, Hashable, Sendable {
    /// What happened.
    public struct Kind: RawRepresentable, Codable, Hashable, Sendable, CaseIterable {
        /// The kind as sent in the event's `kind` member and named in `subscribe`'s `events`.
        public var rawValue: String
        /// The kind `rawValue`, known or not.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Rows were added (`ids`, `count`).
        public static let added = Kind(rawValue: "added")
        /// Cells were set by an edit, undo or redo (`ids`, `columns`, `count`).
        public static let edited = Kind(rawValue: "edited")
        /// Rows were deleted (`ids`, `count`).
        public static let deleted = Kind(rawValue: "deleted")
        /// The selection changed (`selected`).
        public static let selection = Kind(rawValue: "selection")
        /// The sort changed (`keys`).
        public static let sort = Kind(rawValue: "sort")
        /// Drafts were kept or cleared (`errors`).
        public static let drafts = Kind(rawValue: "drafts")
        /// The table was created or dropped, or its owner, group or mode changed (`change`).
        public static let schema = Kind(rawValue: "schema")
        /// The rows were swapped for a new set at once (`load` with `replace`): re-fetch what is
        /// shown (`count`: rows whose key is new; kept rows keep their ids).
        public static let replaced = Kind(rawValue: "replaced")
        /// The subscriber fell behind and the events from `previous` to `version` were not sent:
        /// re-fetch what is shown (`get`, `scroll`) at `version`; events go on from there. Sent
        /// whatever kinds were subscribed to.
        public static let resync = Kind(rawValue: "resync")
        /// An attached table's source went out of reach (`stale: true`: changes made there may
        /// not reach the table, and changes to it are refused) or came back (`stale: false`: the
        /// table has caught up with it); `change` says why.
        public static let source = Kind(rawValue: "source")

        /// The kinds `subscribe` takes (every one but ``resync``), in the order its reply lists them;
        /// the default subscription.
        public static let allCases: [Kind] = [
            .added, .edited, .deleted, .selection, .sort, .drafts, .schema, .replaced, .source,
        ]

        /// Decodes the kind from its string; an unknown one decodes as itself.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        /// Encodes the kind as its string.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    /// The most ids one event lists; past that only `count` says how many.
    public static let maximumIDs = 1000

    /// The name of the table that changed.
    public var table: String
    /// What happened; it says which of the optional members are set.
    public var kind: Kind
    /// The table's version after the last change the event reports.
    public var version: Int
    /// The table's version before the first change the event reports.
    public var previous: Int
    /// Rows in the table now.
    public var rows: Int
    /// Rows the event is about, when there are at most ``maximumIDs``.
    public var ids: [JSONValue]?
    /// How many rows the event is about.
    public var count: Int?
    /// `edited`: the columns set; `schema` (`altered`): the keys the change named.
    public var columns: [String]?
    /// `selection`: rows selected now.
    public var selected: Int?
    /// `sort`: the sort keys now.
    public var keys: [SortKeyParam]?
    /// `drafts` (and `edited`): cells holding a rejected draft now.
    public var errors: Int?
    /// `schema`: `created`, `dropped`, `access` (a `chmod`) or `altered` (an `alter`, or its undo
    /// or redo; `columns` names the keys).
    public var change: String?
    /// `source`: whether the table's source is out of reach now.
    public var stale: Bool?

    /// An event of `kind`; the members left `nil` are left out on the wire.
    public init(
        table: String,
        kind: Kind,
        version: Int,
        previous: Int,
        rows: Int,
        ids: [JSONValue]? = nil,
        count: Int? = nil,
        columns: [String]? = nil,
        selected: Int? = nil,
        keys: [SortKeyParam]? = nil,
        errors: Int? = nil,
        change: String? = nil,
        stale: Bool? = nil
    ) {
        self.table = table
        self.kind = kind
        self.version = version
        self.previous = previous
        self.rows = rows
        self.ids = ids
        self.count = count
        self.columns = columns
        self.selected = selected
        self.keys = keys
        self.errors = errors
        self.change = change
        self.stale = stale
    }

    /// Whether `next` (a later event of the same table) can be folded into this one.
    public func canAbsorb(_ next: TableEvent) -> Bool {
        next.table == table && next.kind == kind && kind != .schema && kind != .source && next.previous <= version
    }

    /// This event and a later one of the same kind as one: ids joined (up to ``maximumIDs``),
    /// counts added, the latest state kept.
    public mutating func absorb(_ next: TableEvent) {
        version = next.version
        rows = next.rows
        if let added = next.count { count = (count ?? 0) + added }
        if let mine = ids, let theirs = next.ids, mine.count + theirs.count <= Self.maximumIDs {
            ids = mine + theirs
        } else if ids != nil || next.ids != nil {
            ids = nil
        }
        if let theirs = next.columns {
            var merged = columns ?? []
            for column in theirs where !merged.contains(column) { merged.append(column) }
            columns = merged
        }
        selected = next.selected ?? selected
        keys = next.keys ?? keys
        errors = next.errors ?? errors
        change = next.change ?? change
    }
}
