import DataTableEngine
import DataTableProtocol
import DataTableServer
import Foundation
import Logging
import PostgresNIO

/// A PostgreSQL database as a source of attached tables (postgres-nio): relations described
/// from the catalog, rows read as text the daemon's columns parse, changes written in one
/// transaction each, and the keys others change heard through `LISTEN datatabled` (the
/// trigger ``ChangeTrigger`` writes).
public final class PostgresSource: TableSource {
    /// The name clients give the source.
    public let name: String
    private let client: PostgresClient
    /// Where to connect, for the connections of a `COPY` (``CopyReader``).
    private let option: SourceOption
    private let logger: Logger
    /// Marks this daemon's own transactions, so their notifications are not read back.
    private let origin = UUID().uuidString
    private let runner: Task<Void, Never>

    /// A source for `option`, connecting on demand (and again after a failure) as its user.
    public init(_ option: SourceOption, logger: Logger) {
        var configuration: PostgresClient.Configuration
        if let socket = option.socketPath {
            configuration = .init(
                unixSocketPath: socket,
                username: option.user,
                password: option.password,
                database: option.database
            )
        } else {
            configuration = .init(
                host: option.host ?? "localhost",
                port: option.port,
                username: option.user,
                password: option.password,
                database: option.database,
                tls: .disable
            )
        }
        configuration.options.maximumConnections = 4
        self.name = option.name
        self.option = option
        self.logger = logger
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.runner = Task { await client.run() }
    }

    deinit { runner.cancel() }

    // MARK: Loading

    public func load(_ origin: SourceOrigin) async throws -> SourceRows {
        // The catalog answers at once or the source is out of reach; the rows then take as long
        // as they take (a lost connection ends them with an error).
        let shape = try await withPatience { try await self.describe(origin) }
        return SourceRows(shape: shape, csv: try await CopyReader.readOnThread(shape, through: option))
    }

    public func rows(of attached: SourceRows.Shape, keys: [String]?) async throws -> [[CellInput]] {
        guard let keys else {
            // Every row: as long as it takes, once the source answers.
            _ = try await withPatience { try await self.client.query("SELECT 1", logger: self.logger).collect() }
            return try await fetch(attached, keys: nil)
        }
        return try await withPatience { try await self.fetch(attached, keys: keys) }
    }

    /// How long a request waits for the database (to connect, or to answer) before it is
    /// refused `source_unavailable`; the work it asked for is then cancelled.
    static let patience = Duration.seconds(5)

