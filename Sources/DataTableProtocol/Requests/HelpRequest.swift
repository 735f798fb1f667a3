import MemberwiseInit

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
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// Every method in ``MethodRegistry/all`` order, without params; or only the one asked for,
        /// with its params.
        public var methods: [MethodDescription]
    }

    /// One method in a `help` reply.
    @MemberwiseInit
    public struct MethodDescription: Codable, Hashable, Sendable {
        /// The method's name, as `method` holds it in a request.
        public var name: String
        /// One line on what the method does.
        public var summary: String
        /// When one method is described: its params, as the daemon reads them.
        public var params: [ParamsSchema.Param]?
    }
}
