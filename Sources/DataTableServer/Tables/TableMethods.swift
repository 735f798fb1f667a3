import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// The table methods: `create` … `redo` (protocol.md, "Tables").
    mutating func registerTableMethods() {
        register(CreateRequest.self) { request, context in try Self.create(request, context) }
        register(DropRequest.self) { request, context in
            let requester = context.requester
            let table = try context.server.tables.remove(
                request.table,
                if: { table in
                    try requester.check(.own, table)
                    try context.server.claimRoom(forChangeTo: table.name)
                }
            ) { table in
                context.server.publish(table, .schema, from: table.version) { $0.change = "dropped" }
            }
            return DropRequest.Response(table: request.table, dropped: true, rows: table.rowCount)
        }
        registerImmediate(ChmodRequest.self) { request, context in try Self.chmod(request, context) }
        registerImmediate(TablesRequest.self) { _, context in
            let requester = context.requester
            return TablesRequest.Response(
                tables: context.server.tables.all.compactMap { entry in
                    entry.read { table in
                        guard requester.may(.read, table.access) else { return nil }
                        return TablesRequest.Summary(
                            name: table.name,
                            rows: table.rowCount,
                            columns: table.columns.count,
                            version: Int(table.version),
                            selected: table.selectedCount,
                            errors: table.errorCount,
                            owner: Int(table.access.owner),
                            group: Int(table.access.group),
                            mode: table.access.modeText
                        )
                    }
                }
            )
        }
        registerImmediate(DescribeRequest.self) { request, context in
            try context.server.read(request.table, by: context.requester) { table in
                DescribeRequest.Response(
                    table: table.name,
                    columns: table.columns.map(WireSchema.definition),
                    key: table.keyColumn.map { table.columns[$0].key },
                    sort: WireSchema.sortParams(table.sortKeys),
                    readOnly: table.readOnly,
                    selection: table.selectionMode.rawValue,
                    rows: table.rowCount,
                    selected: table.selectedCount,
                    errors: table.errorCount,
                    version: Int(table.version),
                    canUndo: table.canUndo,
                    canRedo: table.canRedo,
                    owner: Int(table.access.owner),
                    group: Int(table.access.group),
                    mode: table.access.modeText
                )
            }
        }
        registerImmediate(AddRequest.self, when: { ($0.rows?.count ?? 0) <= Self.smallBatch }) { request, context in
            try Self.add(request, &context)
        }
        registerImmediate(EditRequest.self, when: { $0.selection != true && ($0.edits?.count ?? 0) <= Self.smallBatch })
        {
            request,
            context in try Self.edit(request, context.server, by: context.requester)
        }
        registerImmediate(RevertRequest.self, when: { $0.id != nil }) { request, context in
            let id = try request.id.map { value throws(ResponseError) in try WireValues.rowID(value, field: "params.id")
            }
            return try context.server.update(request.table, by: context.requester, needing: .write) { table in
                let before = table.version
                let cleared = try table.revert(id: id, column: request.column)
                if cleared > 0 { context.server.publish(table, .drafts, from: before) { $0.errors = table.errorCount } }
                return RevertRequest.Response(
                    table: table.name,
                    version: Int(table.version),
                    cleared: cleared,
                    errors: table.errorCount
                )
            }
        }
        register(DeleteRequest.self) { request, context in
            try Self.delete(request, context.server, by: context.requester)
        }
        registerImmediate(
            GetRequest.self,
            replying: GetReply.self,
            when: { ($0.ids?.count ?? $0.count ?? 100) <= Self.smallBatch }
        ) { request, context in try Self.get(request, context.server, by: context.requester) }
        register(SelectRequest.self) { request, context in
            // Selecting all, none or a new mode touches every row; so does setting the selection
            // of a large table while rows are selected (the old selection is cleared).
            guard request.mode == nil, request.action != "all", request.action != "none",
                (request.ids?.count ?? request.count ?? 1) <= Self.smallBatch
            else { return nil }
            // (A table that is not there is for `select` itself to refuse, in its order.)
            if (request.action ?? "set") == "set",
                (try? context.server.read(request.table, by: context.requester) {
                    $0.selectedCount > 0 && $0.rowCount >= ServerState.offLockRows
                })
                    == true
            {
                return nil
            }
            return try Self.select(request, context.server, by: context.requester)
        } otherwise: { request, context in
            try Self.select(request, context.server, by: context.requester)
        }
        register(SelectionRequest.self) { request, context in
            try context.server.read(request.table, by: context.requester) { table in
                SelectionRequest.Response(
                    table: table.name,
                    version: Int(table.version),
                    count: table.selectedCount,
                    mode: table.selectionMode.rawValue,
                    ids: table.selectedIDs().map(WireValues.json)
                )
            }
        }
        register(SortRequest.self) { request, context in
            let keys = WireSchema.sortKeys(request.keys ?? [])
            let server = context.server
            // A million rows take most of a second to sort: on a copy, off the lock.
            return try await server.updateOffLock(request.table, by: context.requester) { table in
                try table.sort(by: keys)
            } install: { table, _, before in
                let keys = WireSchema.sortParams(table.sortKeys)
                server.publish(table, .sort, from: before) { $0.keys = keys }
                return SortRequest.Response(table: table.name, version: Int(table.version), keys: keys)
            }
        }
        register(UndoRequest.self) { request, context in
            try context.server.update(request.table, by: context.requester, needing: .write) { table in
                let before = table.version
                let cells = try table.undo()
                context.server.publish(table, .edited, from: before) { $0.list(cells) }
                return Self.undoReply(cells, table)
            }
        }
        register(RedoRequest.self) { request, context in
            try context.server.update(request.table, by: context.requester, needing: .write) { table in
                let before = table.version
                let cells = try table.redo()
                context.server.publish(table, .edited, from: before) { $0.list(cells) }
                return Self.undoReply(cells, table)
            }
        }
        register(LoadRequest.self) { request, context in try await Self.load(request, &context) }
        register(UploadRequest.self) { request, context in try Self.upload(request, &context) }
        register(ExportRequest.self, replying: ExportReply.self) { request, context in
            try await Self.export(request, context)
        }
    }

    /// The most rows or cells a request answered on the event loop names; larger ones run off it.
    static let smallBatch = 1000

    private static func create(_ request: CreateRequest, _ context: RequestContext) throws -> CreateRequest.Response {
        let server = context.server
        try TableCatalog.checkName(request.table)
        let mode = try server.tableMode(request.mode)
        var table = try Table(
            name: request.table,
            columns: try WireSchema.columns(request.columns),
            key: request.key,
            readOnly: request.readOnly ?? false,
            selectionMode: try WireSchema.selectionMode(request.selection, field: "params.selection") ?? .multiple
        )
        if let sort = request.sort { try table.sort(by: WireSchema.sortKeys(sort)) }
        if let rows = request.rows, !rows.isEmpty {
            let inputs = try rows.enumerated().map { index, row throws(ResponseError) in
                try WireValues.rowInput(row, field: "params.rows[\(index)]")
            }
            // Rows a table is created with are its starting content, not news: no highlight.
            _ = try table.add(inputs, now: 0)
        }
        table.access = context.requester.access(mode: mode)
        let created = table
        try server.checkMemory()
        try server.checkUserMemory(owner: created.access.owner, adding: created.estimatedBytes)
        try server.checkRows(created.rowCount, table: created.name)
        try server.tables.insert(created, check: server.checkRoomForTable) { created in
            // The whole table, not the request: its owner is the peer who made it, and its mode
            // what --table-mode said then (a replay has neither).
            if server.journal != nil {
                let image = TableImageCoding.encode(created)
                try server.claimRoom(forImage: image)
                server.recordWhole(image: image)
            }
            server.publish(created, .schema, from: 0) { $0.change = "created" }
        }
        return TableVersion(table: created.name, version: Int(created.version), rows: created.rowCount)
    }

    private static func add(_ request: AddRequest, _ context: inout RequestContext) throws -> AddRequest.Response {
        let server = context.server
        var inputs: [RowInput] = []
        if let row = request.row { inputs.append(try WireValues.rowInput(row, field: "params.row")) }
        for (index, row) in (request.rows ?? []).enumerated() {
            inputs.append(try WireValues.rowInput(row, field: "params.rows[\(index)]"))
        }
        guard !inputs.isEmpty else {
            throw ResponseError.invalidParams("Give row (one object) or rows (an array).", field: "params.row")
        }
        guard request.row == nil || request.rows == nil else {
            throw ResponseError.invalidParams("Give row or rows, not both.", field: "params.rows")
        }
        guard inputs.count <= server.limits.maxBatchSize else {
            throw ResponseError.limitExceeded(
                "A batch may add at most \(server.limits.maxBatchSize) rows; use load for more.",
                limit: "maxBatchSize",
                value: server.limits.maxBatchSize
            )
        }
        // Rows a replay brings back are not news: no highlight.
        let now = context.isReplay ? 0 : Date().timeIntervalSince1970
        var view = context.views[request.table]
        let reply = try server.update(request.table, by: context.requester, needing: .write) { table in
            let before = table.version
            try server.checkMemory()
            try server.checkRows(table.rowCount + inputs.count, table: table.name)
            try server.checkUserMemory(
                owner: table.access.owner,
                adding: ServerState.estimatedBytes(rows: inputs.count, columns: table.columns.count)
            )
            let added = try table.add(inputs, at: request.index, now: now)
            server.publish(table, .added, from: before) { $0.list(added.map(\.id)) }
            return AddRequest.Response(
                table: table.name,
                version: Int(table.version),
                rows: table.rowCount,
                added: added.map { row in
                    var scrollTo: Int?
                    if let options = view?.resolved?.options {
                        scrollTo = try? table.offset(bringingIntoView: row.id, options: options, view: &view!.state)
                    }
                    return .init(
                        id: WireValues.json(row.id),
                        index: row.index,
                        addedAt: WireValues.timestamp(row.addedAt),
                        scrollTo: scrollTo
                    )
                }
            )
        }
        if let view { context.views[request.table] = view }
        return reply
    }

    private static func edit(_ request: EditRequest, _ server: ServerState, by requester: Requester) throws
        -> EditRequest.Response
    {
        enum Shape {
            case cells([CellEdit])
            case selection(column: String, input: CellInput)
        }
        let shape: Shape
        if let edits = request.edits {
            guard request.id == nil, request.value == nil, request.selection != true else {
                throw ResponseError.invalidParams(
                    "Give edits, or id, column and value, not both.",
                    field: "params.edits"
                )
            }
            guard edits.count <= server.limits.maxBatchSize else {
                throw ResponseError.limitExceeded(
                    "A batch may set at most \(server.limits.maxBatchSize) cells.",
                    limit: "maxBatchSize",
                    value: server.limits.maxBatchSize
                )
            }
            shape = .cells(
                try edits.enumerated().map { index, edit throws(ResponseError) in
                    let field = "params.edits[\(index)]"
                    return CellEdit(
                        id: try WireValues.rowID(edit.id, field: field + ".id"),
                        column: edit.column,
                        input: try WireValues.cellInput(edit.value, field: field + ".value")
                    )
                }
            )
        } else {
            guard let column = request.column else {
                throw ResponseError.invalidParams("params.column is required.", field: "params.column")
            }
            guard let value = request.value else {
                throw ResponseError.invalidParams("params.value is required.", field: "params.value")
            }
            let input = try WireValues.cellInput(value, field: "params.value")
            if request.selection == true {
                guard request.id == nil else {
                    throw ResponseError.invalidParams("Give id or selection: true, not both.", field: "params.id")
                }
                shape = .selection(column: column, input: input)
            } else {
                guard let id = request.id else {
                    throw ResponseError.invalidParams("params.id is required (or selection: true).", field: "params.id")
                }
                shape = .cells([
                    CellEdit(id: try WireValues.rowID(id, field: "params.id"), column: column, input: input)
                ])
            }
        }
        return try server.update(request.table, by: requester, needing: .write) { table in
            let before = table.version
            let cells: [EditedCell]
            do {
                switch shape {
                case .cells(let edits): cells = try table.edit(edits)
                case .selection(let column, let input): cells = try table.editSelection(column: column, input: input)
                }
            } catch {
                // A refused edit still keeps its drafts.
                if table.version != before {
                    server.publish(table, .drafts, from: before) { $0.errors = table.errorCount }
                }
                throw error
            }
            if !cells.isEmpty {
                server.publish(table, .edited, from: before) {
                    $0.list(cells)
                    $0.errors = table.errorCount
                }
            }
            return EditRequest.Response(
                table: table.name,
                version: Int(table.version),
                edited: cells.count,
                cells: WireValues.cells(cells, in: table, limit: 1000),
                errors: table.errorCount
            )
        }
    }

    private static func delete(_ request: DeleteRequest, _ server: ServerState, by requester: Requester) throws
        -> DeleteRequest.Response
    {
        let ids = try request.ids.map { values throws(ResponseError) in
            try WireValues.rowIDs(values, field: "params.ids")
        }
        guard (ids == nil) != (request.selection != true) else {
            throw ResponseError.invalidParams("Give ids or selection: true (one of them).", field: "params.ids")
        }
        return try server.update(request.table, by: requester, needing: .write) { table in
            let before = table.version
            // The selection's ids, only when someone will be told about them.
            let selected = ids == nil && server.events.hasSubscribers(table.name) ? table.selectedIDs() : nil
            let deleted = try ids.map { ids throws(TableError) in try table.delete(ids) } ?? table.deleteSelection()
            if deleted > 0 {
                server.publish(table, .deleted, from: before) { event in
                    if let listed = ids ?? selected {
                        var seen: Set<RowID> = []
                        event.list(listed.filter { seen.insert($0).inserted })
                    } else {
                        event.count = deleted
                    }
                }
            }
            return DeleteRequest.Response(
                table: table.name,
                version: Int(table.version),
                deleted: deleted,
                rows: table.rowCount
            )
        }
    }

    private static func get(_ request: GetRequest, _ server: ServerState, by requester: Requester) throws -> GetReply {
        let ids = try request.ids.map { values throws(ResponseError) in
            try WireValues.rowIDs(values, field: "params.ids")
        }
        let from = request.from ?? 0
        let count = request.count ?? 100
        guard from >= 0 else { throw ResponseError.invalidValue("from must be 0 or more.", field: "params.from") }
        guard count >= 0 else { throw ResponseError.invalidValue("count must be 0 or more.", field: "params.count") }
        guard count <= GetRequest.maximumCount, (ids?.count ?? 0) <= GetRequest.maximumCount else {
            throw ResponseError.limitExceeded(
                "get returns at most \(GetRequest.maximumCount) rows at a time.",
                limit: "count",
                value: GetRequest.maximumCount
            )
        }
        let now = Date().timeIntervalSince1970
        return try server.read(request.table, by: requester) { table in
            var only: Set<Int>?
            if let keys = request.columns {
                only = []
                for key in keys {
                    guard let index = table.columns.firstIndex(where: { $0.key == key }) else {
                        throw TableError.noSuchColumn(key, row: nil)
                    }
                    only!.insert(index)
                }
            }
            let asked = ids?.count ?? max(0, min(count, table.rowCount - from))
            try server.checkReplySize(
                ServerState.estimatedGetBytes(of: table, rows: asked, only: only),
                what: "This get"
            )
            let rows =
                try ids.map { ids throws(TableError) in try table.rows(ids: ids, now: now, columns: only) }
                ?? table.rows(from: from, count: count, now: now, columns: only)
            return GetReply(rows, table: table, only: only)
        }
    }

    private static func select(_ request: SelectRequest, _ server: ServerState, by requester: Requester) throws
        -> SelectRequest.Response
    {
        let mode = try WireSchema.selectionMode(request.mode, field: "params.mode")
        let ids = try request.ids.map { values throws(ResponseError) in
            try WireValues.rowIDs(values, field: "params.ids")
        }
        let actionName = request.action ?? (ids == nil && request.from == nil && mode != nil ? nil : "set")
        var change: (SelectAction, RowTarget)?
        if let actionName {
            let target: RowTarget
            let action: SelectAction
            switch actionName {
            case "all": (action, target) = (.set, .all)
            case "none": (action, target) = (.set, .none)
            default:
                guard let named = SelectAction(rawValue: actionName) else {
                    throw ResponseError.invalidValue(
                        "action must be set, add, remove, toggle, all or none.",
                        field: "params.action"
                    )
                }
                action = named
                if let ids {
                    guard request.from == nil else {
                        throw ResponseError.invalidParams("Give ids or from/count, not both.", field: "params.from")
                    }
                    target = .ids(ids)
                } else if let from = request.from {
                    target = .range(from: from, count: request.count ?? 1)
                } else {
                    throw ResponseError.invalidParams(
                        "Name the rows: ids, or from and count (or action all / none).",
                        field: "params.ids"
                    )
                }
            }
            change = (action, target)
        }
        return try server.update(request.table, by: requester, needing: .write) { table in
            let before = table.version
            defer {
                if table.version != before {
                    server.publish(table, .selection, from: before) { $0.selected = table.selectedCount }
                }
            }
            if let change {
                try table.select(change.0, change.1, mode: mode)
            } else if let mode {
                table.setSelectionMode(mode)
            }
            return SelectRequest.Response(
                table: table.name,
                version: Int(table.version),
                count: table.selectedCount,
                mode: table.selectionMode.rawValue
            )
        }
    }

    private static func undoReply(_ cells: [EditedCell], _ table: Table) -> UndoResponse {
        UndoResponse(
            table: table.name,
            version: Int(table.version),
            cells: WireValues.cells(cells, in: table, limit: 1000),
            canUndo: table.canUndo,
            canRedo: table.canRedo
        )
    }
}

