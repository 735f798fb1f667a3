import DataTableProtocol
import Foundation

extension MethodTable {
    /// The methods every daemon answers: `ping`, `hello`, `help`, `stats`.
    public static func builtin() -> MethodTable {
        var table = MethodTable()
        table.registerImmediate(PingRequest.self) { _, _ in
            PingRequest.Response()
        }
        table.registerImmediate(HelloRequest.self, hello)
        table.registerImmediate(HelpRequest.self, help)
        table.registerImmediate(StatsRequest.self) { _, context in
            stats(context.server)
        }
        table.registerTableMethods()
        table.registerLayoutMethods()
        table.registerScrollMethods()
        table.registerWatchMethods()
        table.registerFilterMethod()
        table.registerDistinctMethod()
        table.registerCollapseMethods()
        table.registerEventMethods()
        table.registerCopyMethod()
        return table
    }

    /// Features `hello` reports.
    static let features = [
        "batch", "pipelining", "shell-mode", "notifications", "views", "events", "strict-params", "computed-columns",
    ]

    private static func hello(_ request: HelloRequest, _ context: inout RequestContext) throws
        -> HelloRequest.Response
    {
        let supported = ServerInfo.protocolVersions
        let wanted = request.version ?? supported.max()!
        guard let version = supported.filter({ $0 <= wanted }).max() else {
            throw ResponseError.invalidValue(
                "This daemon speaks protocol versions \(supported.map(String.init).joined(separator: ", ")); "
                    + "version \(wanted) or lower is not among them.",
                field: "params.version"
            )
        }
        context.protocolVersion = version
        if let lenient = request.lenientParams { context.lenientParams = lenient }
        if let client = request.client {
            context.logger.info("client said hello", metadata: ["client": "\(client)", "protocol": "\(version)"])
        }
        return HelloRequest.Response(
            protocol: version,
            protocols: supported,
            server: ServerInfo.name,
            version: ServerInfo.version,
            limits: context.server.limits,
            features: features,
            files: context.server.files.paths(for: context.connection.peer),
            sources: context.server.sources.isEmpty ? nil : context.server.sources.keys.sorted()
        )
    }

    private static func help(_ request: HelpRequest, _ context: inout RequestContext) throws -> HelpRequest.Response {
        let described = MethodRegistry.all.map {
            HelpRequest.MethodDescription(name: $0.method, summary: $0.summary)
        }
        guard let name = request.method else {
            return HelpRequest.Response(methods: described)
        }
        guard var one = described.first(where: { $0.name == name }), let type = MethodRegistry.type(named: name)
        else {
            var error = ResponseError.unknownMethod(name)
            error.code = .invalidParams
            error.details["field"] = "params.method"
            throw error
        }
        one.params = Self.schema(of: type).params
        return HelpRequest.Response(methods: [one])
    }

    /// The params of the method `type`, with their meanings.
    private static func schema<Request: DataTableRequest>(of type: Request.Type) -> ParamsSchema {
        ParamsSchema(ofMethod: type)
    }

    private static func stats(_ server: ServerState) -> StatsRequest.Response {
        let counters = server.snapshot
        let (tables, rows) = (server.tables.count, server.tables.rowCount)
        let uptime = ContinuousClock.now - server.startedAt
        return StatsRequest.Response(
            version: ServerInfo.version,
            pid: Int(ProcessInfo.processInfo.processIdentifier),
            uptimeSeconds: Double(uptime.components.seconds) + Double(uptime.components.attoseconds) / 1e18,
            connections: .init(
                current: counters.currentConnections,
                total: counters.totalConnections,
                refused: counters.refusedConnections
            ),
            requests: counters.requests,
            tables: tables,
            rows: rows,
            memory: .init(residentBytes: ProcessMemory.residentBytes() ?? 0),
            durability: server.journal?.status,
            sources: server.sources.isEmpty
                ? nil
                : server.sources.keys.sorted().map { name in
                    let waiting = server.attached.waiting(for: name)
                    return .init(
                        name: name,
                        stale: server.attached.isStale(name),
                        tables: server.attached.tables(of: name).count,
                        waiting: waiting.isEmpty ? nil : waiting
                    )
                }
        )
    }
}