    /// `body`'s result, or ``SourceError/unavailable(_:)`` once ``patience`` has passed.
    private func withPatience<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws
        -> Result
    {
        try await withThrowingTaskGroup(of: Result.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: Self.patience)
                throw SourceError.unavailable("no answer in \(Self.patience.components.seconds) seconds")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw SourceError.unavailable("no answer") }
            return first
        }
    }

    /// The columns and key of `origin`, from the catalog.
    private func describe(_ origin: SourceOrigin) async throws -> SourceRows.Shape {
        do {
            if let relation = origin.relation {
                return try await describe(relation: relation, origin: origin)
            }
            return try await describe(query: origin.query ?? "", origin: origin)
        } catch let error as SourceError {
            throw error
        } catch {
            throw Self.sourceError(error, field: origin.relation == nil ? "params.query" : "params.relation")
        }
    }

    private func describe(relation: String, origin: SourceOrigin) async throws -> SourceRows.Shape {
        var binds = PostgresBindings()
        binds.append(relation)
        let found = try await client.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT n.nspname, c.relname, c.relkind::text FROM pg_class c
                    JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE c.oid = to_regclass($1)
                    """,
                binds: binds
            ),
            logger: logger
        ).collect()
        guard let row = found.first else {
            throw SourceError.invalid("The source \(name) has no relation \(relation).", field: "params.relation")
        }
        let (schema, table, kind) = try row.decode((String, String, String).self)
        guard ["r", "p"].contains(kind) else {
            throw SourceError.invalid(
                "\(relation) is not a table (a view or other relation): attach a query of it instead.",
                field: "params.relation"
            )
        }
        let qualified = "\(schema).\(table)"
        var columnBinds = PostgresBindings()
        columnBinds.append(qualified)
        let attributes = try await client.query(
            PostgresQuery(
                unsafeSQL: """
                    SELECT a.attname::text, t.typname::text, format_type(a.atttypid, a.atttypmod), a.atttypmod,
                           a.attnotnull,
                           coalesce(a.attnum = ANY(i.indkey::int2[]), false)
                    FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
                    LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
                    WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped
                    ORDER BY a.attnum
                    """,
                binds: columnBinds
            ),
            logger: logger
        ).collect()
        var columns: [SourceColumn] = []
        var primary: [String] = []
        for attribute in attributes {
            let (column, typeName, formatted, modifier, notNull, isPrimary) = try attribute.decode(
                (String, String, String, Int32, Bool, Bool).self
            )
            if isPrimary { primary.append(column) }
            if let wanted = origin.columns, !wanted.contains(column), column != origin.key, !isPrimary { continue }
            guard
                let mapped = PostgresTypes.column(
                    name: column,
                    typeName: typeName,
                    formatted: formatted,
                    modifier: modifier,
                    notNull: notNull
                )
            else {
                throw SourceError.invalid(
                    "The column \(column) of \(qualified) is of type \(formatted), which the daemon has no type for: "
                        + "leave it out (columns) or attach a query that casts it.",
                    field: "params.relation"
                )
            }
            columns.append(mapped)
        }
        let key: String
        if let given = origin.key {
            key = given
        } else if primary.count == 1 {
            key = primary[0]
        } else {
            throw SourceError.invalid(
                primary.isEmpty
                    ? "\(qualified) has no primary key: name its key column (key)."
                    : "\(qualified)'s primary key has \(primary.count) columns: name one unique column (key).",
                field: "params.key"
            )
        }
        guard columns.contains(where: { $0.name == key }) else {
            throw SourceError.invalid("\(qualified) has no column \(key).", field: "params.key")
        }
        return SourceRows.Shape(
            relation: qualified,
            query: nil,
            columns: Self.ordered(columns, as: origin.columns, key: key),
            key: key
        )
    }

    /// A query's columns: those of a temporary view of it, made in a transaction that is then
    /// rolled back (the query itself is not run, and nothing of the view stays).
    private func describe(query: String, origin: SourceOrigin) async throws -> SourceRows.Shape {
        let attributes = try await client.withConnection { connection in
            _ = try await connection.query("BEGIN", logger: logger)
            do {
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "CREATE TEMPORARY VIEW datatabled_probe AS \(query)"),
                    logger: logger
                )
                let rows = try await connection.query(
                    """
                    SELECT a.attname::text, t.typname::text, format_type(a.atttypid, a.atttypmod), a.atttypmod
                    FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
                    WHERE a.attrelid = 'datatabled_probe'::regclass AND a.attnum > 0 ORDER BY a.attnum
                    """,
                    logger: logger
                ).collect()
                _ = try await connection.query("ROLLBACK", logger: logger)
                return rows
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
        var columns: [SourceColumn] = []
        for attribute in attributes {
            let (column, typeName, formatted, modifier) = try attribute.decode((String, String, String, Int32).self)
            if let wanted = origin.columns, !wanted.contains(column), column != origin.key { continue }
            guard
                let mapped = PostgresTypes.column(
                    name: column,
                    typeName: typeName,
                    formatted: formatted,
                    modifier: modifier,
                    notNull: false
                )
            else {
                throw SourceError.invalid(
                    "The query's column \(column) is of type \(formatted), which the daemon has no type for: cast it.",
                    field: "params.query"
                )
            }
            columns.append(mapped)
        }
        let key = origin.key ?? ""
        guard columns.contains(where: { $0.name == key }) else {
            throw SourceError.invalid("The query gives no column \(key).", field: "params.key")
        }
        return SourceRows.Shape(
            relation: nil,
            query: query,
            columns: Self.ordered(columns, as: origin.columns, key: key),
            key: key
        )
    }

    /// Puts `columns` in the order asked, the key first when no order was.
    private static func ordered(_ columns: [SourceColumn], as wanted: [String]?, key: String) -> [SourceColumn] {
        guard let wanted else { return columns }
        var byName = Dictionary(uniqueKeysWithValues: columns.map { ($0.name, $0) })
        var result = wanted.compactMap { byName.removeValue(forKey: $0) }
        if let keyColumn = byName.removeValue(forKey: key) { result.insert(keyColumn, at: 0) }
        return result
    }

    /// `bytes` as one CSV field: quoted, with its quotes doubled, when it needs to be.
    static func csvField(_ bytes: [UInt8]) -> [UInt8] {
        let special = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
        // An empty text is quoted too, so it stays a text and not the absence of one.
        guard special || bytes.isEmpty else { return bytes }
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { quoted.append(byte) }
            quoted.append(byte)
        }
        quoted.append(UInt8(ascii: "\""))
        return quoted
    }

    /// The SELECT of `shape`'s columns as text, with a `WHERE key = ANY($1)` when `keyed`.
    private static func select(_ shape: SourceRows.Shape, keyed: Bool) -> String {
        let select = shape.columns.map { PostgresTypes.readExpression($0, identifier: quoted($0.name)) }
            .joined(separator: ", ")
        let from = shape.relation.map(quotedRelation) ?? "(\(shape.query ?? "")) AS attached"
        return "SELECT \(select) FROM \(from)"
            + (keyed ? " WHERE \(quoted(shape.key))::text = ANY($1::text[])" : "")
    }

    /// Runs `body` on a connection: a query's in a read-only transaction, whatever it says.
    private func run(_ shape: SourceRows.Shape, _ body: (PostgresConnection) async throws -> Void) async throws {
        try await client.withConnection { connection in
            guard shape.relation == nil else { return try await body(connection) }
            _ = try await connection.query("BEGIN READ ONLY", logger: logger)
            do {
                try await body(connection)
                _ = try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// The rows of `shape` (all of them, or those of `keys`), as text its columns parse.
    private func fetch(_ shape: SourceRows.Shape, keys: [String]?) async throws -> [[CellInput]] {
        var binds = PostgresBindings()
        if let keys { binds.append(keys) }
        let query = PostgresQuery(unsafeSQL: Self.select(shape, keyed: keys != nil), binds: binds)
        var rows: [[CellInput]] = []
        do {
            try await run(shape) { connection in
                for try await row in try await connection.query(query, logger: self.logger) {
                    var values: [CellInput] = []
                    values.reserveCapacity(shape.columns.count)
                    for cell in row {
                        values.append(try cell.decode(String?.self).map(CellInput.text) ?? .null)
                    }
                    rows.append(values)
                }
            }
        } catch {
            throw Self.sourceError(error, field: shape.relation == nil ? "params.query" : "params.relation")
        }
        return rows
    }

    // MARK: Writing

    public func write(_ writes: [SourceWrite], to attached: SourceRows.Shape) async throws {
        try await withPatience { try await self.writeNow(writes, to: attached) }
    }

    private func writeNow(_ writes: [SourceWrite], to attached: SourceRows.Shape) async throws {
        guard let relation = attached.relation else {
            throw SourceError.invalid("A query's table takes no changes.", field: "params.table")
        }
        let table = Self.quotedRelation(relation)
        let columns = Dictionary(uniqueKeysWithValues: attached.columns.map { ($0.name, $0) })
        guard let keyColumn = columns[attached.key] else { return }
        do {
            try await client.withTransaction(logger: logger) { connection in
                var mark = PostgresBindings()
                mark.append(origin)
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT set_config('datatabled.origin', $1, true)", binds: mark),
                    logger: logger
                )
                for write in writes {
                    var binds = PostgresBindings()
                    var sql: String
                    func bind(_ value: CellValue, _ column: SourceColumn) -> String {
                        if let text = PostgresTypes.text(value, for: column) {
                            binds.append(text)
                        } else {
                            binds.appendNull()
                        }
                        return "$\(binds.count)::text::\(column.sourceType)"
                    }
                    switch write {
                    case .insert(let values):
                        let named = values.keys.sorted().compactMap { columns[$0] }
                        let placed = named.map { bind(values[$0.name] ?? .empty, $0) }
                        sql =
                            "INSERT INTO \(table) (\(named.map { Self.quoted($0.name) }.joined(separator: ", "))) "
                            + "VALUES (\(placed.joined(separator: ", ")))"
                    case .update(let key, let values):
                        let named = values.keys.sorted().compactMap { columns[$0] }
                        guard !named.isEmpty else { continue }
                        let sets = named.map { "\(Self.quoted($0.name)) = \(bind(values[$0.name] ?? .empty, $0))" }
                        sql =
                            "UPDATE \(table) SET \(sets.joined(separator: ", ")) "
                            + "WHERE \(Self.quoted(keyColumn.name)) = \(bind(key, keyColumn))"
                    case .delete(let key):
                        sql = "DELETE FROM \(table) WHERE \(Self.quoted(keyColumn.name)) = \(bind(key, keyColumn))"
                    }
                    _ = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
                }
            }
        } catch {
            throw Self.sourceError(error, field: "params.table")
        }
    }

    // MARK: Changes

    /// The stream is unbounded: the daemon takes each signal at once into its pending changes
    /// (merged by key), so what waits here is only what arrived since.
    public func changes() -> AsyncStream<SourceSignal> {
        let (stream, continuation) = AsyncStream<SourceSignal>.makeStream(bufferingPolicy: .unbounded)
        let origin = self.origin
        let task = Task { [client, logger] in
            var delay = Duration.milliseconds(100)
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: ChangeTrigger.channel) { notifications in
                            delay = .milliseconds(100)
                            // Listening from here on: what changed before is read again.
                            continuation.yield(.listening)
                            for try await notification in notifications {
                                guard let change = ChangeTrigger.change(notification.payload, ignoring: origin) else {
                                    continue
                                }
                                continuation.yield(change)
                            }
                        }
                    }
                    continuation.yield(.lost("the database closed the connection"))
                } catch {
                    logger.warning(
                        "The changes of a source cannot be heard; trying again",
                        metadata: ["error": "\(error)"]
                    )
                    continuation.yield(.lost(Self.reason(error)))
                }
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(10))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    // MARK: Names and errors

    /// A few words on why the source cannot be heard.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        return error.serverInfo?[.message] ?? "\(error.code)"
    }

    static func quoted(_ name: String) -> String { ChangeTrigger.quoted(name) }

    static func quotedRelation(_ relation: String) -> String { ChangeTrigger.quotedRelation(relation) }

    /// What `error` from postgres-nio means to a client: a refusal the server sent (a
    /// constraint, a permission, a transaction it could not order) naming the column where it
    /// did, a bad relation or query, or the server out of reach.
    static func sourceError(_ error: any Error, field: String) -> SourceError {
        if let error = error as? SourceError { return error }
        if let transaction = error as? PostgresTransactionError,
            let inner = transaction.closureError ?? transaction.commitError ?? transaction.beginError
        {
            return sourceError(inner, field: field)
        }
        guard let error = error as? PSQLError else { return .unavailable("\(error)") }
        guard error.code == .server, let info = error.serverInfo else {
            return .unavailable("\(error.code)")
        }
        return sourceError(
            state: info[.sqlState] ?? "",
            message: info[.message] ?? "refused",
            detail: info[.detail],
            column: info[.columnName],
            field: field
        )
    }

    /// What an error PostgreSQL sent means, by its SQLSTATE `state`: class 23 (integrity),
    /// 42501 (privilege), 40 (transaction rollback), 22 (data) and 25 (transaction state)
    /// refuse the change; 42 otherwise (syntax, no such object) and 0A mean what was asked is
    /// wrong; anything else, that the source is out of reach.
    static func sourceError(state: String, message: String, detail: String?, column: String?, field: String)
        -> SourceError
    {
        let detail = detail.map { " (\($0))" } ?? ""
        if state.hasPrefix("23") || state == "42501" || state.hasPrefix("40") || state.hasPrefix("22")
            || state.hasPrefix("25")
        {
            return .refused(message + detail, column: column)
        }
        if state.hasPrefix("42") || state.hasPrefix("0A") { return .invalid(message + detail, field: field) }
        return .unavailable(message)
    }
}
