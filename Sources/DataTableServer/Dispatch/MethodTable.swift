import DataTableProtocol
import Foundation

/// Maps method names to their handlers.
///
/// A handler is written against its typed params and reply
/// (`register(PingRequest.self) { request, context in … }`); the table erases the types so the
/// dispatcher can call it with the raw request line.
///
/// Each method is classified for where it runs:
/// - **immediate** (``registerImmediate(_:when:_:)``): small, bounded work answered right where
///   the request was read, on the connection's event loop, in one pass from bytes to reply
///   (`ping`, `get` of a few rows, `edit` of a cell, `scroll` of a measured view). A request of
///   such a method that is not small (a bulk edit, a `get` of thousands of rows) runs off the
///   loop instead: the method's `when` says which.
/// - **off the loop** (``register(_:_:)``): everything else (a sort, a load, an export) runs
///   as a task on the global concurrent executor, so it never holds up the other connections
///   that loop serves; the connection answers its later requests once it is done, in order.
public struct MethodTable: Sendable {
    /// Decodes the params from the request line (from just the bytes at `params` when the
    /// envelope scanner found them), runs the handler and encodes its successful reply line
    /// (where the handler ran: a large reply is encoded off the event loop).
    typealias ErasedHandler =
        @Sendable (_ line: Data, _ params: Range<Int>?, _ context: inout RequestContext) async throws -> Data

    /// Decodes the params from the bytes of the request line and answers right away, or hands
    /// back what is left to do off the loop (with the params as decoded, so they are not read
    /// again), having changed nothing.
    typealias ImmediateHandler =
        @Sendable (_ line: UnsafeRawBufferPointer, _ params: Range<Int>?, _ context: inout RequestContext) throws
        -> Immediate

    /// What an immediate handler made of its request.
    enum Immediate: Sendable {
        /// The reply line, answered on the loop.
        case reply(Data)
        /// The rest of the work, to run off the loop.
        case later(@Sendable (_ context: inout RequestContext) async throws -> Data)
    }

    struct Handlers: Sendable {
        /// For a method whose requests may be answered on the loop; else `nil`, and the
        /// request goes off the loop before its params are read.
        var immediate: ImmediateHandler?
        var full: ErasedHandler
    }

    private var handlers: [String: Handlers] = [:]

    /// A table without methods: every name is `unknown_method` until registered (``builtin()`` has them all).
    public init() {}

    /// Answers `Request.method` with `body`, off the event loop.
    public mutating func register<Request: DataTableRequest>(
        _ request: Request.Type,
        _ body: @escaping @Sendable (Request, inout RequestContext) async throws -> Request.Response
    ) {
        handlers[Request.method] = Handlers(immediate: nil, full: Self.erased(Request.self, body))
    }

    /// As ``register(_:_:)``, with a reply of the server's own type that encodes as
    /// `Request.Response` does (`export` writes its text straight from the engine's bytes).
    mutating func register<Request: DataTableRequest, Reply: Encodable & Sendable>(
        _ request: Request.Type,
        replying _: Reply.Type,
        _ body: @escaping @Sendable (Request, inout RequestContext) async throws -> Reply
    ) {
        handlers[Request.method] = Handlers(immediate: nil, full: Self.erased(Request.self, body))
    }

    /// Answers `Request.method` with `body`, right on the event loop when `when` says the
    /// request is small (and off the loop when it is not).
    public mutating func registerImmediate<Request: DataTableRequest>(
        _ request: Request.Type,
        when isSmall: @escaping @Sendable (Request) -> Bool = { _ in true },
        _ body: @escaping @Sendable (Request, inout RequestContext) throws -> Request.Response
    ) {
        registerImmediate(Request.self, replying: Request.Response.self, when: isSmall, body)
    }

    /// As ``registerImmediate(_:when:_:)``, with a reply of the server's own type that encodes
    /// as `Request.Response` does (`get` writes its reply straight from the engine's rows).
    mutating func registerImmediate<Request: DataTableRequest, Reply: Encodable & Sendable>(
        _ request: Request.Type,
        replying _: Reply.Type,
        when isSmall: @escaping @Sendable (Request) -> Bool = { _ in true },
        _ body: @escaping @Sendable (Request, inout RequestContext) throws -> Reply
    ) {
        register(Request.self, replying: Reply.self) { request, context in
            isSmall(request) ? try body(request, &context) : nil
        } otherwise: { request, context in
            try body(request, &context)
        }
    }

    /// Answers `Request.method` with `immediate` on the event loop; where it returns `nil`
    /// (having changed nothing), with `body` off the loop.
    public mutating func register<Request: DataTableRequest>(
        _ request: Request.Type,
        immediate: @escaping @Sendable (Request, inout RequestContext) throws -> Request.Response?,
        otherwise body: @escaping @Sendable (Request, inout RequestContext) async throws -> Request.Response
    ) {
        register(Request.self, replying: Request.Response.self, immediate: immediate, otherwise: body)
    }

