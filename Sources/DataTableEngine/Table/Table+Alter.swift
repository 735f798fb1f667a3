/// A change of a table's columns and settings, as `alter` asks for it. The parts are done in
/// the order of the members here: definitions changed, columns renamed, dropped, then added.
public struct TableAlteration: Sendable {
    /// New definitions of existing columns, found by key: label, constraints, read-only, picker
    /// options, layout hints. The type stays; a key differing is not a rename (see ``rename``).
    public var change: [Column] = []
    /// Columns to rename: the key now, and the new key (a label that is the key follows it).
    public var rename: [(from: String, to: String)] = []
    /// Keys of columns to drop.
    public var drop: [String] = []
    /// Columns to add.
    public var add: [NewColumn] = []
    /// The table's own read-only setting, when it changes.
    public var readOnly: Bool?
    /// The most rows the table keeps (``Table/rowLimit``), when it changes: 0 for none. A table
    /// above the new limit drops its oldest rows in the same change.
    public var limit: Int?
    /// Stored values that break a column's new constraints stay, each with a draft saying why
    /// (a person fixes them one by one), instead of refusing the change.
    public var keepBrokenAsDrafts = false

    /// An alteration that changes nothing yet.
    public init() {}

    /// Whether the alteration asks for nothing.
    public var isEmpty: Bool {
        change.isEmpty && rename.isEmpty && drop.isEmpty && add.isEmpty && readOnly == nil && limit == nil
    }
}

/// A column for ``Table/alter(_:)`` to add: where, and what every row holds in it.
public struct NewColumn: Sendable {
    /// The column.
    public var column: Column
    /// Its place among the columns once it is in; `nil` puts it last.
    public var index: Int?
    /// The value every existing row gets, as typed; null leaves the cells empty.
    public var value: CellInput

    /// A column to add at `index` (last when `nil`) with `value` in every row.
    public init(column: Column, index: Int? = nil, value: CellInput = .null) {
        self.column = column
        self.index = index
        self.value = value
    }
}

/// What an `alter` (or its undo or redo) changed, by column key.
public struct SchemaSummary: Sendable, Hashable {
    /// Columns added.
    public var added: [String] = []
    /// Columns dropped.
    public var dropped: [String] = []
    /// Columns renamed: the old key and the new.
    public var renamed: [[String]] = []
    /// Columns whose definition changed otherwise.
    public var changed: [String] = []
    /// The table's read-only setting, when it changed.
    public var readOnly: Bool?
    /// The table's row limit, when it changed: 0 for none.
    public var limit: Int?
    /// Cells whose stored values break their column's new constraints, kept with a draft
    /// saying why (``TableAlteration/keepBrokenAsDrafts``).
    public var keptAsDrafts = 0

    /// Every key the change names, each once, in the order met (a rename gives its new key).
    public var columns: [String] {
        var keys: [String] = []
        for key in changed + renamed.map({ $0[1] }) + dropped + added where !keys.contains(key) { keys.append(key) }
        return keys
    }
}

/// One schema change as the history keeps it: column edits, done in order.
struct SchemaChange: Sendable {
    enum Edit: Sendable {
        /// A column put in at `index`: its values in the table's own order when it comes back,
        /// else `fill` in every row.
        case insert(index: Int, column: Column, values: SavedColumn?, fill: CellValue)
        /// The column at `index` taken out.
        case remove(index: Int)
        /// The column at `index` given a new definition (key, label, rules, hints).
        case replace(index: Int, column: Column)
        /// The table's own read-only setting.
        case tableReadOnly(Bool)
        /// The most rows the table keeps (rows past it are dropped by the change itself).
        case rowLimit(Int?)
    }

    /// A dropped column's cells, by place in the table's own order: values, the cells' own
    /// read-only settings and drafts.
    struct SavedColumn: Sendable {
        var store: ColumnStore
        var readOnly: [Int: Bool] = [:]
        var drafts: [Int: Draft] = [:]
    }

