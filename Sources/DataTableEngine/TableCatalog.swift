/// The set of tables the daemon holds, by name.
///
/// The engine is pure: it owns data and answers questions about it, and never touches a socket,
/// a file or a clock. Whoever holds a catalog decides how access to it is serialised.
public struct TableCatalog: Sendable {
    /// Table names in the order they were created.
    public private(set) var tableNames: [String] = []
    private var rowCounts: [String: Int] = [:]

    public init() {}

    /// How many tables there are.
    public var tableCount: Int { tableNames.count }

    /// Rows across every table.
    public var rowCount: Int { rowCounts.values.reduce(0, +) }
}
