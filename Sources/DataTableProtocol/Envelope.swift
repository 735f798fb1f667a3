import Foundation

/// The JSON-RPC version string every reply carries.
public let jsonRPCVersion = "2.0"

/// The envelope members of an incoming request, read before the method is known.
///
/// Every member is kept as raw JSON so that a wrong type becomes a precise error instead of a
/// decoding failure, and absence is told apart from `null` (an absent `id` makes a notification).
public struct RequestHeader: Decodable, Sendable {
    /// `"jsonrpc"` as sent; absent means the shell-friendly mode that always replies.
    public var jsonrpc: JSONValue?
    /// `id` as sent: `nil` when the member is absent, `.null` when the client sent `null`; a value
    /// that is not a string, number or `null` is refused with `invalid_request`.
    public var id: JSONValue?
    /// The id as the client wrote it, when it is a number a `Double` would not echo exactly.
    public var exactID: String?
    /// Whether the request has an `id` member at all (even `null`); a `"2.0"` request without one
    /// is a notification and gets no reply.
    public var hasID: Bool
    /// `method` as sent, of any JSON type (anything but a string is `invalid_request`); `nil` when
    /// absent or `null`.
    public var method: JSONValue?
    /// The JSON type of `params`; `null` counts as absent, which reads as `{}`.
    public var params: ParamsShape
    /// Where the `params` object sits in the line (byte offsets from the line's start), when
    /// the ``EnvelopeScanner`` read it; the params can then be decoded from just those bytes.
    public var paramsRange: Range<Int>?

    /// What kind of JSON the `params` member held, without decoding it.
    public enum ParamsShape: Sendable, Equatable {
        /// No `params` member, or `null`: the same as `{}`.
        case absent
        /// An object, the only shape a method takes.
        case object
        /// Any other JSON type, named as an error message says it ("an array", "a string", …): the
        /// request is refused with `invalid_params`, `data.field` `params`.
        case other(String)
    }

    private enum CodingKeys: String, CodingKey {
        case jsonrpc, id, method, params
    }

    /// Whether the request is a notification, answered with nothing (not even an error): strict
    /// JSON-RPC (`"jsonrpc":"2.0"`), a string `method`, and no `id` member. A malformed request
    /// without an id is not one: JSON-RPC answers it with a null id.
    public var isNotification: Bool {
        jsonrpc == .string(jsonRPCVersion) && !hasID && method?.stringValue != nil
    }

    /// A header of the given members; `paramsRange` is where the params object sits in the line,
    /// when known. ``exactID`` starts out `nil`.
    public init(
        jsonrpc: JSONValue?,
        id: JSONValue?,
        hasID: Bool,
        method: JSONValue?,
        params: ParamsShape,
        paramsRange: Range<Int>? = nil
    ) {
        self.jsonrpc = jsonrpc
        self.id = id
        self.hasID = hasID
        self.method = method
        self.params = params
        self.paramsRange = paramsRange
    }

    private struct Shape: Decodable {
        var shape: ParamsShape
        init(from decoder: any Decoder) throws {
            if (try? decoder.container(keyedBy: CodingKeys.self)) != nil {
                shape = .object
                return
            }
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                shape = .absent
            } else if (try? container.decode([JSONValue].self)) != nil {
                shape = .other("an array")
            } else if (try? container.decode(String.self)) != nil {
                shape = .other("a string")
            } else if (try? container.decode(Bool.self)) != nil {
                shape = .other("a boolean")
            } else {
                shape = .other("a number")
            }
        }
    }

    /// Reads the envelope members with a `Decoder`; ``exactID`` and ``paramsRange`` stay `nil`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        jsonrpc = try container.decodeIfPresent(JSONValue.self, forKey: .jsonrpc)
        hasID = container.contains(.id)
        // `JSONValue?.none`, not `nil`: JSONValue is ExpressibleByNilLiteral, and a bare `nil`
        // here would read as `.null`.
        id = hasID ? try container.decode(JSONValue.self, forKey: .id) : JSONValue?.none
        method = try container.decodeIfPresent(JSONValue.self, forKey: .method)
        params = try container.decodeIfPresent(Shape.self, forKey: .params)?.shape ?? .absent
    }
}

extension RequestHeader: Equatable {
    /// Equal envelopes: the same members; where the params sit is not part of it.
    public static func == (left: RequestHeader, right: RequestHeader) -> Bool {
        left.jsonrpc == right.jsonrpc && left.id == right.id && left.hasID == right.hasID
            && left.method == right.method && left.params == right.params
    }
}

/// The params of a request of a known method, decoded in a second pass over the same line.
public struct RequestParams<Request: DataTableRequest>: Decodable {
    /// The params; absent or `null` params are decoded from `{}`, so each member takes its default.
    public var params: Request

    private enum CodingKeys: String, CodingKey {
        case params
    }

    /// Decodes the `params` member of a request object; a required member missing from it throws.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.params), try !container.decodeNil(forKey: .params) {
            params = try container.decode(Request.self, forKey: .params)
        } else {
            // Absent or null params read as `{}`: every member takes its default.
            params = try JSONDecoder().decode(Request.self, from: Data("{}".utf8))
        }
    }
}

/// A request as a client sends it.
public struct RequestMessage<Request: DataTableRequest>: Encodable, Sendable {
    /// Always `"2.0"`.
    public var jsonrpc = jsonRPCVersion
    /// The id the reply echoes.
    public var id: RequestID
    /// The method's wire name, `Request.method`.
    public var method: String
    /// The params, encoded as the `params` object.
    public var params: Request

    /// A request with `id` for the method `Request` stands for.
    public init(id: RequestID, params: Request) {
        self.id = id
        self.method = Request.method
        self.params = params
    }
}

/// Any reply, as a client reads it: `result` or `error`, never both.
public struct ReplyMessage: Decodable, Sendable {
    /// The id of the request answered; `null` when it had none (shell mode) or it could not be read.
    public var id: RequestID
    /// The `result` member; `nil` when the request failed.
    public var result: JSONValue?
    /// The `error` member; `nil` when the request succeeded.
    public var error: ResponseError?
}