    /// As ``register(_:immediate:otherwise:)``, with a reply of the server's own type that
    /// encodes as `Request.Response` does (`scroll` writes its reply straight from the
    /// engine's window).
    mutating func register<Request: DataTableRequest, Reply: Encodable & Sendable>(
        _ request: Request.Type,
        replying _: Reply.Type,
        immediate: @escaping @Sendable (Request, inout RequestContext) throws -> Reply?,
        otherwise body: @escaping @Sendable (Request, inout RequestContext) async throws -> Reply
    ) {
        let decode = Self.decoder(Request.self)
        let encode = ReplyEncoding.encoder(for: Reply.self)
        handlers[Request.method] = Handlers(
            immediate: { line, range, context in
                let params = try decode(line, range, context.lenientParams)
                if let response = try immediate(params, &context) { return .reply(encode(context.requestID, response)) }
                return .later { context in try await Self.offLoop(params, &context, body) }
            },
            full: Self.erased(Request.self, body)
        )
    }

    private static func erased<Request: DataTableRequest, Reply: Encodable & Sendable>(
        _: Request.Type,
        _ body: @escaping @Sendable (Request, inout RequestContext) async throws -> Reply
    ) -> ErasedHandler {
        let decode = decoder(Request.self)
        return { line, range, context in
            let params = try line.withUnsafeBytes { try decode($0, range, context.lenientParams) }
            return try await offLoop(params, &context, body)
        }
    }

    /// Runs `body` on the global concurrent executor and encodes its reply there.
    private static func offLoop<Request: DataTableRequest, Reply: Encodable & Sendable>(
        _ params: Request,
        _ context: inout RequestContext,
        _ body: @escaping @Sendable (Request, inout RequestContext) async throws -> Reply
    ) async throws -> Data {
        try await withTaskExecutorPreference(globalConcurrentExecutor) {
            let reply = try await body(params, &context)
            // A change replayed from the log answers nobody: its reply (an `alter`'s lists
            // every column) is not encoded.
            return context.isReplay ? Data() : ReplyEncoding.success(id: context.requestID, reply)
        }
    }

    /// How `Request`'s params are read from a request line: straight from the bytes where
    /// ``ReadableParams`` can, else with `JSONDecoder` (from just the params object when the
    /// envelope scanner found it). Params the method does not take are ignored when `lenient`
    /// (``RequestContext/lenientParams``), else refused.
    private static func decoder<Request: DataTableRequest>(
        _: Request.Type
    ) -> @Sendable (UnsafeRawBufferPointer, Range<Int>?, _ lenient: Bool) throws -> Request {
        let read = readRequest(Request.self)
        return { line, range, lenient in
            let request = try read(line, range, lenient)
            try request.validate()
            return request
        }
    }

    /// How `Request` is read from a request line, before its members are checked together.
    private static func readRequest<Request: DataTableRequest>(
        _: Request.Type
    ) -> @Sendable (UnsafeRawBufferPointer, Range<Int>?, _ lenient: Bool) throws -> Request {
        let parameterless = Request.self is any ParameterlessRequest.Type
        return { line, range, lenient in
            if parameterless {
                // Nothing to read (the dispatcher checked that params, if any, is an object);
                // a member in it is one the method does not take.
                let request = Request.readParams(UnsafeRawBufferPointer(start: nil, count: 0))!
                if let range, !lenient,
                    line[range].contains(where: { $0 != UInt8(ascii: "{") && $0 != UInt8(ascii: "}") && $0 > 0x20 })
                {
                    try KnownParams.check(request, sent: Data(UnsafeRawBufferPointer(rebasing: line[range])))
                }
                return request
            }
            if let range, let read = Request.readParams(UnsafeRawBufferPointer(rebasing: line[range])) {
                return read
            }
            let bytes = Data(range.map { UnsafeRawBufferPointer(rebasing: line[$0]) } ?? line)
            let request: Request
            do {
                if range != nil {
                    request = try JSONDecoder().decode(Request.self, from: bytes)
                } else {
                    request = try JSONDecoder().decode(RequestParams<Request>.self, from: bytes).params
                }
            } catch let error as DecodingError {
                throw ResponseError(decoding: error, within: range != nil ? "params" : nil)
            } catch let error as UnknownChoice {
                // A name outside the set a member takes: the error that member has always had.
                throw error.responseError(within: range != nil ? "params" : nil)
            }
            if !lenient {
                let params = range != nil ? bytes : Self.paramsMember(of: bytes)
                if let params { try KnownParams.check(request, sent: params) }
            }
            return request
        }
    }

    /// The bytes of the `params` member of a whole request line, when it has one.
    private static func paramsMember(of line: Data) -> Data? {
        guard case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: line),
            let params = members["params"], case .object = params
        else { return nil }
        return try? JSONEncoder().encode(params)
    }

    /// Whether a handler answers `method`.
    public func handles(_ method: String) -> Bool {
        handlers[method] != nil
    }

    func handlers(for method: String) -> Handlers? {
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
