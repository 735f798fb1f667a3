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
    /// There is no change to undo or redo (of the requester's own, when the history knows who
    /// made its changes).
    case nothingToUndo(redo: Bool)
    /// The requester's last change is not the newest: another user's change (by `author`) came
    /// after it, and undo takes back only changes that nothing later depends on.
    case undoBehindOthers(redo: Bool, author: UInt32)
    /// A computed column's definition is not usable: `field` names the member at fault
    /// (`columns[2].expression`, say) and `offset` the place in the expression (Unicode scalars
    /// from its start).
    case invalidExpression(String, field: String, offset: Int)
    /// The row changed since the row version the request gave (someone edited it first).
    case rowChanged(RowID, expected: UInt64, current: UInt64)
}

/// One rejected cell: which row (by id when it has one, by its 0-based place in the batch when
/// it is new), which column, what was typed, and why it is not acceptable.
public struct CellProblem: Sendable, Equatable {
    /// The row's id, when the row already exists (an edit); `nil` otherwise.
    public var id: RowID?
    /// A new row's 0-based place in its batch (an add); `nil` otherwise.
    public var row: Int?
    /// A line of a loaded file (1-based), when the value came from one.
    public var line: Int?
    /// The column's key; empty when the problem is with a whole line of loaded text.
    public var column: String
    /// What was sent for the cell, as text (``CellInput/draftText``).
    public var input: String
    /// Why it was refused: one sentence for a person.
    public var message: String

    /// A problem as given.
    public init(id: RowID? = nil, row: Int? = nil, line: Int? = nil, column: String, input: String, message: String) {
        self.id = id
        self.row = row
        self.line = line
        self.column = column
        self.input = input
        self.message = message
    }
}
