import Collections
import DataTableVocabulary

/// One named table: columns, rows with stable ids, the current order, selection, drafts and
/// a version that increases with every change.
///
/// Rows live in slots: every column keeps one typed array indexed by slot (``ColumnStore``),
/// and slots of deleted rows are reused. Two ``RowOrder``s map positions to slots: `natural`,
/// the table's own order (rows appended or placed at an index), and `sorted`, present while sort
/// keys are set. Ties in a sort are broken by natural position, so the sorted order is always
/// one definite order and a re-sort with the same keys changes nothing.
public struct Table: Sendable {
    /// The table's name (a catalog holds at most one table of each name).
    public let name: String
    /// The columns, in order; changed only by ``alter(_:)``.
    public internal(set) var columns: [Column]
    /// The column whose values are the row ids, if the rows bring their own ids.
    public internal(set) var keyColumn: Int?
    /// Whether cells are read-only unless a column, row or cell says otherwise.
    public var readOnly: Bool
    /// How many rows may be selected; changed with ``setSelectionMode(_:)`` or a `select` with a mode.
    public internal(set) var selectionMode: SelectionMode
    /// Increases with every change to rows, order, selection or drafts.
    public internal(set) var version: UInt64 = 1
    /// The sort in force, first key first; empty when rows are in the table's own order.
    public internal(set) var sortKeys: [SortKey] = []
    /// How many rows are selected.
    public internal(set) var selectedCount = 0
    /// How many cells hold a rejected draft.
    public internal(set) var errorCount = 0
    /// Who owns the table and who else may read or change it; set once when the table is made,
    /// then changed with ``changeAccess(to:)``.
    public var access = TableAccess.open

    var columnIndex: [String: Int]
    /// The columns' indices in the order of their keys, as a JSON object with sorted keys lists
    /// them.
    public internal(set) var columnsInKeyOrder: [Int]
    var stores: [ColumnStore]
    /// The computed columns, compiled against the others (``ComputedColumns``).
    var computed = ComputedColumns()
    var natural = RowOrder()
    var sorted: RowOrder?
    /// Slots no row uses, for reuse.
    var freeSlots: [UInt32] = []
    /// Slots ever allocated (every store has this many entries).
    var slotCount = 0
    /// Per slot: ``RowFlags``.
    var flags: [RowFlags] = []
    /// Per slot: the table's version when the row's cells or drafts last changed (its row
    /// version, for `ifRowVersion`).
    var rowVersions = RowVersions()
    /// Generated ids: slot → id number (tables without a key column).
    var generatedIDs: [Int64] = []
    /// Generated ids: id number − 1 → slot, or `UInt32.max` once the row is gone.
    var slotOfGeneratedID: [UInt32] = []
    /// Key-column ids → slot.
    var keyIndex = KeyIndex()
    /// Cells whose read-only setting differs from their row's: slot → column → read-only.
    var cellReadOnly: [UInt32: [Int: Bool]] = [:]
    /// Rejected inputs: slot → column → draft.
    var drafts: [UInt32: [Int: Draft]] = [:]
    /// When rows came in through ``add(_:at:now:)``, for the highlight fade; pruned as it ages.
    var addedAt: [UInt32: Double] = [:]
    /// The same rows oldest first, so faded ones are dropped without a scan.
    var recentAdds: Deque<(slot: UInt32, time: Double)> = []
    /// Display-text widths per measure asked for by ``layout(_:)``, kept current by every change.
    var contentWidths: [ContentWidths] = []
    /// Changes whenever something a column plan reads changes (a ``Stamp``): a view's plan
    /// made under it is still the plan.
    var layoutGeneration = Stamp.next()
    /// Row heights of the current order per height rule asked for by ``rowOffsets(for:)``, kept
    /// current by every change.
    var keptOffsets: [KeptOffsets] = []
    /// Sums of the current order's numbers in the columns view-order columns sum, kept current
    /// by every change once a read asked for them.
    var keptSums: [KeptSums] = []
    /// Per column a view-order column sums: the sum of its numbers' magnitudes, which no
    /// running sum passes (what the column's width allows for); `nil` until a layout needs it.
    var viewOrderMagnitudes: [Int: Double]?
    /// The power of ten above the row count when the last plan was made, which no count or
    /// rank passes.
    var viewOrderRowPower = 10.0
    /// Rows added lately, oldest first, for views that count new rows above them.
    var recentAdditions = RecentAdditions()
    /// Changes whenever a row added lately may have moved, left or changed (a ``Stamp``): what
    /// a view counted of those rows (``NewRowsCount``) holds while it is the same.
    var recentStamp = Stamp.next()
    /// The rows each view's filter lets through, kept current by every change.
    var filters: [FilteredRows] = []
    /// The rows of each view that shows sections, kept current by every change.
    var sections: [SectionedRows] = []
    /// What views lost to columns dropped under them, by view id (``viewLosses(of:after:)``);
    /// forgotten with the view.
    var lostByViews: [UInt64: [ViewLoss]] = [:]
    /// Counts filters and sections set and dropped: they change no data (and no ``version``),
    /// but a copy made before one must not take the table's place after it.
    public internal(set) var filterGeneration: UInt64 = 0
    /// ``rowLimit``.
    var limit: Int?
    /// ``columnStates``.
    var savedColumnStates: [String: String] = [:]
    /// The ids of the rows the last change dropped to stay within ``rowLimit``, oldest first.
    public internal(set) var droppedByLimit: [RowID] = []
    var undoSteps: [UndoStep] = []
    var redoSteps: [UndoStep] = []
    /// The ``UndoStep/bytes`` of every step in ``undoSteps`` and ``redoSteps``, kept current as
    /// steps come and go (``recountMemory()`` works it out again).
    var historyBytes = 0
    /// Roughly the memory the drafts hold (``Draft/estimatedBytes`` of each), kept current by
    /// every draft set or cleared.
    var draftBytes = 0
    /// Roughly the memory the saved column states hold, kept current by every save and delete.
    var columnStateBytes = 0
    /// ``undoDepth``.
    var undoLimit = Table.defaultUndoDepth
    /// Who is making the change under way, for the undo history (``apply(_:)`` sets it).
    var changeAuthor: UInt32?
    /// What the change under way has done so far, for the derived structures to take in when
    /// it ends (``settle()``).
    var steps = ChangeSteps()
    /// How deeply changes are nested right now (``beginChange()``).
    var changeDepth = 0
    /// The steps of the last change, kept until the next one: ``lastChange`` is made from them
    /// when asked for.
    var lastSteps = ChangeSteps()