    var edits: [Edit]

    /// Cells the change writes.
    var weight: Int {
        edits.reduce(0) { total, edit in
            switch edit {
            case .insert(_, _, let values, _): total + (values?.store.count ?? 1)
            default: total + 1
            }
        }
    }
}

extension Table {
    /// Changes the table's columns and settings as one change that undo takes back: every part
    /// is checked before anything changes, and a refused part refuses the whole. A dropped
    /// column may not be the key or a sort key; views never hold it up: a view's filter loses
    /// its conditions on the column, and a view grouped by it its sections
    /// (``viewLosses(of:after:)`` tells the view). New
    /// constraints must hold for every value already stored: otherwise ``TableError/invalidValues(_:)``
    /// lists the first 100 that break them. Widths measured for layout are measured again. A
    /// new `limit` below the rows there are drops the oldest, one version later
    /// (``droppedByLimit``).
    public mutating func alter(_ alteration: TableAlteration) throws(TableError) -> SchemaSummary {
        beginChange()
        defer { endChange() }
        guard !alteration.isEmpty else {
            throw .invalidArgument("Say what to change: change, rename, drop, add, readOnly or limit.", field: "params")
        }
        let (edits, broken) = try plan(alteration)
        var (inverse, summary) = applySchema(SchemaChange(edits: edits))
        // Cells whose values break their column's new rules show why, in their column found
        // again by the key it has now (unless it was dropped).
        var drafts = DraftChange(entries: [])
        for cell in broken {
            guard !alteration.drop.contains(cell.key), let column = columnIndex[cell.key] else { continue }
            drafts.entries.append(
                .init(id: id(of: cell.slot), column: column, old: self.drafts[cell.slot]?[column], new: cell.draft)
            )
            setDraft(cell.draft, slot: cell.slot, column: column)
        }
        summary.keptAsDrafts = drafts.entries.count
        version += 1
        // A new limit below the rows there are drops the oldest, one version later.
        let dropped = dropPastLimit()
        record([.schema(inverse)] + (drafts.entries.isEmpty ? [] : [.drafts(drafts)]) + (dropped.map { [$0] } ?? []))
        return summary
    }

