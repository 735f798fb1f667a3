import DataTableProtocol
import Foundation

/// Maps method names to their handlers.
///
/// A handler is written against its typed params and reply
/// (`register(PingRequest.self) { request, context in … }`); the table erases the types so the
/// dispatcher can call it with the raw request line.
public struct MethodTable: Sendable {
    /// Decodes the params from the request line (from just the bytes at `params` when the
    /// envelope scanner found them), runs the handler and encodes its successful reply line
    /// (where the handler ran: a large reply is encoded off the event loop).
    typealias ErasedHandler =
        @Sendable (_ line: Data, _ params: Range<Int>?, _ context: inout RequestContext) async throws -> Data

    private var handlers: [String: ErasedHandler] = [:]

    public init() {}

    /// Methods whose work is small and bounded, answered right on the connection's event loop.
    /// Every other method (a sort, a load, a bulk change of a million rows) runs on the global
    /// concurrent executor, so it never holds up the other connections that loop serves.
    static let inline: Set<String> = [
        PingRequest.method, HelloRequest.method, HelpRequest.method, StatsRequest.method, TablesRequest.method,
        DescribeRequest.method, GetRequest.method, AddRequest.method, EditRequest.method, RevertRequest.method,
        UndoRequest.method, RedoRequest.method, ScrollRequest.method, SubscribeRequest.method,
        UnsubscribeRequest.method,
    ]

    /// Answers `Request.method` with `body`.
    public mutating func register<Request: DataTableRequest>(
        _ request: Request.Type,
        _ body: @escaping @Sendable (Request, inout RequestContext) async throws -> Request.Response
    ) {
        let parameterless = Request.self as? any ParameterlessRequest.Type
        let inline = Self.inline.contains(Request.method)
        handlers[Request.method] = { line, range, context in
            let params: Request
            if let parameterless {
                // Nothing to read (the dispatcher checked that params, if any, is an object).
                params = parameterless.init() as! Request
            } else if let range {
                // The params object alone: the decoder reads a third of the bytes or less.
                let start = line.startIndex
                do {
                    params = try JSONDecoder().decode(
                        Request.self,
                        from: line[start + range.lowerBound..<start + range.upperBound]
                    )
                } catch let error as DecodingError {
                    throw ResponseError(decoding: error, within: "params")
                }
            } else {
                do {
                    params = try JSONDecoder().decode(RequestParams<Request>.self, from: line).params
                } catch let error as DecodingError {
                    throw ResponseError(decoding: error)
                }
            }
            if inline { return ReplyEncoding.success(id: context.requestID, try await body(params, &context)) }
            return try await withTaskExecutorPreference(globalConcurrentExecutor) {
                ReplyEncoding.success(id: context.requestID, try await body(params, &context))
            }
        }
    }

    /// Whether a handler answers `method`.
    public func handles(_ method: String) -> Bool {
        handlers[method] != nil
    }

    func handler(for method: String) -> ErasedHandler? {
        handlers[method]
    }
}

extension ResponseError {
    /// An `invalid_params` error naming the member that could not be decoded; `within` names
    /// the member the decoded value sat in, when the coding path starts below it.
    init(decoding error: DecodingError, within: String? = nil) {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = within ?? ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : "." + key.stringValue
                }
            }
            return text.isEmpty ? "params" : text
        }
        switch error {
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            self = .invalidParams("\(field) must be \(Self.describe(type)).", field: field)
        case .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            self = .invalidParams("\(field) must be \(Self.describe(type)), not null.", field: field)
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            self = .invalidParams("\(field) is required.", field: field)
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            self = .invalidParams("\(field) is not valid: \(context.debugDescription)", field: field)
        @unknown default:
            self = .invalidParams("The params could not be read.")
        }
    }

    /// A JSON type name for a Swift type, as a person reads it.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type, is UInt32.Type:
            "a whole number"
        case is Double.Type, is Float.Type: "a number"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
