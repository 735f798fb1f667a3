/// Who may use a bridge: the holder of its token, from a page the bridge itself served.
///
/// As a notebook server protects itself: the bridge prints a URL with a random token; the first
/// request that carries it gets the token back as an HTTP-only, same-site cookie, and every
/// later request must carry the cookie. A page elsewhere cannot read the cookie, and the
/// browser does not send it with a request another site makes. Against DNS rebinding (a name
/// of the attacker's pointed at 127.0.0.1 after the page loaded) every request must name the
/// bridge by the address it listens on in `Host`, and a WebSocket must come from an `Origin`
/// of the bridge's own.
public struct BridgeAccess: Sendable {
    /// The secret the URL carries and the cookie holds: 32 random bytes in hexadecimal.
    public let token: String
    /// The `Host` values the bridge answers to: its address and port, and `localhost` with the
    /// port when it listens on loopback.
    public let hosts: Set<String>

    /// The port the bridge listens on.
    public let port: Int

    /// The name of the cookie that holds the token. A browser sends a host's cookies to every
    /// port of it, so each bridge names its own by its port.
    public var cookieName: String { "datatable-web-\(port)" }

    /// Access for a bridge at `address` (as it listens: `127.0.0.1`, `::1`, a name) and
    /// `port`, with `token`.
    public init(token: String, address: String, port: Int) {
        self.token = token
        self.port = port
        var hosts: Set<String> = []
        let bracketed = address.contains(":") ? "[\(address)]" : address
        hosts.insert("\(bracketed):\(port)")
        if Self.isLoopback(address) {
            hosts.insert("localhost:\(port)")
            hosts.insert("127.0.0.1:\(port)")
            hosts.insert("[::1]:\(port)")
        }
        self.hosts = hosts
    }

    /// Whether `address` is a loopback address.
    public static func isLoopback(_ address: String) -> Bool {
        address == "localhost" || address == "::1" || address.hasPrefix("127.")
    }

    /// A new token: 32 bytes from the system's random source (the kernel's `getrandom`, a
    /// cryptographically secure generator), in hexadecimal.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String(
            (0..<32).flatMap { _ -> [Character] in
                let byte = UInt8.random(in: .min ... .max, using: &generator)
                return [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        )
    }

    /// Whether `host` (a request's `Host`) names this bridge.
    public func admitsHost(_ host: String?) -> Bool {
        guard let host else { return false }
        return hosts.contains(host.lowercased())
    }

    /// Whether `origin` (a WebSocket request's `Origin`) is a page of this bridge's.
    public func admitsOrigin(_ origin: String?) -> Bool {
        guard let origin, origin.hasPrefix("http://") else { return false }
        return hosts.contains(String(origin.dropFirst("http://".count)).lowercased())
    }

    /// Whether `candidate` is the token, compared in time that does not depend on where the two
    /// first differ.
    public func isToken(_ candidate: String?) -> Bool {
        guard let candidate else { return false }
        let given = Array(candidate.utf8)
        let expected = Array(token.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= given[index] ^ expected[index] }
        return difference == 0
    }
}