extension ServerState {
    /// Refuses a change that adds rows or tables while the daemon is over its memory budget.
    func checkMemory() throws(ResponseError) {
        let budget = limits.maxMemoryBytes
        guard budget > 0 else { return }
        let resident = memory.residentBytes
        guard resident <= budget else {
            throw .limitExceeded(
                "The daemon uses \(resident / 1_000_000) MB, over its memory budget of \(budget / 1_000_000) MB; "
                    + "drop tables or rows first.",
                limit: "maxMemoryBytes",
                value: budget
            )
        }
    }

    /// Refuses a change that would take the tables owned by `owner` past `maxMemoryPerUid`, given
    /// it adds about `bytes`. Tables of root and of the daemon's own user have no such limit.
    func checkUserMemory(owner: UInt32, adding bytes: Int) throws(ResponseError) {
        let limit = limits.maxMemoryPerUid
        guard limit > 0, owner != 0, owner != geteuid() else { return }
        let held = tables.ledger.bytes(ownedBy: owner)
        guard held + bytes <= limit else {
            throw .limitExceeded(
                "The tables of user \(owner) hold about \(held / 1_000_000) MB; this would take them past "
                    + "\(limit / 1_000_000) MB, as much as one user's tables may hold. Drop tables or rows first.",
                limit: "maxMemoryPerUid",
                value: limit
            )
        }
    }

