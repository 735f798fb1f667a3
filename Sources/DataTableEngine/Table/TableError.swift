/// Why the engine refused a change. Whatever is refused changes nothing, except that rejected
/// edits leave drafts (see ``Table/edit(_:)``).
public enum TableError: Error, Sendable, Equatable {
    /// No row has this id.
    case noSuchRow(RowID)
    /// No column has this key; `row` is the 0-based position in a batch when it came from one.
    case noSuchColumn(String, row: Int?)
    /// The cell may not be edited.
    case readOnly(RowID, column: String)
    /// Values that do not fit their columns, in the order they were met.
    case invalidValues([CellProblem])
    /// Another row already has this id (a key column's value).
    case duplicateID(RowID, row: Int?)
    /// The request does not make sense for this table (say, an index past the end); `field` names
    /// the parameter.
    case invalidArgument(String, field: String)
    /// The column definitions or table settings are not usable.
    case invalidSchema(String, field: String)
    /// A layout parameter is not usable; `field` names it.
    case invalidLayout(String, field: String)
    /// There is no edit to undo or redo.
    case nothingToUndo(redo: Bool)
}

/// One rejected cell: which row (by id when it has one, by its 0-based place in the batch when
/// it is new), which column, what was typed, and why it is not acceptable.
public struct CellProblem: Sendable, Equatable {
    public var id: RowID?
    public var row: Int?
    /// A line of a loaded file (1-based), when the value came from one.
    public var line: Int?
    public var column: String
    public var input: String
    public var message: String

    public init(id: RowID? = nil, row: Int? = nil, line: Int? = nil, column: String, input: String, message: String) {
        self.id = id
        self.row = row
        self.line = line
        self.column = column
        self.input = input
        self.message = message
    }
}
