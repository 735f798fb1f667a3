import DataTableEngine
import DataTableProtocol

/// What each change of an attached table writes to its source, worked out on a copy of the
/// table (``MethodTable/writeThrough(_:_:plan:make:)``): the change made to the copy as the table
/// would make it, then the rows it touched as they became.
extension MethodTable {
    /// An `edit`: the edited cells of each row.
    static func editPlan(_ request: EditRequest, by requester: Requester, within filter: UInt64?, limits: ServerLimits)
        -> (inout Table) throws -> [SourceWrite]
    {
        { table in
            try ServerState.checkVersion(of: table, is: request.ifVersion)
            let edits = try EditShape(request, limits: limits).edits(in: table, within: filter)
            guard !edits.isEmpty else { return [] }
            let cells = try table.apply(.init(.edit(edits), by: requester.uid)).edited
            var order: [RowID] = []
            var byRow: [RowID: [String: CellValue]] = [:]
            for cell in cells {
                if byRow[cell.id] == nil { order.append(cell.id) }
                byRow[cell.id, default: [:]][cell.column] = cell.value
            }
            return order.map { .update(key: keyValue($0), byRow[$0] ?? [:]) }
        }
    }

    /// An `add` (or an upsert): the new rows inserted, the replaced ones updated.
    static func addPlan(_ request: AddRequest, by requester: Requester) -> (inout Table) throws -> [SourceWrite] {
        { table in
            try ServerState.checkVersion(of: table, is: request.ifVersion)
            var inputs: [RowInput] = []
            if let row = request.row { inputs.append(try WireValues.rowInput(row, field: "params.row")) }
            for (index, row) in (request.rows ?? []).enumerated() {
                inputs.append(try WireValues.rowInput(row, field: "params.rows[\(index)]"))
            }
            if request.upsert == true {
                guard case .upserted(let result) = try table.apply(.init(.upsert(inputs), by: requester.uid)) else {
                    return []
                }
                let replaced = result.replaced.map(\.id)
                return sourceWrites(for: replaced + result.added.map(\.id), in: table, existing: Set(replaced))
            }
            let added = try table.apply(.init(.add(inputs, index: request.index), by: requester.uid)).added
            return sourceWrites(for: added.map(\.id), in: table, existing: [])
        }
    }

    /// A `delete`: each row's key.
    static func deletePlan(_ request: DeleteRequest, within filter: UInt64?) -> (inout Table) throws -> [SourceWrite] {
        { table in
            try ServerState.checkVersion(of: table, is: request.ifVersion)
            let named =
                try request.ids.map { values throws(ResponseError) in
                    try WireValues.rowIDs(values, field: "params.ids")
                } ?? table.selectedIDs(within: filter)
            var seen: Set<RowID> = []
            return named.filter { table.index(of: $0) != nil && seen.insert($0).inserted }
                .map { .delete(key: keyValue($0)) }
        }
    }

    /// A `clear`: every row's key.
    static func clearPlan(_ request: ClearRequest) -> (inout Table) throws -> [SourceWrite] {
        { table in
            try ServerState.checkVersion(of: table, is: request.ifVersion)
            return table.ids(from: 0, limit: table.rowCount).map { .delete(key: keyValue($0)) }
        }
    }

    /// An `undo` or `redo`: the requester's own step taken back (or made again) on the copy, as
    /// new writes — the cells it set updated, the rows it put back inserted, the rows it took out
    /// deleted. The source sees an ordinary change; the step's drafts stay the daemon's.
    static func undoPlan(redo: Bool, ifVersion: Int?, by requester: Requester) -> (inout Table) throws -> [SourceWrite]
    {
        { table in
            try ServerState.checkVersion(of: table, is: ifVersion)
            let before = table
            guard case .undone(let outcome) = try table.apply(TableChange(redo ? .redo : .undo, by: requester.uid))
            else { return [] }
            var writes: [SourceWrite] = []
            var order: [RowID] = []
            var cells: [RowID: [String: CellValue]] = [:]
            for cell in outcome.cells where before.index(of: cell.id) != nil && table.index(of: cell.id) != nil {
                if cells[cell.id] == nil { order.append(cell.id) }
                cells[cell.id, default: [:]][cell.column] = cell.value
            }
            writes += order.map { .update(key: keyValue($0), cells[$0] ?? [:]) }
            let back = outcome.rowsBack.filter { before.index(of: $0) == nil }
            writes += sourceWrites(for: back, in: table, existing: [])
            let out = outcome.rowsOut.filter { before.index(of: $0) != nil && table.index(of: $0) == nil }
            writes += out.map { .delete(key: keyValue($0)) }
            return writes
        }
    }

    /// Refuses `alter` of an attached table: its columns are the relation's.
    static func refuseAlterOfAttached(_ name: String, _ server: ServerState) throws {
        guard let attachment = server.attached.attachment(name) else { return }
        throw ResponseError.invalidValue(
            "\(name) is attached to the source \(attachment.source.name), whose columns it takes: "
                + "change them there (ALTER TABLE), then drop the table and attach it again.",
            field: "params.table"
        )
    }
}