    /// How many changes a table can take back unless told otherwise.
    public static let defaultUndoDepth = 100

    /// A new, empty table.
    public init(
        name: String,
        columns: [Column],
        key: String? = nil,
        readOnly: Bool = false,
        selectionMode: SelectionMode = .multiple,
        limit: Int? = nil
    ) throws(TableError) {
        try TableSchema.check(columns: columns, key: key)
        let (columns, computed) = try Self.resolveComputed(columns) { "columns[\($0)]" }
        self.computed = computed
        if let limit, limit < 1 {
            throw .invalidSchema("limit must be at least 1 (leave it out for no limit).", field: "limit")
        }
        self.limit = limit
        self.name = name
        self.columns = columns
        var index: [String: Int] = [:]
        for (position, column) in columns.enumerated() { index[column.key] = position }
        columnIndex = index
        columnsInKeyOrder = columns.indices.sorted { columns[$0].key < columns[$1].key }
        keyColumn = key.flatMap { index[$0] }
        self.readOnly = readOnly
        self.selectionMode = selectionMode
        stores = columns.map { ColumnStore(type: $0.type) }
    }

    /// How many rows the table holds.
    public var rowCount: Int { natural.count }

    /// The order rows are shown in: sorted when sort keys are set, else the table's own.
    ///
    /// This hands back a copy, which retains and releases each of the order's buffers: on a
    /// request's path use ``orderPosition(of:)`` and ``orderSlots(from:limit:)``, which read the
    /// order where it lies.
    var order: RowOrder { sorted ?? natural }

    /// The position of `slot` in the order rows are shown in (see ``order``).
    func orderPosition(of slot: UInt32) -> Int? {
        sorted != nil ? sorted!.position(of: slot) : natural.position(of: slot)
    }

    /// Up to `limit` slots from `position` on in the order rows are shown in (see ``order``).
    func orderSlots(from position: Int, limit: Int) -> [UInt32] {
        sorted != nil ? sorted!.slots(from: position, limit: limit) : natural.slots(from: position, limit: limit)
    }

    /// The column with `key`.
    public func column(_ key: String) -> Column? { columnIndex[key].map { columns[$0] } }

    /// The index of the column with `key`.
    public func columnIndex(of key: String) -> Int? { columnIndex[key] }

    /// The value of column `column` in `slot`, the column's store borrowed where it lies:
    /// `stores[column][slot]` copies the store first (retaining and releasing each of its
    /// arrays), which costs more than the cell.
    func cell(_ column: Int, _ slot: UInt32) -> CellValue {
        stores.withUnsafeBufferPointer { $0[column][slot] }
    }

    // MARK: Ids

    /// The id of the row in `slot`.
    func id(of slot: UInt32) -> RowID {
        guard let keyColumn else { return .number(generatedIDs[Int(slot)]) }
        return Self.rowID(forKey: cell(keyColumn, slot)) ?? .text("")
    }

