import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `undo` and `redo` (protocol.md, "undo, redo"): the step, each of its parts its own event.
    /// A step that touches many rows (a bulk delete taken back) runs on a copy, off the lock.
    static func undo(
        redo: Bool,
        table name: String,
        ifVersion: Int?,
        _ writer: TableWriter,
        by requester: Requester
    ) async throws -> UndoResponse {
        let server = writer.server
        let weight = try server.read(name, by: requester) { table in table.nextUndoWeight(redo: redo) }
        // The author's own last change: the log keeps who asked, so a replay takes back the same.
        let change = TableChange(redo ? .redo : .undo, by: requester.uid)
        writer.note(change, for: name)
        let step: @Sendable (inout Table) throws -> UndoOutcome = { table in
            guard case .undone(let outcome) = try table.apply(change) else {
                preconditionFailure("an undo made something else")
            }
            return outcome
        }
        if weight > smallBatch {
            return try await writer.updateOffLock(name, by: requester, ifVersion: ifVersion, work: step) {
                table,
                outcome,
                before in
                publishUndo(outcome, of: table, from: before, server)
                return undoReply(outcome, table)
            }
        }
        return try writer.update(name, by: requester, needing: .write, ifVersion: ifVersion) { table in
            let before = table.version
            let outcome = try step(&table)
            publishUndo(outcome, of: table, from: before, server)
            return undoReply(outcome, table)
        }
    }

    /// `undo` or `redo` as a request makes it: of an attached table, written through to its
    /// source first (``undoPlan(redo:ifVersion:by:)``).
    static func undoThrough(redo: Bool, table: String, ifVersion: Int?, _ context: inout RequestContext)
        async throws -> UndoResponse
    {
        let plan = undoPlan(redo: redo, ifVersion: ifVersion, by: context.requester)
        return try await writeThrough(table, &context, plan: plan) { context in
            try await undo(redo: redo, table: table, ifVersion: ifVersion, context.writer, by: context.requester)
        }
    }

    /// One event per part of the step, each one version after the last.
    private static func publishUndo(_ outcome: UndoOutcome, of table: Table, from before: UInt64, _ server: ServerState)
    {
        var previous = before
        for (part, version) in outcome.parts {
            switch part {
            case .cells(let cells): server.publish(table, .edited, from: previous, at: version) { $0.list(cells) }
            case .rowsBack(let ids): server.publish(table, .added, from: previous, at: version) { $0.list(ids) }
            case .rowsOut(let ids): server.publish(table, .deleted, from: previous, at: version) { $0.list(ids) }
            case .drafts(let errors):
                server.publish(table, .drafts, from: previous, at: version) { $0.errors = errors }
            case .schema(let summary):
                server.publish(table, .schema, from: previous, at: version) { event in
                    event.change = "altered"
                    event.columns = summary.columns.isEmpty ? nil : summary.columns
                }
            }
            previous = version
        }
    }

    /// The reply of `undo` and `redo`: what the step did.
    static func undoReply(_ outcome: UndoOutcome, _ table: Table) -> UndoResponse {
        let restored = outcome.rowsBack
        let removed = outcome.rowsOut
        return UndoResponse(
            table: table.name,
            version: Int(table.version),
            cells: WireValues.cells(outcome.cells, in: table, limit: 1000),
            restored: restored.isEmpty ? nil : restored.prefix(1000).map(WireValues.json),
            removed: removed.isEmpty ? nil : removed.prefix(1000).map(WireValues.json),
            altered: outcome.schema.map(schemaReply),
            rows: table.rowCount,
            canUndo: table.canUndo,
            canRedo: table.canRedo
        )
    }

    /// A schema change in the reply's words.
    static func schemaReply(_ summary: SchemaSummary) -> SchemaChangeReply {
        SchemaChangeReply(
            added: summary.added,
            dropped: summary.dropped,
            renamed: summary.renamed,
            changed: summary.changed,
            readOnly: summary.readOnly,
            limit: summary.limit
        )
    }
}
