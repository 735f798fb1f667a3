import MemberwiseInit

/// `filter`: narrow this connection's view of a table to the rows that meet conditions and
/// contain a search text; the view's `scroll` then shows only them.
@MemberwiseInit
public struct FilterRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "filter"
    /// The line `help` shows for the method.
    public static let summary =
        "Narrow this connection's view of a table to rows meeting conditions and containing a search text."

    /// The table's name.
    public var table: String
    /// The terms, every one of which a row must meet: conditions, or groups of them
    /// (`{"any": [...]}`, `{"all": [...]}`, `{"not": term}`, nested up to 8 deep); replaces the
    /// view's. An empty list clears them; absent keeps them.
    public var `where`: [FilterTermParam]?
    /// Text that the display text of one of the row's cells must contain, ignoring case;
    /// replaces the view's. Empty clears it; absent keeps it.
    public var search: String?

    /// The `result` of a `filter`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// The table's version (a filter changes no data).
        public var version: Int
        /// Rows in the table.
        public var total: Int
        /// Rows the view shows now.
        public var shown: Int
        /// The view's terms, as set.
        public var `where`: [FilterTermParam]
        /// The view's search text; empty for none.
        public var search: String
        /// The filter in words for a filter feedback bar ("qty ≥ 100 · rack is A1 or B2"); empty
        /// when the view shows every row.
        public var filter: String
        /// What the view lost since it last heard, before this filter was set: conditions and
        /// sections on columns dropped meanwhile.
        public var lost: ViewLost?
    }
}

/// One condition of a `filter`: a column, an operator and the values it compares with, read as
/// the column's type (numbers as numbers, dates as days).
@MemberwiseInit
public struct FilterConditionParam: Codable, Hashable, Sendable {
    /// The column's key.
    public var column: String
    /// `=`, `≠`, `<`, `≤`, `>`, `≥` (or `==`, `!=`, `<=`, `>=`), `between`, `in`, `contains`,
    /// `startsWith`, `matches`, `empty`, `notEmpty`.
    public var op: FilterOp
    /// The value compared with, for every operator but `between`, `in`, `empty` and `notEmpty`.
    public var value: JSONValue?
    /// The values: two for `between` (lowest first, both included), one or more for `in`.
    public var values: [JSONValue]?
}

/// One term of a `filter`'s `where`: a condition (`{"column": …, "op": …, "value": …}`), or a
/// group — `{"any": [terms]}` (at least one holds), `{"all": [terms]}` (every one holds),
/// `{"not": term}` (it does not hold) — alone in its object.
public indirect enum FilterTermParam: Codable, Hashable, Sendable {
    case condition(FilterConditionParam)
    case any([FilterTermParam])
    case all([FilterTermParam])
    case not(FilterTermParam)

    private enum GroupKeys: String, CodingKey, CaseIterable {
        case any, all, not
    }

    public init(from decoder: any Decoder) throws {
        let groups = try decoder.container(keyedBy: GroupKeys.self)
        let present = GroupKeys.allCases.filter(groups.contains)
        guard let group = present.first else {
            self = .condition(try FilterConditionParam(from: decoder))
            return
        }
        let members = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        guard members.count == 1 else {
            let others = members.filter { $0 != group.rawValue }.sorted().joined(separator: ", ")
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a group (\(group.rawValue)) stands alone in its object; \(others) belong in a "
                        + "condition of its own."
                )
            )
        }
        switch group {
        case .any: self = .any(try groups.decode([FilterTermParam].self, forKey: .any))
        case .all: self = .all(try groups.decode([FilterTermParam].self, forKey: .all))
        case .not: self = .not(try groups.decode(FilterTermParam.self, forKey: .not))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .condition(let condition): try condition.encode(to: encoder)
        case .any(let terms):
            var container = encoder.container(keyedBy: GroupKeys.self)
            try container.encode(terms, forKey: .any)
        case .all(let terms):
            var container = encoder.container(keyedBy: GroupKeys.self)
            try container.encode(terms, forKey: .all)
        case .not(let term):
            var container = encoder.container(keyedBy: GroupKeys.self)
            try container.encode(term, forKey: .not)
        }
    }

    /// Whether the term reads the column `key`, in any of its conditions.
    public func reads(_ key: String) -> Bool { columnKeys.contains(key) }

    /// The condition `column` `op` `value` (or `values`) as a term.
    public static func condition(
        column: String,
        op: FilterOp,
        value: JSONValue? = nil,
        values: [JSONValue]? = nil
    ) -> FilterTermParam {
        .condition(FilterConditionParam(column: column, op: op, value: value, values: values))
    }

    /// The keys of the columns its conditions read, in the order they appear.
    public var columnKeys: [String] {
        switch self {
        case .condition(let condition): [condition.column]
        case .any(let terms), .all(let terms): terms.flatMap(\.columnKeys)
        case .not(let term): term.columnKeys
        }
    }

    /// Any member name, for reading which members an object has.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue _: Int) { nil }
    }
}

/// What a connection's view lost since it last heard: the owner (or anyone allowed) dropped
/// columns it filtered or grouped by (`alter`, or an `undo` or `redo` that takes a column out).
/// Such a change is never held up by a view: the view loses that part, and its next `scroll` or
/// `filter` reply says so in `lost`, once.
public struct ViewLost: Codable, Hashable, Sendable {
    /// The dropped columns' keys.
    public var columns: [String]
    /// The view's terms that went with them (those that read a dropped column), as the view
    /// had set them; absent when none.
    public var `where`: [FilterTermParam]?
    /// The column the view's sections were by, when they went.
    public var sections: String?

    /// What was lost.
    public init(columns: [String], where conditions: [FilterTermParam]? = nil, sections: String? = nil) {
        self.columns = columns
        self.where = conditions
        self.sections = sections
    }
}