    /// Checks every part of `alteration` against the table (changing nothing) and returns the
    /// edits that make it, and the stored values that break their column's new rules (each with
    /// its column's key once the alteration is made, and the draft it keeps).
    ///
    /// The columns as each part leaves them are followed without copying the table's (see
    /// ``PlannedColumns``), and nothing of them outlives the check: the table's columns are then
    /// changed in place, not copied.
    private func plan(_ alteration: TableAlteration) throws(TableError) -> (
        edits: [SchemaChange.Edit], broken: [(slot: UInt32, key: String, draft: Draft)]
    ) {
        var working = PlannedColumns(columns: columns, index: columnIndex)
        var edits: [SchemaChange.Edit] = []
        var broken: [(slot: UInt32, column: Int, draft: Draft)] = []
        // Changed columns' base indices, by their place in `change`.
        var changedAt: [Int: Int] = [:]
        func position(_ key: String) throws(TableError) -> Int {
            guard let index = working.baseIndex(of: key) else { throw .noSuchColumn(key, row: nil) }
            return index
        }
        for (offset, column) in alteration.change.enumerated() {
            let index = try position(column.key)
            let current = working.column(atBase: index)
            if column.isComputed || current.isComputed {
                edits.append(.replace(index: index, column: try redefinition(current, as: column, at: offset)))
                working.replace(atBase: index, with: edits.last!.column!)
                changedAt[index] = offset
                continue
            }
            guard column.type == current.type else {
                throw .invalidSchema(
                    "A column's type cannot change (\(column.key) is \(current.type.rawValue)); add a new "
                        + "column instead.",
                    field: "change[\(offset)].type"
                )
            }
            let problems = brokenValues(of: index, against: column.rules, all: alteration.keepBrokenAsDrafts)
            if !problems.isEmpty {
                guard alteration.keepBrokenAsDrafts else {
                    throw .invalidValues(
                        problems.prefix(Self.problemLimit).map { problem in
                            CellProblem(
                                id: id(of: problem.slot),
                                column: column.key,
                                input: problem.draft.text,
                                message: problem.draft.message
                            )
                        }
                    )
                }
                broken += problems.map { ($0.slot, index, $0.draft) }
            }
            var changed = column
            if index == keyColumn { changed.editable = current.editable }
            try TableSchema.checkLayout([changed.layout], types: [changed.type]) { _ in "change[\(offset)]" }
            edits.append(.replace(index: index, column: changed))
            working.replace(atBase: index, with: changed)
            changedAt[index] = offset
        }
        for (from, to) in alteration.rename {
            let index = try position(from)
            guard !working.contains(to) else {
                throw .invalidSchema("There is already a column \(to).", field: "rename.\(from)")
            }
            try TableSchema.checkKey(to, field: "rename.\(from)")
            var renamed = working.column(atBase: index)
            // A label that was the key (none was given) follows it.
            if renamed.label == renamed.key { renamed.label = to }
            renamed.key = to
            edits.append(.replace(index: index, column: renamed))
            working.replace(atBase: index, with: renamed)
        }
        // Expressions that named a renamed or relabelled column name it by its key again.
        // (Looked at only when the table has computed columns: an alter of a table without is
        // still checked at the cost of what it changes.)
        if !computed.isEmpty && (!alteration.rename.isEmpty || !changedAt.isEmpty) {
            for (index, column) in renamedReferences(in: working, except: Set(changedAt.keys)) {
                edits.append(.replace(index: index, column: column))
                working.replace(atBase: index, with: column)
            }
        }
        for key in alteration.drop {
            // The column as the table has it now, found by its key before any rename above.
            let current = try position(key)
            if current == keyColumn {
                throw .invalidArgument("\(key) is the key column: the rows' ids; it cannot be dropped.", field: "drop")
            }
            if resolvedSortKeys.contains(where: { $0.column == current }) {
                throw .invalidArgument("The table is sorted by \(key); sort by other columns first.", field: "drop")
            }
            // A view that filters or groups by the column never holds the change up: it loses
            // that part when the change is made (``viewsLose(column:)``).
            edits.append(.remove(index: working.drop(atBase: current)))
        }
        for (offset, new) in alteration.add.enumerated() {
            let index = new.index ?? working.count
            guard index >= 0 && index <= working.count else {
                throw .invalidArgument("index must be from 0 to \(working.count).", field: "add[\(offset)].index")
            }
            try TableSchema.checkKey(new.column.key, field: "add[\(offset)].key")
            guard !working.contains(new.column.key) else {
                throw .invalidSchema("Two columns have the key \(new.column.key).", field: "add[\(offset)].key")
            }
            try TableSchema.checkLayout([new.column.layout], types: [new.column.type]) { _ in "add[\(offset)]" }
            if new.column.isComputed && new.value != .null {
                throw .invalidArgument(
                    "A computed column's values come from its expression; leave value out.",
                    field: "add[\(offset)].value"
                )
            }
            let fill: CellValue
            do throws(ValidationFailure) {
                fill = try new.column.rules.parse(new.value)
            } catch {
                throw .invalidValues([
                    CellProblem(row: offset, column: new.column.key, input: new.value.draftText, message: error.message)
                ])
            }
            edits.append(.insert(index: index, column: new.column, values: nil, fill: fill))
            working.add(new.column, at: index)
        }
        if let readOnly = alteration.readOnly { edits.append(.tableReadOnly(readOnly)) }
        if let newLimit = alteration.limit {
            guard newLimit >= 0 else {
                throw .invalidArgument("limit must be 0 (no limit) or more.", field: "limit")
            }
            edits.append(.rowLimit(newLimit == 0 ? nil : newLimit))
        }
        try checkTogether(working, changedAt: changedAt)
        if !computed.isEmpty || working.added.contains(where: { $0.column.isComputed })
            || changedAt.keys.contains(where: { working.column(atBase: $0).isComputed })
        {
            edits = try checkComputed(working, edits: edits, drop: alteration.drop, changedAt: changedAt)
        }
        return (edits, broken.map { ($0.slot, working.column(atBase: $0.column).key, $0.draft) })
    }

