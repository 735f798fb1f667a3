import DataTableEngine
import DataTableVocabulary

/// A database tables can be attached to (`attach`), configured by the administrator with
/// `--source NAME=URL`, never by a client: a client names a configured source, and the daemon
/// reaches it with the credentials the administrator gave.
///
/// The server knows sources only through this protocol: what it needs to load an attached
/// table, keep it current and write its changes back. `DataTableSources` implements it for
/// PostgreSQL.
public protocol TableSource: AnyObject, Sendable {
    /// The name clients give the source.
    var name: String { get }

    /// The columns, key and every row of what `origin` names. Throws ``SourceError``.
    func load(_ origin: SourceOrigin) async throws -> SourceRows

    /// The rows of `keys` (the key column's values as text; `nil`: every row) as they are now in
    /// the relation `attached` was loaded from, in `attached`'s columns; a key without a row is
    /// left out.
    func rows(of attached: SourceRows.Shape, keys: [String]?) async throws -> [[CellInput]]

    /// Makes `writes` to `attached`'s relation in one transaction, committed before it returns;
    /// the source's refusal of any of them undoes them all.
    func write(_ writes: [SourceWrite], to attached: SourceRows.Shape) async throws

    /// What others change in the source's relations, as their transactions commit (relations
    /// with the change trigger; see protocol.md, "Sources"), and when the source is heard again
    /// after it was not (changes may have been missed: read everything again). One consumer.
    func changes() -> AsyncStream<SourceSignal>
}

/// What an attached table's rows come from: a relation of a source, or a read-only query, the
/// key column that names its rows, and the columns taken.
public struct SourceOrigin: Codable, Sendable, Hashable {
    /// The relation, `schema.table` or `table`; `nil` for a query.
    public var relation: String?
    /// A query run read-only; `nil` for a relation.
    public var query: String?
    /// The key column; `nil`: the relation's primary key.
    public var key: String?
    /// The columns to take, in order; `nil`: all.
    public var columns: [String]?

    /// An origin of `relation` or `query`.
    public init(relation: String?, query: String?, key: String?, columns: [String]?) {
        self.relation = relation
        self.query = query
        self.key = key
        self.columns = columns
    }
}

/// A column of a source, as the daemon will hold it.
public struct SourceColumn: Sendable, Hashable {
    /// The source's name for the column: the table's column key.
    public var name: String
    /// The daemon's type for it.
    public var type: ColumnType
    /// The source refuses an empty value (`NOT NULL`).
    public var required: Bool
    /// Text: the most characters the source takes (`varchar(n)`).
    public var maxLength: Int?
    /// Number: the digits after the point the source keeps (`numeric(p,s)`).
    public var decimals: Int?
    /// The source's own type, as it names it (`integer`, `numeric(10,2)` …).
    public var sourceType: String

    /// A column `name` of `type`.
    public init(
        name: String,
        type: ColumnType,
        required: Bool,
        maxLength: Int? = nil,
        decimals: Int? = nil,
        sourceType: String
    ) {
        self.name = name
        self.type = type
        self.required = required
        self.maxLength = maxLength
        self.decimals = decimals
        self.sourceType = sourceType
    }
}

/// What a source gave for an origin: its shape and every row.
public struct SourceRows: Sendable {
    /// The columns, the key and where they came from: all that is needed to read rows again and
    /// write them back.
    public struct Shape: Sendable, Hashable {
        /// The relation (schema-qualified as the source resolved it); `nil` for a query.
        public var relation: String?
        /// The query, for a query's table.
        public var query: String?
        /// The columns, in the table's order.
        public var columns: [SourceColumn]
        /// The key column's name.
        public var key: String

        /// A shape of `columns` keyed by `key`.
        public init(relation: String?, query: String?, columns: [SourceColumn], key: String) {
            self.relation = relation
            self.query = query
            self.columns = columns
            self.key = key
        }
    }

    /// Where the rows came from, and their columns.
    public var shape: Shape
    /// The rows as CSV text in UTF-8: a header naming `shape.columns`, then a record per row,
    /// each field as its column parses it (an empty field for no value), read by the engine's
    /// loader on every core.
    public var csv: [UInt8]

    /// Rows of `shape`, as CSV.
    public init(shape: Shape, csv: [UInt8]) {
        self.shape = shape
        self.csv = csv
    }
}

/// One row's change, to be made in a source: the daemon's typed values by column.
public enum SourceWrite: Sendable, Hashable {
    /// A new row.
    case insert([String: CellValue])
    /// The row whose key is `key`: these columns set.
    case update(key: CellValue, [String: CellValue])
    /// The row whose key is `key` taken out.
    case delete(key: CellValue)
}

/// What a source tells of its changes.
public enum SourceSignal: Sendable, Hashable {
    /// Rows of `relation` (`schema.table`, as its trigger names it) changed by someone else:
    /// their keys, as text, or `nil` when too many changed to list (every row is read again).
    case changed(relation: String, keys: [String]?)
    /// The source is heard from now on: whatever changed while it was not is to be read again.
    case listening
    /// The source is out of reach (`reason`): changes made there are not heard until
    /// ``listening``.
    case lost(String)
}

/// Why a source could not do what was asked.
public enum SourceError: Error, Sendable, Hashable {
    /// It cannot be reached (stopped, unreachable, refusing connections).
    case unavailable(String)
    /// It refused the change: a constraint, a permission, a transaction it could not order;
    /// `column` when it said which column.
    case refused(String, column: String?)
    /// What was asked cannot be attached (no such relation, a type the daemon has none for);
    /// `field` is the request's param it is about.
    case invalid(String, field: String)
}