    /// Reads ids from the key column. It holds only that column, not the table, so the key index
    /// can change while it is in use without being copied.
    func keyReader() -> @Sendable (UInt32) -> RowID {
        let store = stores[keyColumn!]
        return { slot in Self.rowID(forKey: store[slot]) ?? .text("") }
    }

    /// The slot of the row with `id`, without scanning.
    func slot(of id: RowID) -> UInt32? {
        if let keyColumn {
            // The key column borrowed where it lies, its cells compared with `id` in place.
            return stores.withUnsafeBufferPointer { stores in
                keyIndex.find(id) { stores[keyColumn].holds(id, at: $0) }
            }
        }
        guard case .number(let number) = id, number >= 1, number <= slotOfGeneratedID.count else { return nil }
        let slot = slotOfGeneratedID[Int(number - 1)]
        return slot == .max ? nil : slot
    }

    /// The row's version: the table's version when its cells or drafts last changed.
    public func rowVersion(of id: RowID) -> UInt64? {
        slot(of: id).map { rowVersion(ofSlot: $0) }
    }

    /// The version of the row in `slot`.
    func rowVersion(ofSlot slot: UInt32) -> UInt64 {
        rowVersions.version(of: slot, tableVersion: version)
    }

    /// The slot of the row with `id`, or ``TableError/noSuchRow(_:)``.
    func requireSlot(_ id: RowID) throws(TableError) -> UInt32 {
        guard let slot = slot(of: id) else { throw .noSuchRow(id) }
        return slot
    }

    /// Where the row with `id` is in the current order.
    public func index(of id: RowID) -> Int? {
        slot(of: id).flatMap { orderPosition(of: $0) }
    }

    // MARK: Read-only

    /// Whether the column's cells are read-only unless a row or cell says otherwise: the key
    /// column always, else its `editable`, else the table's `readOnly`.
    public func columnIsReadOnly(_ column: Int) -> Bool {
        if column == keyColumn || columns[column].isComputed { return true }
        return columns[column].editable.map { !$0 } ?? readOnly
    }

    /// ``columnIsReadOnly(_:)`` of the column with `key`; `false` when there is none.
    public func columnIsReadOnly(key: String) -> Bool {
        // (Not `columnIndex[key].map(columnIsReadOnly)`: the method as a closure copies the table.)
        guard let index = columnIndex[key] else { return false }
        return columnIsReadOnly(index)
    }

    /// How the table is sorted by the column `key`: `ascending`, `descending`, or `nil` when it
    /// is not a sort key.
    public func sortDirection(of key: String) -> String? {
        sortKeys.first { $0.column == key }.map { $0.descending ? "descending" : "ascending" }
    }

    /// Whether the cell may not be edited: the cell's own setting, else the row's, else the
    /// column's, else the table's. A key column never changes (ids are stable).
    func isReadOnly(slot: UInt32, column: Int) -> Bool {
        if column == keyColumn || columns[column].isComputed { return true }
        if !cellReadOnly.isEmpty, let cell = cellReadOnly[slot]?[column] { return cell }
        if let row = flags[Int(slot)].readOnly { return row }
        if let editable = columns[column].editable { return !editable }
        return readOnly
    }

    /// Whether the row in `slot` has a drill-down chevron: its own setting, else the value of
    /// the column bound to `drillDown` (the store at `column`): a chevron unless that cell is
    /// empty, 0, or the text `false`, `no` or `0` in any case; with neither, it has one.
    func drillsDown(_ slot: UInt32, column: Int?) -> Bool {
        if let own = flags[Int(slot)].drillDown { return own }
        guard let column else { return true }
        switch cell(column, slot) {
        case .empty: return false
        case .number(let number): return number != 0
        case let value: return !["false", "no", "0"].contains(columns[column].rules.displayText(value).lowercased())
        }
    }

    // MARK: Slots

    /// A free slot with every column empty and no flags.
    mutating func allocateSlot() -> UInt32 {
        if let slot = freeSlots.popLast() { return slot }
        let slot = UInt32(slotCount)
        slotCount += 1
        for column in stores.indices { stores[column].appendEmpty() }
        rowVersions.appendSlot(slotCount: slotCount - 1)
        flags.append(RowFlags())
        if keyColumn == nil { generatedIDs.append(0) }
        return slot
    }

    /// Makes room for `extra` more rows without growing the arrays again.
    mutating func reserve(extra: Int) {
        let capacity = slotCount + max(0, extra - freeSlots.count)
        for column in stores.indices { stores[column].reserve(capacity) }
        flags.reserveCapacity(capacity)
        rowVersions.reserve(capacity)
        if keyColumn == nil {
            generatedIDs.reserveCapacity(capacity)
            slotOfGeneratedID.reserveCapacity(slotOfGeneratedID.count + extra)
        } else {
            keyIndex.reserve(keyIndex.count + extra, slotsBelow: capacity, idOf: keyReader())
        }
    }

