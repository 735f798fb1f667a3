/// `ping`: is the daemon there? Takes no params.
public struct PingRequest: ParameterlessRequest {
    public static let method = "ping"
    public static let summary = "Check that the daemon answers."

    public init() {}

    public struct Response: Codable, Hashable, Sendable {
        /// Always `true`.
        public var pong: Bool

        public init(pong: Bool = true) { self.pong = pong }
    }
}
