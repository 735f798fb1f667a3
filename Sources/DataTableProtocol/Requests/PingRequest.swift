/// `ping`: is the daemon there? Takes no params.
public struct PingRequest: ParameterlessRequest {
    /// The `method` string on the wire.
    public static let method = "ping"
    /// The line `help` shows for the method.
    public static let summary = "Check that the daemon answers."

    /// Params of `ping`: there are none.
    public init() {}

    /// The `result` of a `ping`: `{"pong":true}`.
    public struct Response: Codable, Hashable, Sendable {
        /// Always `true`.
        public var pong: Bool

        /// A reply; `pong` is `true` unless given.
        public init(pong: Bool = true) { self.pong = pong }
    }
}
