/// A change to one table in the table's own terms: rows by id, cells by row id and column key,
/// values as they were typed, columns by their definitions, and who made it. Nothing in it
/// points outside the table (a connection's view, its filter or sections, the time, the
/// daemon's options): applied to the table as it was before, it makes the table as it became
/// after, every time. The state directory's log keeps changes in this form.
///
/// A request is turned into a change before anything is done (a selection seen through a view
/// becomes the ids of its rows), and ``Table/apply(_:now:)`` makes it; the first time and a
/// replay run the same code on the same inputs.
public struct TableChange: Sendable {
    /// What the change does.
    public enum Kind: Sendable {
        /// Rows put in, at `index` of an unsorted table or where the sort puts them.
        case add([RowInput], index: Int?)
        /// Rows replaced by key, the rest added (``Table/upsert(_:now:)``).
        case upsert([RowInput])
        /// Cells set, or kept as drafts (``Table/edit(_:)``).
        case edit([CellEdit])
        /// Drafts dropped: of one cell, of one row, or of every row (``Table/revert(id:column:)``).
        case revert(id: RowID?, column: String?)
        /// Rows taken out, by id.
        case delete([RowID])
        /// Every row taken out.
        case clear
        /// The selection changed; `target` never depends on a view (a view's rows are ids here).
        case select(SelectAction, RowTarget, mode: SelectionMode?)
        /// The selection mode changed.
        case selectionMode(SelectionMode)
        /// The table's own order.
        case sort([SortKey])
        /// The author's last change taken back, or made again.
        case undo
        case redo
        /// Columns and settings changed.
        case alter(TableAlteration)
        /// A column arrangement kept by name (its JSON, as the protocol gives it).
        case saveColumnState(name: String, state: String)
        /// A column arrangement forgotten.
        case deleteColumnState(name: String)
        /// A new owner, group or mode.
        case access(TableAccess)
    }

    /// What the change does.
    public var kind: Kind
    /// Who made it (a user id), for the undo history; `nil` when no user did.
    public var author: UInt32?

    /// A change of `kind` made by `author`.
    public init(_ kind: Kind, by author: UInt32?) {
        self.kind = kind
        self.author = author
    }
}

/// What ``Table/apply(_:now:)`` did, in the terms of the change's kind.
public enum ChangeOutcome: Sendable {
    /// Rows added (an add).
    case added([AddedRow])
    /// Rows replaced and added (an upsert).
    case upserted(UpsertResult)
    /// Cells set (an edit).
    case edited([EditedCell])
    /// How many rows or cells it touched (a delete, a clear, a revert).
    case count(Int)
    /// What an undo or redo did.
    case undone(UndoOutcome)
    /// What an alter changed.
    case altered(SchemaSummary)
    /// Whether it changed anything (a column state forgotten).
    case done(Bool)
    /// Nothing to report (a select, a sort, a new mode or owner).
    case none

    /// The rows added, or none.
    public var added: [AddedRow] {
        if case .added(let rows) = self { return rows }
        return []
    }

    /// The cells edited, or none.
    public var edited: [EditedCell] {
        if case .edited(let cells) = self { return cells }
        return []
    }

    /// The count, or 0.
    public var count: Int {
        if case .count(let count) = self { return count }
        return 0
    }
}

extension Table {
    /// Makes `change`: the one way a change reaches the table, for requests and for replay
    /// alike. `now` (seconds since 1970) is when added rows came in, for their highlight only;
    /// it changes nothing that is kept. Throws as the change's own method does, and like it
    /// changes nothing then (but a refused edit keeps its drafts).
    public mutating func apply(_ change: TableChange, now: Double = 0) throws(TableError) -> ChangeOutcome {
        beginChange()
        defer { endChange() }
        changeAuthor = change.author
        defer { changeAuthor = nil }
        switch change.kind {
        case .add(let rows, let index): return .added(try add(rows, at: index, now: now))
        case .upsert(let rows): return .upserted(try upsert(rows, now: now))
        case .edit(let edits): return .edited(try edit(edits))
        case .revert(let id, let column): return .count(try revert(id: id, column: column))
        case .delete(let ids): return .count(try delete(ids))
        case .clear: return .count(clear())
        case .select(let action, let target, let mode):
            try select(action, target, mode: mode)
            return .none
        case .selectionMode(let mode):
            setSelectionMode(mode)
            return .none
        case .sort(let keys):
            try sort(by: keys)
            return .none
        case .undo: return .undone(try undo(by: change.author))
        case .redo: return .undone(try redo(by: change.author))
        case .alter(let alteration): return .altered(try alter(alteration))
        case .saveColumnState(let name, let state):
            try saveColumnState(state, as: name)
            return .none
        case .deleteColumnState(let name): return .done(deleteColumnState(name))
        case .access(let access):
            changeAccess(to: access)
            return .none
        }
    }
}

extension Table {
    /// `target` as a change keeps it: seen through a view's filter (`within`), the rows it names
    /// there, by id; otherwise as it is (it names rows of the table itself).
    public func resolved(_ target: RowTarget, within filter: UInt64?) throws(TableError) -> RowTarget {
        guard filter != nil else { return target }
        return .ids(try slots(for: target, within: filter).map { id(of: $0) })
    }

    /// The edits ``editSelection(column:input:within:)`` would make: `input` in `column` of every
    /// selected row (`within` a view's filter: those it shows), by id, in the current order.
    public func selectionEdits(column: String, input: CellInput, within filter: UInt64?) throws(TableError)
        -> [CellEdit]
    {
        guard columnIndex[column] != nil else { throw .noSuchColumn(column, row: nil) }
        return selectedSlotsInOrder(within: filter).map { CellEdit(id: id(of: $0), column: column, input: input) }
    }
}
