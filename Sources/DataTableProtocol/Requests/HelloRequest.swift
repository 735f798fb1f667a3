import MemberwiseInit

/// `hello`: negotiate the protocol version and learn the daemon's limits and features.
///
/// The connection speaks the highest version both sides know, never above `version`. Without
/// `hello`, version 1 applies.
@MemberwiseInit
public struct HelloRequest: DataTableRequest {
    /// The method name on the wire: `"hello"`.
    public static let method = "hello"
    /// The line `help` shows for `hello`.
    public static let summary = "Negotiate the protocol version; report the server version, limits and features."

    /// The highest protocol version the client speaks; absent means the newest the daemon has.
    public var version: Int?
    /// A name for the client, for the daemon's logs.
    public var client: String?
    /// `true`: on this connection, params a method does not take are ignored instead of refused
    /// (for clients written against a newer daemon that send members this one lacks).
    public var lenientParams: Bool?

    /// The protocol version agreed on, and what the daemon is and allows.
    @MemberwiseInit
    public struct Response: Codable, Hashable, Sendable {
        /// The protocol version this connection now speaks.
        public var `protocol`: Int
        /// Every protocol version the daemon speaks.
        public var protocols: [Int]
        /// `"datatabled"`.
        public var server: String
        /// The daemon's release.
        public var version: String
        /// The limits the daemon was started with (its flags, else their defaults).
        public var limits: ServerLimits
        /// Named capabilities, e.g. `"batch"`, `"pipelining"`, `"shell-mode"`.
        public var features: [String]
        /// Which paths this connection may name to `load` and `export`.
        public var files: FilePaths
        /// The names of the sources tables may be attached to (`attach`); absent when the
        /// daemon has none.
        public var sources: [String]?
    }

    /// Which paths a connection may name to `load` from and `export` to, by its peer's
    /// credentials and the daemon's directories. A client sends the rows (or streams an export)
    /// instead when the path is not among them.
    @MemberwiseInit
    public struct FilePaths: Codable, Hashable, Sendable {
        /// The peer is root or the daemon's own user: any path the daemon can reach.
        public var anyPath: Bool
        /// Otherwise, paths beneath this directory may be loaded from (`--import-dir`).
        public var importDir: String?
        /// Otherwise, paths beneath this directory may be exported to (`--export-dir`).
        public var exportDir: String?

        /// Whether a `load` may name `path` (absolute): any path, or one beneath `importDir`.
        public func mayLoad(from path: String) -> Bool {
            anyPath || importDir.map { Self.path(path, isBeneath: $0) } == true
        }

        /// Whether an `export` may name `path` (absolute): any path, or one beneath `exportDir`.
        public func mayExport(to path: String) -> Bool {
            anyPath || exportDir.map { Self.path(path, isBeneath: $0) } == true
        }

        /// Whether `path` lies strictly beneath `directory`, by its text (the daemon still checks
        /// each step when it opens it).
        static func path(_ path: String, isBeneath directory: String) -> Bool {
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            return path.hasPrefix(prefix) && path.count > prefix.count && !path.contains("/../")
        }
    }
}
