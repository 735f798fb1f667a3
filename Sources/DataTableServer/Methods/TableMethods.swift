import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// The table methods: `create` … `redo` (protocol.md, "Tables").
    mutating func registerTableMethods() {
        register(CreateRequest.self) { request, context in try Self.create(request, context) }
        register(AttachRequest.self) { request, context in try await Self.attach(request, context) }
        register(DropRequest.self) { request, context in
            let requester = context.requester
            let writer = context.writer
            let table = try context.server.tables.remove(
                request.table,
                if: { table in
                    try requester.check(.own, table)
                    try writer.claimRoom(forChangeTo: table.name)
                }
            ) { table in
                writer.recordChange(of: table)
                context.server.attached.remove(table.name)
                context.server.publish(table, .schema, from: table.version) { $0.change = "dropped" }
            }
            // Not attached again at the next start.
            try? context.server.savedAttachments?.forget(request.table)
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
                    selection: table.selectionMode,
                    rows: table.rowCount,
                    selected: table.selectedCount,
                    errors: table.errorCount,
                    version: Int(table.version),
                    canUndo: table.canUndo,
                    canRedo: table.canRedo,
                    owner: Int(table.access.owner),
                    group: Int(table.access.group),
                    mode: table.access.modeText,
                    limit: table.rowLimit,
                    source: context.server.attached.attachment(table.name).map { attachment in
                        DescribeRequest.Source(
                            name: attachment.source.name,
                            relation: attachment.shape.relation,
                            query: attachment.shape.query,
                            stale: context.server.attached.isStale(attachment.source.name)
                        )
                    }
                )
            }
        }
        // An add whose table has no room for its rows (an array kept per slot is full, and
        // would copy every slot as it grows) makes the room first, off the loop and the lock.
        register(AddRequest.self) { request, context in
            guard (request.rows?.count ?? 0) <= Self.smallBatch, !context.server.attached.isAttached(request.table),
                context.server.addIsSmall(
                    request.table,
                    count: request.givenRows,
                    at: request.index,
                    by: context.requester
                )
            else { return nil }
            return try Self.add(request, &context)
        } otherwise: { request, context in
            await context.server.makeRoom(
                request.table,
                forAdding: request.givenRows,
                at: request.index,
                by: context.requester
            )
            return try await Self.writeThrough(
                request.table,
                &context,
                plan: Self.addPlan(request, by: context.requester)
            ) { context in try Self.add(request, &context) }
        }
        register(EditRequest.self) { request, context in
            guard request.selection != true, (request.edits?.count ?? 0) <= Self.smallBatch,
                !context.server.attached.isAttached(request.table)
            else { return nil }
            return try Self.edit(
                request,
                context.writer,
                by: context.requester,
                within: context.viewFilter(of: request.table, if: request.view)
            )
        } otherwise: { request, context in
            let filter = context.viewFilter(of: request.table, if: request.view)
            let plan = Self.editPlan(request, by: context.requester, within: filter, limits: context.server.limits)
            return try await Self.writeThrough(request.table, &context, plan: plan) { context in
                try Self.edit(request, context.writer, by: context.requester, within: filter)
            }
        }
        registerImmediate(RevertRequest.self, when: { $0.id != nil }) { request, context in
            let id = try request.id.map { value throws(ResponseError) in try WireValues.rowID(value, field: "params.id")
            }
            return try context.writer.update(
                request.table,
                by: context.requester,
                needing: .write,
                ifVersion: request.ifVersion
            ) { table in
                let before = table.version
                let change = TableChange(.revert(id: id, column: request.column), by: context.requester.uid)
                let cleared = try context.writer.make(change, to: &table).count
                if cleared > 0 { context.server.publish(table, .drafts, from: before) { $0.errors = table.errorCount } }
                return RevertRequest.Response(
                    table: table.name,
                    version: Int(table.version),
                    cleared: cleared,
                    errors: table.errorCount
                )
            }
        }
        register(ClearRequest.self) { request, context in
            try await Self.writeThrough(request.table, &context, plan: Self.clearPlan(request)) { context in
                try await Self.clear(request, context.writer, by: context.requester)
            }
        }
        register(DeleteRequest.self) { request, context in
            // A large table in its loaded order keeps no tree of it; taking rows out builds one
            // (O(n)): done first on a copy, off the lock (room for no rows, placed anywhere).
            await context.server.makeRoom(request.table, forAdding: 0, at: 0, by: context.requester)
            let filter = context.viewFilter(of: request.table, if: request.view)
            return try await Self.writeThrough(request.table, &context, plan: Self.deletePlan(request, within: filter))
            {
                context in try Self.delete(request, context.writer, by: context.requester, within: filter)
            }
        }
        registerImmediate(
            GetRequest.self,
            replying: GetReply.self,
            when: { ($0.ids?.count ?? $0.count ?? 100) <= Self.smallBatch }
        ) { request, context in
            try Self.get(
                request,
                context.server,
                by: context.requester,
                within: context.viewFilter(of: request.table, if: request.view)
            )
        }
        register(SelectRequest.self) { request, context in
            // Selecting all, none or a new mode touches every row; so does setting the selection
            // of a large table while rows are selected (the old selection is cleared).
            guard request.mode == nil, request.action != .all, request.action != SelectionAction.none,
                (request.ids?.count ?? request.count ?? 1) <= Self.smallBatch
            else { return nil }
            // (A table that is not there is for `select` itself to refuse, in its order.)
            if (request.action ?? .set) == .set,
                (try? context.server.read(request.table, by: context.requester) {
                    $0.selectedCount > 0 && $0.rowCount >= ServerState.offLockRows
                })
                    == true
            {
                return nil
            }
            return try Self.select(
                request,
                context.writer,
                by: context.requester,
                within: context.viewFilter(of: request.table, if: request.view)
            )
        } otherwise: { request, context in
            try Self.select(
                request,
                context.writer,
                by: context.requester,
                within: context.viewFilter(of: request.table, if: request.view)
            )
        }
        register(SelectionRequest.self) { request, context in
            try context.server.read(request.table, by: context.requester) { table in
                SelectionRequest.Response(
                    table: table.name,
                    version: Int(table.version),
                    count: table.selectedCount,
                    mode: table.selectionMode,
                    ids: table.selectedIDs().map(WireValues.json)
                )
            }
        }
        register(SortRequest.self) { request, context in
            let server = context.server
            let writer = context.writer
            let change = TableChange(.sort(WireSchema.sortKeys(request.keys ?? [])), by: context.requester.uid)
            writer.note(change, for: request.table)
            // A million rows take most of a second to sort: on a copy, off the lock.
            return try await writer.updateOffLock(request.table, by: context.requester, ifVersion: request.ifVersion) {
                table in
                _ = try table.apply(change)
            } install: { table, _, before in
                let keys = WireSchema.sortParams(table.sortKeys)
                server.publish(table, .sort, from: before) { $0.keys = keys }
                return SortRequest.Response(table: table.name, version: Int(table.version), keys: keys)
            }
        }
        register(UndoRequest.self) { request, context in
            try await Self.undoThrough(redo: false, table: request.table, ifVersion: request.ifVersion, &context)
        }
        register(RedoRequest.self) { request, context in
            try await Self.undoThrough(redo: true, table: request.table, ifVersion: request.ifVersion, &context)
        }
        register(ColumnStateRequest.self) { request, context in try Self.columnState(request, &context) }
        register(AlterRequest.self) { request, context in
            try Self.refuseAlterOfAttached(request.table, context.server)
            return try await Self.alter(request, context.writer, by: context.requester)
        }
        register(LoadRequest.self) { request, context in try await Self.load(request, &context) }
        register(UploadRequest.self) { request, context in try Self.upload(request, &context) }
        register(ExportRequest.self, replying: ExportReply.self) { request, context in
            try await Self.export(request, context)
        }
    }

    /// The most rows or cells a request answered on the event loop names; larger ones run off it.
    static let smallBatch = 1000
}
