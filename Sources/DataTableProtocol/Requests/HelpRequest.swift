/// `help`: the methods and what each does.
public struct HelpRequest: DataTableRequest {
    public static let method = "help"
    public static let summary = "List the methods with a one-line description each, or describe one method."

    /// Describe only this method.
    public var method: String?

    public init(method: String? = nil) { self.method = method }

    public struct Response: Codable, Hashable, Sendable {
        public var methods: [MethodDescription]

        public init(methods: [MethodDescription]) { self.methods = methods }
    }

    /// One method in a `help` reply.
    public struct MethodDescription: Codable, Hashable, Sendable {
        public var name: String
        public var summary: String
        /// When one method is described: its params, as the daemon reads them.
        public var params: [ParamsSchema.Param]?

        public init(name: String, summary: String, params: [ParamsSchema.Param]? = nil) {
            self.name = name
            self.summary = summary
            self.params = params
        }
    }
}
