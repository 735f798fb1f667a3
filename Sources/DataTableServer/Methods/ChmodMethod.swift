import DataTableEngine
import DataTableProtocol

extension MethodTable {
    /// `chmod` (protocol.md, "Owners and modes"): the owner (or root, or the daemon's own user)
    /// changes a table's mode and group; root changes its owner.
    static func chmod(_ request: ChmodRequest, _ context: RequestContext) throws -> ChmodRequest.Response {
        let requester = context.requester
        let mode = try request.mode.map { text throws(ResponseError) in try ServerState.mode(text, field: "params.mode")
        }
        let group = try request.group.map { value throws(ResponseError) in try Self.id(value, field: "params.group") }
        let owner = try request.owner.map { value throws(ResponseError) in try Self.id(value, field: "params.owner") }
        if let group, !requester.isPrivileged, group != requester.gid {
            throw ResponseError(
                code: .permissionDenied,
                kind: .permissionDenied,
                message: "You may give a table only your own group (\(requester.gid)); root may give any.",
                details: ["field": .string("params.group")]
            )
        }
        if let owner, !requester.isPrivileged, owner != requester.uid {
            throw ResponseError(
                code: .permissionDenied,
                kind: .permissionDenied,
                message: "Only root or the daemon's own user may give a table to another user.",
                details: ["field": .string("params.owner")]
            )
        }
        let writer = context.writer
        return try writer.update(request.table, by: requester, needing: .own) { table in
            let before = table.version
            var access = table.access
            if let mode { access.mode = mode }
            if let group { access.group = group }
            if let owner { access.owner = owner }
            if context.server.attached.isAttached(table.name) {
                // The access an attached table gets when it is attached again after a restart;
                // kept first, so that a change not kept is not made (a rare request: the small
                // file is written under this table's lock).
                try context.server.savedAttachments?.setAccess(access, of: table.name)
            }
            _ = try writer.make(.init(.access(access), by: requester.uid), to: &table)
            if table.version != before {
                context.server.publish(table, .schema, from: before) { $0.change = "access" }
            }
            return ChmodRequest.Response(
                table: table.name,
                version: Int(table.version),
                owner: Int(table.access.owner),
                group: Int(table.access.group),
                mode: table.access.modeText
            )
        }
    }

    /// A user or group id from the wire.
    private static func id(_ value: Int, field: String) throws(ResponseError) -> UInt32 {
        guard let id = UInt32(exactly: value), id != UInt32.max else {
            throw .invalidValue("\(field.dropFirst("params.".count)) must be a user or group id.", field: field)
        }
        return id
    }
}

extension ServerState {
    /// The mode a new table gets: `text` (from its request) or the daemon's `--table-mode`.
    func tableMode(_ text: String?) throws(ResponseError) -> UInt16 {
        guard let text else { return defaultTableMode }
        return try Self.mode(text, field: "params.mode")
    }

    /// A mode from the wire, or `invalid_value`.
    static func mode(_ text: String, field: String) throws(ResponseError) -> UInt16 {
        guard let mode = TableAccess.mode(text) else {
            throw .invalidValue(
                "mode must be octal digits of read (4) and write (2) bits for owner, group and others, like 0640.",
                field: field
            )
        }
        return mode
    }
}
