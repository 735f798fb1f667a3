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
    public var id: JSONValue?
    /// The id as the client wrote it, when it is a number a `Double` would not echo exactly.
    public var exactID: String?
    public var hasID: Bool
    public var method: JSONValue?
    public var params: ParamsShape
    /// Where the `params` object sits in the line (byte offsets from the line's start), when
    /// the ``EnvelopeScanner`` read it; the params can then be decoded from just those bytes.
    public var paramsRange: Range<Int>?

    /// What kind of JSON the `params` member held, without decoding it.
    public enum ParamsShape: Sendable, Equatable {
        case absent
        case object
        case other(String)
    }

    private enum CodingKeys: String, CodingKey {
        case jsonrpc, id, method, params
    }

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
    public var params: Request

    private enum CodingKeys: String, CodingKey {
        case params
    }

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
    public var jsonrpc = jsonRPCVersion
    public var id: RequestID
    public var method: String
    public var params: Request

    public init(id: RequestID, params: Request) {
        self.id = id
        self.method = Request.method
        self.params = params
    }
}

/// A successful reply.
public struct ResultMessage<Result: Encodable & Sendable>: Encodable, Sendable {
    public var jsonrpc = jsonRPCVersion
    public var id: RequestID
    public var result: Result

    public init(id: RequestID, result: Result) {
        self.id = id
        self.result = result
    }
}

/// A failed reply. `id` is `null` when the request's id could not be read.
public struct ErrorMessage: Codable, Sendable {
    public var jsonrpc = jsonRPCVersion
    public var id: RequestID
    public var error: ResponseError

    public init(id: RequestID, error: ResponseError) {
        self.id = id
        self.error = error
    }
}

/// Any reply, as a client reads it: `result` or `error`, never both.
public struct ReplyMessage: Decodable, Sendable {
    public var id: RequestID
    public var result: JSONValue?
    public var error: ResponseError?
}
