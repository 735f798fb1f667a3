/// A JSON-RPC error code: the standard ones, and the daemon's own in -32000...-32099.
///
/// An extensible set rather than a closed enum, so a client decodes codes a newer daemon sends.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The number sent as `error.code`.
    public var rawValue: Int

    /// The code `rawValue`, known or not.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The code as a decimal number, like `-32602`.
    public var description: String { String(rawValue) }

    // Standard JSON-RPC 2.0 codes.

    /// The line is not JSON.
    public static let parseError = ErrorCode(rawValue: -32700)
    /// The JSON is not a request object (or a batch of them).
    public static let invalidRequest = ErrorCode(rawValue: -32600)
    /// No method of that name.
    public static let methodNotFound = ErrorCode(rawValue: -32601)
    /// The params are missing a member, have a member of the wrong type, or a value out of range.
    public static let invalidParams = ErrorCode(rawValue: -32602)
    /// The daemon failed; the request changed nothing.
    public static let internalError = ErrorCode(rawValue: -32603)

    // The daemon's own codes, -32000...-32099.

    /// A configured limit refused the request (line length, connections, batch size, …).
    public static let limitExceeded = ErrorCode(rawValue: -32000)
    /// The named table does not exist.
    public static let noSuchTable = ErrorCode(rawValue: -32001)
    /// A row id or index does not exist in the table.
    public static let noSuchRow = ErrorCode(rawValue: -32002)
    /// The cell, row, column or table is read-only.
    public static let readOnly = ErrorCode(rawValue: -32003)
    /// Something of that name already exists.
    public static let conflict = ErrorCode(rawValue: -32004)
    /// The daemon is shutting down and takes no new work.
    public static let unavailable = ErrorCode(rawValue: -32005)
    /// The peer is not allowed to talk to this daemon.
    public static let notPermitted = ErrorCode(rawValue: -32006)
    /// The peer may not do this to this table (its owner and mode say so).
    public static let permissionDenied = ErrorCode(rawValue: -32007)
}