    /// Gives the row in `slot` an id: the next generated one, or its key column value.
    mutating func assignID(to slot: UInt32) -> RowID {
        guard keyColumn != nil else {
            let number = Int64(slotOfGeneratedID.count + 1)
            slotOfGeneratedID.append(slot)
            generatedIDs[Int(slot)] = number
            steps.newRows.append((slot, .number(number)))
            return .number(number)
        }
        let id = id(of: slot)
        keyIndex.insert(slot, id: id, idOf: keyReader())
        steps.newRows.append((slot, id))
        return id
    }

    /// Forgets the row in `slot` and makes the slot free.
    mutating func releaseSlot(_ slot: UInt32) {
        let id = id(of: slot)
        steps.removedIDs.append(id)
        if keyColumn == nil {
            if case .number(let number) = id { slotOfGeneratedID[Int(number - 1)] = .max }
        } else {
            keyIndex.remove(id, idOf: keyReader())
        }
        if flags[Int(slot)].selected { selectedCount -= 1 }
        if let cells = drafts.removeValue(forKey: slot) {
            errorCount -= cells.count
            draftBytes -= Draft.estimatedBytes(of: cells)
        }
        cellReadOnly[slot] = nil
        addedAt[slot] = nil
        flags[Int(slot)] = RowFlags()
        for column in stores.indices { setCell(.empty, slot: slot, column: column, derive: false) }
        freeSlots.append(slot)
    }

    /// Stores a cell's value (see ``storeCell(_:slot:column:)``), then, unless told not to,
    /// works out again the row's computed cells that follow from it.
    mutating func setCell(_ value: CellValue, slot: UInt32, column: Int, derive: Bool = true) {
        storeCell(value, slot: slot, column: column)
        if derive && !computed.isEmpty { deriveCells(of: slot, after: column) }
    }

    /// Stores a cell's value, noting it among the change's steps (what derived from it follows
    /// when the change ends). The row's version becomes the version the change brings the
    /// table to.
    mutating func storeCell(_ value: CellValue, slot: UInt32, column: Int) {
        assert(changeDepth > 0, "a cell set outside beginChange() and endChange()")
        rowVersions.set(slot, to: version + 1, slotCount: slotCount)
        if steps.cells.count < ChangeSteps.cellLimit {
            steps.cells.append((slot, column, cell(column, slot)))
        } else if !steps.tooManyCells {
            // Past this many, the change is taken in whole: widths measured again, views
            // looking at every row.
            steps.tooManyCells = true
            noteRebuilt(.rows)
        }
        stores[column][slot] = value
    }
}

/// Per-row state packed in one byte: selected, and the row's own read-only and drill-down
/// settings.
struct RowFlags: Sendable {
    /// Bit 0: selected; bit 1: the row has its own read-only setting; bit 2: that setting; bit 3:
    /// the row has its own drill-down setting; bit 4: that setting.
    var bits: UInt8 = 0

    init() {}

    init(bits: UInt8) { self.bits = bits & 31 }

    var selected: Bool {
        get { bits & 1 != 0 }
        set { bits = newValue ? bits | 1 : bits & ~1 }
    }

    /// `nil` when the row follows its column and table.
    var readOnly: Bool? {
        get { bits & 2 == 0 ? nil : bits & 4 != 0 }
        set {
            bits &= ~6
            if let newValue { bits |= newValue ? 6 : 2 }
        }
    }

    /// `nil` when the row follows the column bound to `drillDown` (or has the chevron).
    var drillDown: Bool? {
        get { bits & 8 == 0 ? nil : bits & 16 != 0 }
        set {
            bits &= ~24
            if let newValue { bits |= newValue ? 24 : 8 }
        }
    }
}

/// A rejected input kept on its cell until a valid edit or `revert`.
public struct Draft: Sendable, Hashable {
    /// What was typed.
    public var text: String
    /// Why it was rejected.
    public var message: String
}

/// How many rows may be selected at once. (The vocabulary the engine shares with the wire.)
public typealias SelectionMode = RowSelectionMode

/// One key of a sort: a column and a direction.
public struct SortKey: Sendable, Hashable {
    /// The key of the column to sort by.
    public var column: String
    /// Largest first when `true`; smallest first (the default) when `false`.
    public var descending: Bool

    /// A key sorting by `column`, ascending unless `descending`.
    public init(column: String, descending: Bool = false) {
        self.column = column
        self.descending = descending
    }
}
