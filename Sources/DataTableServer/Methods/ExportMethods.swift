import DataTableEngine
import DataTableProtocol
import Foundation
import NIOCore

extension MethodTable {
    /// Bytes of text per `chunk` notification of a streamed export (each ends at a row's end,
    /// so a chunk may pass this by one row).
    static let exportChunkBytes = 256 * 1024

    /// `export`: the text of a copy of the table taken in O(1), written off the table's lock and
    /// the event loop, into the reply, a file or `chunk` notifications.
    static func export(_ request: ExportRequest, _ context: RequestContext) async throws -> ExportReply {
        let format = dataFormat(request.format, path: nil)
        let selectedOnly = request.selection ?? false
        let filter = context.viewFilter(of: request.table, if: request.view)
        let server = context.server
        var target: ExportFile?
        if let path = request.path {
            target = try ExportFile(path: path, peer: context.connection.peer, policy: server.files)
        }
        let table = try server.snapshot(request.table, by: context.requester)
        var reply = ExportReply(table: table.name, version: Int(table.version), format: format, rows: 0)
        if let target {
            let written = try await server.heavyWork.run {
                try target.write { emit in
                    try exportChunks(table, format, selectedOnly: selectedOnly, within: filter) { chunk, _ in
                        try emit(chunk)
                    }
                }
            }
            (reply.rows, reply.bytes, reply.path) = (written.rows, written.bytes, target.path)
        } else if request.stream == true {
            let streamed = try await server.heavyWork.run {
                try streamExport(table, format: format, selectedOnly: selectedOnly, within: filter, context: context)
            }
            (reply.rows, reply.bytes, reply.chunks) = (streamed.rows, streamed.bytes, streamed.chunks)
        } else {
            // Kept in the pieces written (copying them into one would copy the whole text).
            @Sendable func pieces() -> (text: [[UInt8]], rows: Int) {
                var pieces: [[UInt8]] = []
                let rows = table.export(format, selectedOnly: selectedOnly, within: filter, chunkBytes: 1 << 22) {
                    chunk,
                    _ in
                    pieces.append(chunk)
                }
                return (pieces, rows)
            }
            let (text, rows) =
                table.rowCount < ServerState.offLockRows ? pieces() : try await server.heavyWork.run { pieces() }
            (reply.text, reply.rows) = (text, rows)
        }
        return reply
    }

    /// Sends `table`'s text in `chunk` notifications, each after the one before has left for
    /// the socket (a client that reads slowly slows the export down, not the daemon's memory).
    /// Runs on a thread of its own, never an event loop: it waits.
    private static func streamExport(
        _ table: Table,
        format: DataFormat,
        selectedOnly: Bool,
        within filter: UInt64?,
        context: RequestContext
    ) throws -> (rows: Int, bytes: Int, chunks: Int) {
        guard let deliver = context.deliver else {
            throw ResponseError.invalidRequest("This connection cannot receive notifications.")
        }
        let total =
            filter == nil
            ? (selectedOnly ? table.selectedCount : table.rowCount)
            : (selectedOnly ? table.selectedIDs(within: filter).count : table.shownCount(filter: filter))
        var (bytes, chunks) = (0, 0)
        var previous: EventLoopFuture<Void>?
        let rows = try exportChunks(table, format, selectedOnly: selectedOnly, within: filter) { chunk, done in
            let line = ExportReply.chunkNotification(
                request: context.requestID == .null ? nil : context.requestID,
                table: table.name,
                done: done,
                total: total,
                text: chunk
            )
            // One chunk in flight while the next is written: the socket stays busy, memory stays
            // at two chunks.
            try previous?.wait()
            previous = deliver(line)
            bytes += chunk.count
            chunks += 1
        }
        try previous?.wait()
        return (rows, bytes, chunks)
    }

    /// The export of `table` in pieces of about ``exportChunkBytes``, each ending at a row's end,
    /// with the rows written so far; returns the rows in all.
    private static func exportChunks(
        _ table: Table,
        _ format: DataFormat,
        selectedOnly: Bool,
        within filter: UInt64?,
        _ emit: ([UInt8], Int) throws -> Void
    ) throws -> Int {
        try table.export(format, selectedOnly: selectedOnly, within: filter, chunkBytes: exportChunkBytes, emit)
    }
}
