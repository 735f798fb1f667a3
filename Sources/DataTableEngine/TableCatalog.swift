/// The set of tables the daemon holds, by name.
///
/// The engine is pure: it owns data and answers questions about it, and never touches a socket,
/// a file or a clock. Whoever holds a catalog decides how access to it is serialised.
public struct TableCatalog: Sendable {
    /// Table names in the order they were created.
    public private(set) var tableNames: [String] = []
    private var tables: [String: Table] = [:]

    /// An empty catalog.
    public init() {}

    /// How many tables there are.
    public var tableCount: Int { tableNames.count }

    /// Rows across every table.
    public var rowCount: Int { tables.values.reduce(0) { $0 + $1.rowCount } }

    /// The table called `name`.
    public subscript(name: String) -> Table? { tables[name] }

    /// Adds `table`; a table of the same name must not exist.
    public mutating func insert(_ table: Table) throws(CatalogError) {
        guard tables[table.name] == nil else { throw .alreadyExists(table.name) }
        try Self.checkName(table.name)
        tables[table.name] = table
        tableNames.append(table.name)
    }

    /// Puts `table` in place of the table of its name, keeping that table's place in
    /// ``tableNames``, or adds it when there is none.
    public mutating func replace(_ table: Table) throws(CatalogError) {
        guard tables[table.name] != nil else { return try insert(table) }
        tables[table.name] = table
    }

    /// Removes the table called `name`.
    @discardableResult
    public mutating func remove(_ name: String) throws(CatalogError) -> Table {
        guard let table = tables.removeValue(forKey: name) else { throw .noSuchTable(name) }
        tableNames.removeAll { $0 == name }
        return table
    }

    /// Runs `body` on the table called `name`, in place; throws ``CatalogError/noSuchTable(_:)``
    /// or what `body` throws.
    public mutating func update<Result>(_ name: String, _ body: (inout Table) throws -> Result) throws -> Result {
        guard tables[name] != nil else { throw CatalogError.noSuchTable(name) }
        return try body(&tables[name]!)
    }

    /// The table called `name`, or ``CatalogError/noSuchTable(_:)``.
    public func table(_ name: String) throws(CatalogError) -> Table {
        guard let table = tables[name] else { throw .noSuchTable(name) }
        return table
    }

    /// A name is 1 to 128 characters, none of them control characters.
    public static func checkName(_ name: String) throws(CatalogError) {
        guard isValidName(name) else { throw .invalidName(name) }
    }

    /// Whether `name` may name a table (or anything named like one): 1 to 128 characters, none
    /// of them control characters.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 128
            && !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    }
}

/// Why the catalog refused.
public enum CatalogError: Error, Sendable, Equatable {
    /// No table has this name.
    case noSuchTable(String)
    /// A table of this name is already in the catalog.
    case alreadyExists(String)
    /// The name is empty, longer than 128 characters, or holds a control character.
    case invalidName(String)
}