    /// The checks of an alteration that look at the columns together, once every part is
    /// checked on its own: some column is left, the key column is still there, and layout hints
    /// that only one column may have (flexible width, sticky, a list-report place) are had by
    /// one. Those are looked for among every column only when a changed or added column has
    /// such a hint, or a column goes in first: otherwise the columns the table had still pass.
    private func checkTogether(_ working: PlannedColumns, changedAt: [Int: Int]) throws(TableError) {
        guard working.count > 0 else { throw .invalidSchema("A table needs at least one column.", field: "drop") }
        if let keyColumn {
            let key = columns[keyColumn].key
            let type =
                working.baseIndex(of: key).map { working.column(atBase: $0).type }
                ?? working.added.last { $0.column.key == key }?.column.type
            guard let type else {
                throw .invalidSchema("The key column \(key) is not among the columns.", field: "key")
            }
            guard type == .text || type == .number else {
                throw .invalidSchema("A key column must be text or number.", field: "key")
            }
        }
        let new = changedAt.keys.map { working.column(atBase: $0).layout } + working.added.map(\.column.layout)
        let together = new.contains { $0.width == -1 || $0.isSticky || $0.binding != nil }
        guard together || working.added.contains(where: { $0.index == 0 }) else { return }
        let all = working.materialized()
        try TableSchema.checkLayout(all.map(\.column.layout), types: all.map(\.column.type)) { index in
            if let added = all[index].added { return "add[\(added)]" }
            if let base = all[index].base, let offset = changedAt[base] { return "change[\(offset)]" }
            return "columns[\(index)]"
        }
    }

    /// The stored values of column `index` that `rules` refuse, each as the draft it would
    /// keep (the value as shown, and why): the first 100, or `all`.
    private func brokenValues(of index: Int, against rules: ColumnRules, all: Bool) -> [(slot: UInt32, draft: Draft)] {
        var problems: [(slot: UInt32, draft: Draft)] = []
        let store = stores[index]
        natural.forEachSlot { slot in
            guard all || problems.count < Self.problemLimit else { return }
            let value = store[slot]
            do throws(ValidationFailure) {
                try rules.check(value)
            } catch {
                problems.append((slot, Draft(text: columns[index].rules.displayText(value), message: error.message)))
            }
        }
        return problems
    }

    /// Makes a schema change; returns the change that takes it back, and what changed.
    mutating func applySchema(_ change: SchemaChange) -> (inverse: SchemaChange, summary: SchemaSummary) {
        var inverse: [SchemaChange.Edit] = []
        var summary = SchemaSummary()
        var deriving: Set<String> = []
        var computedIn = false
        for edit in change.edits {
            inverse.insert(apply(edit, summary: &summary), at: 0)
            switch edit {
            case .insert(_, let column, let values, _) where column.isComputed:
                computedIn = true
                if values == nil { deriving.insert(column.key) }
            case .replace(_, let column) where column.isComputed: deriving.insert(column.key)
            default: break
            }
        }
        if !computed.isEmpty || computedIn { rebuildComputed(deriving: deriving) }
        // (The columns' indexes by key are kept in step by each edit, at the cost of what it
        // changes.) When the change settles, widths are measured again when a layout asks, and
        // filters look at every row again (a search reads every column).
        steps.schema = true
        return (SchemaChange(edits: inverse), summary)
    }

