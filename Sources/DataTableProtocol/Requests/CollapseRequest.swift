import MemberwiseInit

/// `collapse`: hides the rows and nested groups of groups of the caller's view of a table,
/// leaving their headers (with their counts and aggregates): one group by its values, every
/// group of a level, or every group. The view keeps them collapsed by their values through
/// sorts, filter changes, edits that move rows and new rows; a group that empties and comes
/// back is still collapsed. `expand` undoes it.
@MemberwiseInit
public struct CollapseRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "collapse"
    /// The line `help` shows for the method.
    public static let summary =
        "Collapse groups of your view's sections (one by its values, a level, or all); they stay collapsed as rows change."

    /// The table the caller's view (with sections) looks at.
    public var table: String
    /// One group: its values, outermost first (a group of the second level gives two), each as
    /// its column takes it.
    public var group: [JSONValue]?
    /// Every group of a level: 0 for the outermost (`sections.columns[0]`), 1 for the next.
    public var level: Int?
    /// `true`: every group of every level.
    public var all: Bool?

    /// Names one group, a level, or all of them.
    public func validate() throws(ResponseError) {
        let given = [group != nil, level != nil, all != nil].filter { $0 }.count
        guard given == 1 else {
            throw .invalidParams("Name one group (group), a level (level), or all (all: true).", field: "params.group")
        }
        guard all != false else { throw .invalidParams("all is true or absent.", field: "params.all") }
    }

    /// The `result` of a `collapse` or `expand`.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The table's name.
        public var table: String
        /// How many of the view's groups are collapsed now.
        public var collapsed: Int
        /// How many rows the view shows now (rows under collapsed groups are not shown).
        public var shown: Int
    }
}

/// `expand`: shows again the rows and nested groups of collapsed groups of the caller's view:
/// one group by its values, every group of a level, or every group (as `collapse` names them).
@MemberwiseInit
public struct ExpandRequest: DataTableRequest {
    /// The `method` string on the wire.
    public static let method = "expand"
    /// The line `help` shows for the method.
    public static let summary = "Expand collapsed groups of your view's sections (one by its values, a level, or all)."

    /// The table the caller's view (with sections) looks at.
    public var table: String
    /// One group: its values, outermost first, each as its column takes it.
    public var group: [JSONValue]?
    /// Every group of a level: 0 for the outermost.
    public var level: Int?
    /// `true`: every group of every level.
    public var all: Bool?

    /// Names one group, a level, or all of them.
    public func validate() throws(ResponseError) {
        try CollapseRequest(table: table, group: group, level: level, all: all).validate()
    }

    /// The same reply as `collapse`.
    public typealias Response = CollapseRequest.Response
}
