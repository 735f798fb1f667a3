/// The `error` member of a reply: a JSON-RPC code, one sentence a person can read, and `data`
/// carrying the machine-readable `kind` plus any details (`field`, `limit`, `method`, …).
///
/// Handlers throw it; the dispatcher turns it into the reply. Nothing is applied when a request
/// fails with one of these.
public struct ResponseError: Error, Hashable, Sendable {
    /// The JSON-RPC code, sent as `error.code`.
    public var code: ErrorCode
    /// One sentence for a person, sent as `error.message`.
    public var message: String
    /// What went wrong, sent as `error.data.kind`; what a client should switch on.
    public var kind: ErrorKind
    /// Extra members of `data` beside `kind`.
    public var details: [String: JSONValue]

    /// An error of `code` and `kind`; `details` become the members of `data` beside `kind`.
    public init(code: ErrorCode, kind: ErrorKind, message: String, details: [String: JSONValue] = [:]) {
        self.code = code
        self.kind = kind
        self.message = message
        self.details = details
    }
}

extension ResponseError {
    /// The line is not JSON: `parse_error`, code -32700.
    public static func parseError(_ message: String) -> ResponseError {
        ResponseError(code: .parseError, kind: .parseError, message: message)
    }

    /// The JSON is not a request (no `method`, a bad `jsonrpc` or `id`, …): `invalid_request`, code -32600.
    public static func invalidRequest(_ message: String) -> ResponseError {
        ResponseError(code: .invalidRequest, kind: .invalidRequest, message: message)
    }

    /// No method is named `method`: `unknown_method`, code -32601, with `data.method`.
    public static func unknownMethod(_ method: String) -> ResponseError {
        ResponseError(
            code: .methodNotFound,
            kind: .unknownMethod,
            message: "There is no method \"\(method)\"; \"help\" lists the methods.",
            details: ["method": .string(method)]
        )
    }

    /// A param is missing or of the wrong type; `field` is its path, like `params.version`.
    public static func invalidParams(_ message: String, field: String? = nil) -> ResponseError {
        ResponseError(
            code: .invalidParams,
            kind: .invalidParams,
            message: message,
            details: field.map { ["field": .string($0)] } ?? [:]
        )
    }

    /// A param has an acceptable type but not an acceptable value.
    public static func invalidValue(_ message: String, field: String? = nil) -> ResponseError {
        ResponseError(
            code: .invalidParams,
            kind: .invalidValue,
            message: message,
            details: field.map { ["field": .string($0)] } ?? [:]
        )
    }

    /// The daemon failed and changed nothing: `internal_error`, code -32603.
    public static func internalError(_ message: String = "The daemon failed to answer; nothing was changed.")
        -> ResponseError
    {
        ResponseError(code: .internalError, kind: .internalError, message: message)
    }

    /// The state directory could not take the change's record, so the change was not made.
    /// `ifVersion` was `expected`, but the table called `table` is at `current`: someone changed it first.
    public static func versionConflict(table: String, expected: Int, current: Int) -> ResponseError {
        ResponseError(
            code: .conflict,
            kind: .conflict,
            message: "The table \(table) is at version \(current), not \(expected): it changed since; "
                + "read it again and retry.",
            details: ["version": .integer(Int64(current)), "table": .string(table)]
        )
    }

    /// `source_unavailable`: the attached table's source cannot be reached; nothing changed.
    public static func sourceUnavailable(_ message: String, source: String) -> ResponseError {
        ResponseError(
            code: .unavailable,
            kind: .sourceUnavailable,
            message: message,
            details: ["source": .string(source)]
        )
    }

    /// `source_refused`: the source refused the change; `column` names the cell's column where
    /// the source said which. Nothing changed.
    public static func sourceRefused(_ message: String, source: String, column: String? = nil) -> ResponseError {
        var details: [String: JSONValue] = ["source": .string(source)]
        if let column { details["column"] = .string(column) }
        return ResponseError(code: .conflict, kind: .sourceRefused, message: message, details: details)
    }

    public static func notSaved(_ reason: String) -> ResponseError {
        ResponseError(
            code: .internalError,
            kind: .notSaved,
            message: "Nothing was changed: the state directory cannot take changes now (\(reason)); "
                + "they are accepted again as soon as it can."
        )
    }

    /// A configured limit refused the request. `limit` is the limit's name as `hello` reports it.
    public static func limitExceeded(_ message: String, limit: String, value: Int) -> ResponseError {
        ResponseError(
            code: .limitExceeded,
            kind: .limitExceeded,
            message: message,
            details: ["limit": .string(limit), "max": .integer(Int64(value))]
        )
    }
}

extension ResponseError: Codable {
    private enum CodingKeys: String, CodingKey {
        case code, message, data
    }

    private struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes `code`, `message` and `data`; a missing `data.kind` reads as `unknown`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(ErrorCode.self, forKey: .code)
        message = try container.decode(String.self, forKey: .message)
        var data = try container.decodeIfPresent([String: JSONValue].self, forKey: .data) ?? [:]
        kind = ErrorKind(rawValue: data.removeValue(forKey: "kind")?.stringValue ?? "unknown")
        details = data
    }

    /// Encodes `code`, `message` and `data`: `kind` and the details beside it (a detail named `kind` is left out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(message, forKey: .message)
        var data = container.nestedContainer(keyedBy: DynamicKey.self, forKey: .data)
        try data.encode(kind, forKey: DynamicKey(stringValue: "kind"))
        for key in details.keys.sorted() where key != "kind" {
            try data.encode(details[key], forKey: DynamicKey(stringValue: key))
        }
    }
}
