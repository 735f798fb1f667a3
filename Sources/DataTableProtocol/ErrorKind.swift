/// The machine-readable reason of an error, sent as `error.data.kind`.
///
/// Codes group errors the way JSON-RPC tooling expects; kinds say precisely what went wrong and
/// are what a client should switch on. An extensible set: unknown kinds decode as themselves.
public struct ErrorKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The text sent as `error.data.kind`, like `invalid_params`.
    public var rawValue: String

    /// The kind `rawValue`, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The kind as sent on the wire.
    public var description: String { rawValue }

    /// The line is not JSON. Code ``ErrorCode/parseError``.
    public static let parseError = ErrorKind(rawValue: "parse_error")
    /// Valid JSON that is not a request. Code ``ErrorCode/invalidRequest``.
    public static let invalidRequest = ErrorKind(rawValue: "invalid_request")
    /// No such method. Code ``ErrorCode/methodNotFound``.
    public static let unknownMethod = ErrorKind(rawValue: "unknown_method")
    /// A param is missing or has the wrong JSON type. Code ``ErrorCode/invalidParams``.
    public static let invalidParams = ErrorKind(rawValue: "invalid_params")
    /// A param has the right type but a value the daemon cannot accept. Code ``ErrorCode/invalidParams``.
    public static let invalidValue = ErrorKind(rawValue: "invalid_value")
    /// The daemon failed. Code ``ErrorCode/internalError``.
    public static let internalError = ErrorKind(rawValue: "internal_error")
    /// A configured limit refused the request; `data.limit` names it. Code ``ErrorCode/limitExceeded``.
    public static let limitExceeded = ErrorKind(rawValue: "limit_exceeded")
    /// Code ``ErrorCode/noSuchTable``.
    public static let noSuchTable = ErrorKind(rawValue: "no_such_table")
    /// Code ``ErrorCode/noSuchRow``.
    public static let noSuchRow = ErrorKind(rawValue: "no_such_row")
    /// Code ``ErrorCode/readOnly``.
    public static let readOnly = ErrorKind(rawValue: "read_only")
    /// Code ``ErrorCode/conflict``.
    public static let alreadyExists = ErrorKind(rawValue: "already_exists")
    /// Code ``ErrorCode/unavailable``.
    public static let shuttingDown = ErrorKind(rawValue: "shutting_down")
    /// Code ``ErrorCode/invalidParams``: the column named does not exist.
    public static let noSuchColumn = ErrorKind(rawValue: "no_such_column")
    /// Code ``ErrorCode/conflict``: `undo` or `redo` has nothing to take back or make again.
    public static let nothingToUndo = ErrorKind(rawValue: "nothing_to_undo")
    /// Code ``ErrorCode/conflict``: the request's `ifVersion` is not the table's version (someone
    /// changed it first); `data.version` is the table's version now.
    public static let conflict = ErrorKind(rawValue: "conflict")
    /// Code ``ErrorCode/notPermitted``.
    public static let notPermitted = ErrorKind(rawValue: "not_permitted")
    /// Code ``ErrorCode/permissionDenied``: the table's owner and mode do not let the peer read
    /// it, change it, or (for `drop` and `chmod`) act as its owner.
    public static let permissionDenied = ErrorKind(rawValue: "permission_denied")
    /// Code ``ErrorCode/internalError``: the state directory cannot take the change's record
    /// (its filesystem is full, say), so the change was not made; changes are accepted again as
    /// soon as it can.
    public static let notSaved = ErrorKind(rawValue: "not_saved")
    /// Code ``ErrorCode/unavailable``: the source an attached table's rows come from (its
    /// database) cannot be reached, so the change was not made; the table stays readable.
    public static let sourceUnavailable = ErrorKind(rawValue: "source_unavailable")
    /// Code ``ErrorCode/conflict``: the source refused the change (a constraint, a permission, a
    /// transaction it could not order); `data.column` names the cell's column where it can.
    /// Nothing changed on either side.
    public static let sourceRefused = ErrorKind(rawValue: "source_refused")

    /// Every kind the daemon answers with.
    public static let all: [ErrorKind] = [
        .parseError, .invalidRequest, .unknownMethod, .invalidParams, .invalidValue, .internalError, .limitExceeded,
        .noSuchTable, .noSuchRow, .readOnly, .alreadyExists, .shuttingDown, .noSuchColumn, .nothingToUndo,
        .notPermitted, .permissionDenied, .notSaved, .conflict, .sourceUnavailable, .sourceRefused,
    ]
}
