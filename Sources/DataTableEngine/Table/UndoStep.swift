/// One undoable change: one or more parts, done in order and undone in reverse.
///
/// Steps rely on one rule of the history: a step at the top of the undo list finds the table
/// exactly as the step left it (its rows, their places in the table's own order, its columns),
/// because every later change that moved rows or columns is above it and was undone first; a
/// step at the top of the redo list finds the table as it was before the step. Changes that do
/// not keep this rule (a `load`) clear the history. So a step may name columns by index and
/// rows by their place in the table's own order.
struct UndoStep: Sendable {
    var parts: [UndoPart]
    /// Who made the change (a user id), when known: only they may undo or redo it. Steps kept
    /// from before changes had authors have none, and anyone who may write takes them back.
    var author: UInt32?
    /// Roughly the memory the step holds (rows and columns kept to bring back, values before
    /// and after), worked out once when the step is made (``init(parts:author:)``): what the
    /// table's history adds to its owner's memory share.
    let bytes: Int

    /// Rows the step touches, to judge whether taking it back is heavy work.
    var weight: Int {
        parts.reduce(0) { total, part in
            switch part {
            case .cells(let step): total + step.changes.count
            case .rowsAdded(let rows), .rowsRemoved(let rows): total + rows.ids.count
            case .schema(let change): total + change.weight
            case .drafts(let change): total + change.entries.count
            }
        }
    }
}

/// One part of an ``UndoStep``.
enum UndoPart: Sendable {
    /// Cells set, with the values before and after.
    case cells(EditStep)
    /// Rows put in: undo takes them out again (keeping what they held, for redo).
    case rowsAdded(SavedRows)
    /// Rows taken out, with everything they held: undo puts them back where they were.
    case rowsRemoved(SavedRows)
    /// The columns or the table's settings changed.
    case schema(SchemaChange)
    /// Drafts set or cleared.
    case drafts(DraftChange)
}

/// Rows out of the table, kept whole so they can come back as they were: ids, places in the
/// table's own order, values, flags (selection, read-only, drill-down), read-only cells and
/// drafts. While the rows are in the table only ``ids`` is kept.
struct SavedRows: Sendable {
    /// The rows' ids, in the order of ``positions``.
    var ids: [RowID]
    /// Each row's place in the table's own order once all are back, ascending; empty while the
    /// rows are in the table.
    var positions: [Int] = []
    /// One store per column, row `i` of the saved rows in slot `i`.
    var stores: [ColumnStore] = []
    var flags: [RowFlags] = []
    /// Saved row → column → read-only, for cells with their own setting.
    var readOnlyCells: [Int: [Int: Bool]] = [:]
    /// Saved row → column → draft.
    var drafts: [Int: [Int: Draft]] = [:]

    /// Rows known by id only, in the table now.
    init(ids: [RowID]) { self.ids = ids }

    init(
        ids: [RowID],
        positions: [Int],
        stores: [ColumnStore],
        flags: [RowFlags],
        readOnlyCells: [Int: [Int: Bool]],
        drafts: [Int: [Int: Draft]]
    ) {
        self.ids = ids
        self.positions = positions
        self.stores = stores
        self.flags = flags
        self.readOnlyCells = readOnlyCells
        self.drafts = drafts
    }

    /// Only the ids: the rows are in the table again.
    var idsOnly: SavedRows { SavedRows(ids: ids) }
}

/// What one undo or redo did, part by part: each part is one step of the version, and its own
/// event.
public struct UndoOutcome: Sendable {
    /// What one part did.
    public enum Part: Sendable {
        /// Cells set, as they are now.
        case cells([EditedCell])
        /// Rows back in the table, with their ids (as they were).
        case rowsBack([RowID])
        /// Rows taken out.
        case rowsOut([RowID])
        /// The columns or settings changed: what changed.
        case schema(SchemaSummary)
        /// Drafts set or cleared: how many cells hold one now in the table.
        case drafts(errors: Int)
    }

    /// The parts in the order they were done, each with the table's version after it.
    public var parts: [(part: Part, version: UInt64)] = []

    /// Every cell the step set.
    public var cells: [EditedCell] {
        parts.flatMap { entry -> [EditedCell] in
            if case .cells(let cells) = entry.part { return cells }
            return []
        }
    }

    /// The ids of every row the step put back.
    public var rowsBack: [RowID] {
        parts.flatMap { entry -> [RowID] in
            if case .rowsBack(let ids) = entry.part { return ids }
            return []
        }
    }

    /// The ids of every row the step took out.
    public var rowsOut: [RowID] {
        parts.flatMap { entry -> [RowID] in
            if case .rowsOut(let ids) = entry.part { return ids }
            return []
        }
    }

    /// What the step changed in the columns or settings, if anything.
    public var schema: SchemaSummary? {
        for entry in parts { if case .schema(let summary) = entry.part { return summary } }
        return nil
    }
}

/// Drafts an undoable change set or cleared without setting values (an `alter` keeping broken
/// values as drafts): each cell's draft before and after.
struct DraftChange: Sendable {
    struct Entry: Sendable {
        var id: RowID
        var column: Int
        var old: Draft?
        var new: Draft?
    }

    var entries: [Entry]
}