    private mutating func apply(_ edit: SchemaChange.Edit, summary: inout SchemaSummary) -> SchemaChange.Edit {
        guard fits(edit) else { return .tableReadOnly(readOnly) }
        switch edit {
        case .insert(let index, let column, let values, let fill):
            var store = ColumnStore(type: column.type, emptySlots: slotCount)
            if let values {
                var row: UInt32 = 0
                natural.forEachSlot { slot in
                    store[slot] = values.store[row]
                    row += 1
                }
            } else if fill != .empty {
                natural.forEachSlot { slot in store[slot] = fill }
            }
            insertColumn(column, at: index)
            stores.insert(store, at: index)
            renumberColumns { $0 >= index ? $0 + 1 : $0 }
            for (row, readOnly) in values?.readOnly ?? [:] {
                cellReadOnly[natural.slot(at: row), default: [:]][index] = readOnly
            }
            for (row, draft) in values?.drafts ?? [:] { setDraft(draft, slot: natural.slot(at: row), column: index) }
            summary.added.append(column.key)
            return .remove(index: index)
        case .remove(let index):
            let slots = natural.allSlots
            var values = SchemaChange.SavedColumn(store: stores[index].gathering(slots))
            if !cellReadOnly.isEmpty || !drafts.isEmpty {
                for (row, slot) in slots.enumerated() {
                    if let readOnly = cellReadOnly[slot]?[index] { values.readOnly[row] = readOnly }
                    if let draft = drafts[slot]?[index] { values.drafts[row] = draft }
                }
            }
            viewsLose(column: index)
            let column = removeColumn(at: index)
            stores.remove(at: index)
            renumberColumns { $0 == index ? nil : $0 > index ? $0 - 1 : $0 }
            dropEmptyFilters()
            summary.dropped.append(column.key)
            return .insert(index: index, column: column, values: values, fill: .empty)
        case .replace(let index, let column):
            let old = replaceColumn(at: index, with: column)
            if old.key != column.key {
                sortKeys = sortKeys.map {
                    $0.column == old.key ? SortKey(column: column.key, descending: $0.descending) : $0
                }
                summary.renamed.append([old.key, column.key])
            } else {
                summary.changed.append(column.key)
            }
            return .replace(index: index, column: old)
        case .tableReadOnly(let readOnly):
            let old = self.readOnly
            self.readOnly = readOnly
            summary.readOnly = readOnly
            return .tableReadOnly(old)
        case .rowLimit(let newLimit):
            let old = limit
            limit = newLimit
            settleNaturalOrder()
            summary.limit = newLimit ?? 0
            return .rowLimit(old)
        }
    }

    /// Whether `edit` can be made to the table as it is (one from its own history always can).
    private func fits(_ edit: SchemaChange.Edit) -> Bool {
        switch edit {
        case .insert(let index, let column, let values, _):
            index <= columns.count
                && (values.map {
                    $0.store.count == rowCount && $0.store.type == column.type
                        && $0.readOnly.keys.allSatisfy { $0 < rowCount } && $0.drafts.keys.allSatisfy { $0 < rowCount }
                } ?? true)
        case .remove(let index): index < columns.count && index != keyColumn
        case .replace(let index, let column): index < columns.count && columns[index].type == column.type
        case .tableReadOnly: true
        case .rowLimit(let limit): (limit ?? 1) >= 1
        }
    }

    /// Columns moved: `map` gives each old index its new one, `nil` for a column gone (its
    /// drafts and read-only cells go with it).
    private mutating func renumberColumns(_ map: (Int) -> Int?) {
        keyColumn = keyColumn.flatMap(map)
        if !drafts.isEmpty {
            var renumbered: [UInt32: [Int: Draft]] = [:]
            for (slot, cells) in drafts {
                var kept: [Int: Draft] = [:]
                for (column, draft) in cells {
                    if let new = map(column) {
                        kept[new] = draft
                    } else {
                        errorCount -= 1
                        draftBytes -= draft.estimatedBytes
                    }
                }
                if !kept.isEmpty { renumbered[slot] = kept }
            }
            drafts = renumbered
        }
        if !cellReadOnly.isEmpty {
            var renumbered: [UInt32: [Int: Bool]] = [:]
            for (slot, cells) in cellReadOnly {
                var kept: [Int: Bool] = [:]
                for (column, readOnly) in cells { if let new = map(column) { kept[new] = readOnly } }
                if !kept.isEmpty { renumbered[slot] = kept }
            }
            cellReadOnly = renumbered
        }
        for index in filters.indices { filters[index].filter.renumberColumns(map) }
        for index in sections.indices {
            sections[index].spec.columns = sections[index].spec.columns.map { map($0) ?? $0 }
        }
    }
}

