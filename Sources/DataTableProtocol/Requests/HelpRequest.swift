/// `help`: the methods and what each does.
public struct HelpRequest: DataTableRequest {
    /// The method name on the wire: `"help"`.
    public static let method = "help"
    /// The line `help` shows for itself.
    public static let summary = "List the methods with a one-line description each, or describe one method."

    /// Describe only this method.
    public var method: String?

    /// Params asking for every method (`nil`) or one method by name.
    public init(method: String? = nil) { self.method = method }

    /// The methods described.
    public struct Response: Codable, Hashable, Sendable {
        /// Every method in ``MethodRegistry/all`` order, without params; or only the one asked for,
        /// with its params.
        public var methods: [MethodDescription]

        /// A reply with every member given.
        public init(methods: [MethodDescription]) { self.methods = methods }
    }

    /// One method in a `help` reply.
    public struct MethodDescription: Codable, Hashable, Sendable {
        /// The method's name, as `method` holds it in a request.
        public var name: String
        /// One line on what the method does.
        public var summary: String
        /// When one method is described: its params, as the daemon reads them.
        public var params: [ParamsSchema.Param]?

        /// A description with every member given; `params` may be left out.
        public init(name: String, summary: String, params: [ParamsSchema.Param]? = nil) {
            self.name = name
            self.summary = summary
            self.params = params
        }
    }
}
