import DataTableEngine
import DataTableProtocol

extension MethodTable {
    /// Makes a change to the table called `name`; when it is attached to a source, in the source
    /// first. The change is worked out on a copy of the table (`plan`: what it does to which
    /// rows, as the source's writes), those writes are committed in the source in one
    /// transaction, and only then is the change made in the table (`make`, the method's own
    /// handler), down the table's line so no read-back lands in between. A change the table
    /// refuses (a bad value kept as a draft, say) is refused as the table refuses it, without
    /// reaching the source; one the source refuses changes nothing on either side.
    static func writeThrough<Result: Sendable>(
        _ name: String,
        _ context: inout RequestContext,
        plan: (inout Table) throws -> [SourceWrite],
        make: (inout RequestContext) async throws -> Result
    ) async throws -> Result {
        let server = context.server
        guard let attachment = server.attached.attachment(name) else { return try await make(&context) }
        let requester = context.requester
        return try await attachment.line.run {
            var copy = try server.snapshot(name, by: requester)
            // Nothing reaches the source for a peer that may not change the table.
            try requester.check(.write, copy)
            let writes: [SourceWrite]
            do {
                writes = try plan(&copy)
            } catch {
                context.recording = nil
                return try await make(&context)
            }
            // The source keeps the change; the state directory does not keep attached tables.
            context.recording = nil
            if !writes.isEmpty {
                do {
                    try await attachment.source.write(writes, to: attachment.shape)
                } catch {
                    throw SourceError.response(
                        for: error,
                        source: attachment.source.name,
                        writes: writes,
                        key: attachment.shape.key
                    )
                }
            }
            return try await make(&context)
        }
    }

    /// The source's writes for rows `ids` of `table` as they are now: each row's values, a new
    /// row inserted and one that was there (`existing`) updated; ids no longer there deleted.
    static func sourceWrites(for ids: [RowID], in table: Table, existing: Set<RowID>) -> [SourceWrite] {
        let keys = table.columns.map(\.key)
        let keyColumn = table.keyColumn.map { keys[$0] }
        var writes: [SourceWrite] = []
        for id in ids {
            guard let row = try? table.rows(ids: [id]).first else {
                writes.append(.delete(key: keyValue(id)))
                continue
            }
            var values: [String: CellValue] = [:]
            for (index, key) in keys.enumerated() where !table.columns[index].isComputed {
                values[key] = row.values[index]
            }
            if existing.contains(id) {
                if let keyColumn { values.removeValue(forKey: keyColumn) }
                writes.append(.update(key: keyValue(id), values))
            } else {
                writes.append(.insert(values))
            }
        }
        return writes
    }

    /// A row id as the key column's value.
    static func keyValue(_ id: RowID) -> CellValue {
        switch id {
        case .number(let number): .number(Double(number))
        case .text(let text): .text(text)
        }
    }
}
