/// `hello`: negotiate the protocol version and learn the daemon's limits and features.
///
/// The connection speaks the highest version both sides know, never above `version`. Without
/// `hello`, version 1 applies.
public struct HelloRequest: DataTableRequest {
    public static let method = "hello"
    public static let summary = "Negotiate the protocol version; report the server version, limits and features."

    /// The highest protocol version the client speaks; absent means the newest the daemon has.
    public var version: Int?
    /// A name for the client, for the daemon's logs.
    public var client: String?
    /// `true`: on this connection, params a method does not take are ignored instead of refused
    /// (for clients written against a newer daemon that send members this one lacks).
    public var lenientParams: Bool?

    public init(version: Int? = nil, client: String? = nil, lenientParams: Bool? = nil) {
        self.version = version
        self.client = client
        self.lenientParams = lenientParams
    }

    public struct Response: Codable, Hashable, Sendable {
        /// The protocol version this connection now speaks.
        public var `protocol`: Int
        /// Every protocol version the daemon speaks.
        public var protocols: [Int]
        /// `"datatabled"`.
        public var server: String
        /// The daemon's release.
        public var version: String
        public var limits: ServerLimits
        /// Named capabilities, e.g. `"batch"`, `"pipelining"`, `"shell-mode"`.
        public var features: [String]

        public init(
            protocol: Int,
            protocols: [Int],
            server: String,
            version: String,
            limits: ServerLimits,
            features: [String]
        ) {
            self.protocol = `protocol`
            self.protocols = protocols
            self.server = server
            self.version = version
            self.limits = limits
            self.features = features
        }
    }
}