extension SchemaChange.Edit {
    /// The column an insert or a replace puts in.
    var column: Column? {
        switch self {
        case .insert(_, let column, _, _), .replace(_, let column): column
        default: nil
        }
    }
}

extension Table {
    // MARK: Computed columns in an alteration

    /// The new definition of `current` that `new` gives (`change[offset]`), when either is
    /// computed: a computed column stays computed and keeps its type; its display settings
    /// are taken for that type.
    fileprivate func redefinition(_ current: Column, as new: Column, at offset: Int) throws(TableError) -> Column {
        guard let expression = new.expression, current.isComputed else {
            throw .invalidSchema(
                current.isComputed
                    ? "\(current.key) is computed; give its expression, or drop it and add a stored column."
                    : "\(current.key) holds stored values; drop it and add a computed column instead.",
                field: "change[\(offset)].expression"
            )
        }
        if let declared = expression.declaredType, declared != current.type {
            throw .invalidSchema(
                "A column's type cannot change (\(current.key) is \(current.type.rawValue)); add a new column instead.",
                field: "change[\(offset)].type"
            )
        }
        var column = new
        do throws(ValidationFailure) {
            column.rules = try ColumnRules(type: current.type, decimals: expression.decimals, style: expression.style)
        } catch {
            throw .invalidSchema(
                "change[\(offset)] (\(new.key)): \(error.message)",
                field:
                    "change[\(offset)].\(expression.decimals != nil && current.type != .number ? "decimals" : "format")"
            )
        }
        try TableSchema.checkLayout([column.layout], types: [column.type]) { _ in "change[\(offset)]" }
        return column
    }

    /// Computed columns (by base index) whose expressions name a column that the renames and
    /// new labels of `working` would make them miss or mistake, each with its expression
    /// written to name that column by its key. Columns in `except` got new expressions.
    fileprivate func renamedReferences(in working: PlannedColumns, except: Set<Int>) -> [(Int, Column)] {
        let before = ExpressionScope(columns: columns, types: columns.map { _ in .number })
        let now = columns.indices.map { working.column(atBase: $0) }
        let after = ExpressionScope(columns: now, types: now.map { _ in .number })
        var rewritten: [(Int, Column)] = []
        for index in columns.indices where columns[index].isComputed && !except.contains(index) {
            let source = columns[index].expression!.source
            guard let references = try? ExpressionParser.parse(source).references else { continue }
            var scalars = Array(source.unicodeScalars)
            var changed = false
            // From the last, so that earlier offsets still hold.
            for reference in references.reversed() {
                guard case .success(let target) = before.resolve(reference.name) else { continue }
                if case .success(let found) = after.resolve(reference.name), found == target { continue }
                let key = now[target].key
                let written =
                    ExpressionLexer.isBareName(key) ? key : "`" + key.replacingOccurrences(of: "`", with: "``") + "`"
                scalars.replaceSubrange(
                    reference.offset..<reference.offset + reference.length,
                    with: Array(written.unicodeScalars)
                )
                changed = true
            }
            guard changed else { continue }
            var column = now[index]
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            column.expression!.source = String(text)
            rewritten.append((index, column))
        }
        return rewritten
    }

