import DataTableEngine
import DataTableProtocol

extension MethodTable {
    /// `subscribe` and `unsubscribe` (protocol.md, "Events").
    mutating func registerEventMethods() {
        registerImmediate(SubscribeRequest.self) { request, context in
            // Each kind asked for is one subscribe takes (the request refuses others as it is read).
            let kinds = Set(request.events ?? TableEvent.Kind.allCases)
            guard let outbox = context.outbox else {
                throw ResponseError.invalidRequest("This connection cannot receive events.")
            }
            let connection = context.connection.id
            let chosen = kinds
            // Subscribing under the table's lock: no event of the table is published meanwhile,
            // so events continue exactly from the version in the reply.
            let requester = context.requester
            return try context.server.read(request.table, by: requester) { table in
                context.server.events.subscribe(
                    table.name,
                    connection: connection,
                    requester: requester,
                    outbox: outbox,
                    kinds: chosen
                )
                return SubscribeRequest.Response(
                    table: table.name,
                    version: Int(table.version),
                    subscribed: true,
                    events: TableEvent.Kind.allCases.filter { chosen.contains($0) }
                )
            }
        }
        registerImmediate(UnsubscribeRequest.self) { request, context in
            UnsubscribeRequest.Response(
                table: request.table,
                subscribed: context.server.events.unsubscribe(request.table, connection: context.connection.id)
            )
        }
    }
}
