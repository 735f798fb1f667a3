import DataTableEngine
import DataTableProtocol
import Foundation

extension MethodTable {
    /// `columnState` (protocol.md, "columnState"): arrangements kept in the table by name (a
    /// save or delete is a change, logged as the request), restored into this connection's view.
    static func columnState(_ request: ColumnStateRequest, _ context: inout RequestContext) throws
        -> ColumnStateRequest.Response
    {
        let server = context.server
        let writer = context.writer
        let requester = context.requester
        if let name = request.name {
            guard TableCatalog.isValidName(name) else {
                throw ResponseError.invalidValue(
                    "A column state's name has 1 to 128 characters, none of them control characters.",
                    field: "params.name"
                )
            }
        }
        func names(_ table: borrowing Table) -> [String] { table.columnStates.keys.sorted() }
        switch (request.name, request.save, request.delete) {
        case (nil, nil, nil):
            return try server.read(request.table, by: requester) { table in
                ColumnStateRequest.Response(table: table.name, version: Int(table.version), names: names(table))
            }
        case (let name?, let state?, nil), (let name?, let state?, false?):
            return try writer.update(request.table, by: requester, needing: .write, ifVersion: request.ifVersion) {
                table in
                let before = table.version
                try checkColumnState(state, in: table)
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                let json = String(decoding: try encoder.encode(state), as: UTF8.self)
                try checkColumnStateLimits(json, as: name, in: table)
                let grows = table.columnStatesBytes(saving: json, as: name) - table.columnStatesBytes
                if grows > 0 { try server.checkUserMemory(owner: table.access.owner, adding: grows) }
                _ = try writer.make(.init(.saveColumnState(name: name, state: json), by: requester.uid), to: &table)
                server.publish(table, .schema, from: before) { $0.change = "columnState" }
                return ColumnStateRequest.Response(
                    table: table.name,
                    version: Int(table.version),
                    names: names(table),
                    state: state
                )
            }
        case (let name?, nil, true?):
            return try writer.update(request.table, by: requester, needing: .write, ifVersion: request.ifVersion) {
                table in
                let before = table.version
                let change = TableChange(.deleteColumnState(name: name), by: requester.uid)
                guard case .done(true) = try writer.make(change, to: &table) else {
                    throw unknownState(name, in: table)
                }
                server.publish(table, .schema, from: before) { $0.change = "columnState" }
                return ColumnStateRequest.Response(table: table.name, version: Int(table.version), names: names(table))
            }
        case (let name?, nil, nil), (let name?, nil, false?):
            let (state, reply) = try server.read(request.table, by: requester) { table in
                guard let json = table.columnStates[name],
                    let kept = try? JSONDecoder().decode(ColumnState.self, from: Data(json.utf8))
                else { throw unknownState(name, in: table) }
                // Columns renamed or dropped since are left out; the rest of the arrangement holds.
                let state = ColumnState(
                    columns: kept.columns?.filter { table.column($0.key) != nil },
                    columnOrder: kept.columnOrder?.filter { table.column($0) != nil }
                )
                return (
                    state,
                    ColumnStateRequest.Response(
                        table: table.name,
                        version: Int(table.version),
                        names: names(table),
                        state: state
                    )
                )
            }
            var view = context.views[request.table] ?? TableView(table: request.table)
            view.layout.settings.columns = state.columns
            view.layout.settings.columnOrder = state.columnOrder
            view.resolved = nil
            context.views[request.table] = view
            return reply
        default:
            throw ResponseError.invalidParams(
                "save and delete go with name, one at a time; name alone restores, nothing lists.",
                field: request.name == nil ? "params.name" : "params.delete"
            )
        }
    }

    /// Refuses an arrangement a layout would refuse: a column the table lacks, a hint that is
    /// not one (or does not fit with the others), a key listed twice in `columnOrder`.
    private static func checkColumnState(_ state: ColumnState, in table: borrowing Table) throws {
        var overrides: [String: ColumnLayout] = [:]
        for (key, hints) in state.columns ?? [:] {
            overrides[key] = hints
        }
        do {
            try table.checkColumnState(columns: overrides, order: state.columnOrder ?? [])
        } catch {
            if case .invalidLayout(let message, let field) = error {
                throw ResponseError.invalidParams(message, field: "params.save." + field)
            }
            throw ResponseError(error)
        }
    }

    /// Refuses a save past a table's column-state limits: how many it keeps
    /// (`maxColumnStates`) and how many bytes they take together (`maxColumnStateBytes`).
    private static func checkColumnStateLimits(_ json: String, as name: String, in table: borrowing Table)
        throws(ResponseError)
    {
        let count = table.columnStates.count
        if table.columnStates[name] == nil, count >= Table.columnStateLimit {
            throw .limitExceeded(
                "\(table.name) keeps \(count) column states, as many as a table keeps (maxColumnStates); "
                    + "delete one first.",
                limit: "maxColumnStates",
                value: Table.columnStateLimit
            )
        }
        let bytes = table.columnStatesBytes(saving: json, as: name)
        if bytes > Table.columnStateByteLimit {
            throw .limitExceeded(
                "\(table.name)'s column states would take \(bytes) bytes together; a table's take at most "
                    + "\(Table.columnStateByteLimit) (maxColumnStateBytes). Delete one, or keep a smaller one.",
                limit: "maxColumnStateBytes",
                value: Table.columnStateByteLimit
            )
        }
    }

    private static func unknownState(_ name: String, in table: borrowing Table) -> ResponseError {
        let known = table.columnStates.keys.sorted()
        return ResponseError.invalidValue(
            "\(table.name) keeps no column state called \(name)"
                + (known.isEmpty ? "." : " (it keeps \(known.joined(separator: ", "))).")
                + "",
            field: "params.name"
        )
    }
}