    /// Checks the computed columns the alteration leaves: none names a dropped column (unless
    /// it goes too), every expression checks against the columns as they will be, and a
    /// redefined column keeps its type. Returns `edits` with each added computed column's
    /// type and display rules worked out.
    fileprivate func checkComputed(
        _ working: PlannedColumns,
        edits: [SchemaChange.Edit],
        drop: [String],
        changedAt: [Int: Int]
    ) throws(TableError) -> [SchemaChange.Edit] {
        let all = working.materialized()
        let finals = all.map(\.column)
        let scope = ExpressionScope(columns: finals, types: finals.map { _ in .number })
        let dropped = ExpressionScope(
            columns: drop.compactMap { columnIndex[$0].map { columns[$0] } },
            types: drop.map { _ in .number }
        )
        for column in finals where column.isComputed {
            guard let references = try? ExpressionParser.parse(column.expression!.source).references else { continue }
            for reference in references {
                guard case .failure = scope.resolve(reference.name),
                    case .success(let gone) = dropped.resolve(reference.name)
                else { continue }
                let name = dropped.columns[gone].key
                throw .invalidExpression(
                    "\(name) is used by the expression of \(column.key); drop \(column.key) too, or change its "
                        + "expression in the same alter.",
                    field: "drop",
                    offset: reference.offset
                )
            }
        }
        let (resolved, compiled) = try Self.resolveComputed(finals) { position in
            if let added = all[position].added { return "add[\(added)]" }
            if let base = all[position].base, let offset = changedAt[base] { return "change[\(offset)]" }
            return "columns[\(position)]"
        }
        // A sort key cannot come to follow the view's order: the rows' order would follow itself.
        for key in resolvedSortKeys {
            guard let position = all.firstIndex(where: { $0.base == key.column }),
                compiled.viewOrder[position] != nil, let offset = changedAt[key.column]
            else { continue }
            throw .invalidExpression(
                "\(all[position].column.key) is a sort key and cannot follow the view's order; sort by other "
                    + "columns first.",
                field: "change[\(offset)].expression",
                offset: 0
            )
        }
        for (position, entry) in all.enumerated() {
            guard let base = entry.base, let offset = changedAt[base], entry.column.isComputed,
                resolved[position].type != columns[base].type
            else { continue }
            throw .invalidExpression(
                "\(entry.column.key): the expression gives \(resolved[position].type.rawValue), but the column is "
                    + "\(columns[base].type.rawValue) and a column's type cannot change; add a new column instead.",
                field: "change[\(offset)].expression",
                offset: 0
            )
        }
        let byKey = Dictionary(uniqueKeysWithValues: resolved.map { ($0.key, $0) })
        return edits.map { edit in
            guard case .insert(let index, let column, let values, let fill) = edit, column.isComputed, values == nil,
                let typed = byKey[column.key]
            else { return edit }
            return .insert(index: index, column: typed, values: nil, fill: fill)
        }
    }

    /// After a schema change: the computed columns compiled against the columns as they are,
    /// and the values of those named in `deriving` (by key) and of what follows from them
    /// worked out for every row; a sort by any of them sorts again.
    mutating func rebuildComputed(deriving keys: Set<String>) {
        guard let (resolved, compiled) = try? ComputedColumns.resolve(columns) else {
            // (An alteration is checked before it is made, and the history only takes the
            // table back to columns it had: this does not happen. The values then stay.)
            computed = ComputedColumns()
            return
        }
        for index in columns.indices where columns[index].isComputed {
            columns[index].rules = resolved[index].rules
            columns[index].expression = resolved[index].expression
        }
        computed = compiled
        let wanted = Set(keys.compactMap { columnIndex[$0] }.filter { columns[$0].isComputed })
        guard !wanted.isEmpty else { return }
        deriveColumns(wanted)
        var derived = wanted
        for column in wanted { derived.formUnion(computed.dependents(of: column)) }
        if resolvedSortKeys.contains(where: { derived.contains($0.column) }) { try? sort(by: sortKeys) }
    }
}