    /// About what rows of `columns` columns add to a table, before their text is known.
    static func estimatedBytes(rows: Int, columns: Int) -> Int {
        rows * (columns * 16 + Table.bytesPerRow)
    }

    /// Memory a load takes per byte of its text, at its peak: the text, its rows as parsed, and
    /// the table they go into (a million rows × 8 columns rest at 1.9× their CSV).
    static let loadMemoryFactor = 3

    /// Refuses, before anything is read or parsed, a load of `bytes` of text that would take the
    /// daemon past its memory budget.
    func checkRoomToLoad(bytes: Int) throws(ResponseError) {
        let budget = limits.maxMemoryBytes
        guard budget > 0 else { return }
        let resident = memory.residentBytes
        let needed = bytes.multipliedReportingOverflow(by: Self.loadMemoryFactor)
        guard !needed.overflow, resident + needed.partialValue <= budget else {
            throw .limitExceeded(
                "Loading \(bytes / 1_000_000) MB of text takes about \(bytes / 1_000_000 * Self.loadMemoryFactor) MB; "
                    + "the daemon uses \(resident / 1_000_000) MB of its \(budget / 1_000_000) MB budget.",
                limit: "maxMemoryBytes",
                value: budget
            )
        }
    }

    /// The most bytes a loaded file may have once open (it may grow while it is read).
    var loadByteLimit: Int {
        let budget = limits.maxMemoryBytes
        guard budget > 0 else { return 1 << 40 }
        return max(0, budget - memory.residentBytes) / Self.loadMemoryFactor
    }

    /// Refuses a new table when the daemon holds `maxTables` (`tableCount`) already.
    func checkRoomForTable(_ tableCount: Int) throws(ResponseError) {
        guard tableCount < limits.maxTables else {
            throw .limitExceeded(
                "The daemon already holds \(limits.maxTables) tables, its limit; drop one first.",
                limit: "maxTables",
                value: limits.maxTables
            )
        }
    }

    /// Refuses a change that would leave `table` with more than `maxRows` rows.
    func checkRows(_ rows: Int, table: String) throws(ResponseError) {
        guard rows <= limits.maxRows else {
            throw .limitExceeded(
                "The table \(table) would hold \(rows) rows; a table holds at most \(limits.maxRows).",
                limit: "maxRows",
                value: limits.maxRows
            )
        }
    }
}
