import DataTableEngine
import DataTableProtocol
import Foundation
import Logging

/// Turns one request line into the reply line to send, if any.
///
/// The rules (protocol.md, "Envelope"):
/// - an empty line is ignored;
/// - a request with `"jsonrpc":"2.0"` and no `id` is a notification and gets no reply, not even
///   an error;
/// - a request without `"jsonrpc"` (shell mode) always gets a reply, with `"id":null` when it had
///   none;
/// - a JSON array is a batch: one array of replies, in request order, leaving out notifications;
/// - every malformed request gets one error reply and changes nothing.
///
/// The dispatcher holds no per-connection state; that lives in the ``RequestContext`` the caller
/// owns. It never throws: a failing handler becomes an error reply.
public struct RequestDispatcher: Sendable {
    /// The handlers, by method name; a name not in it is `unknown_method`.
    public let methods: MethodTable
    /// The configured limits; of them, the dispatcher reads `maxBatchSize` (a longer batch is
    /// `limit_exceeded`, and none of it is carried out).
    public let limits: ServerLimits

    /// A dispatcher answering with `methods` under `limits`.
    public init(methods: MethodTable, limits: ServerLimits) {
        self.methods = methods
        self.limits = limits
    }

    /// What ``dispatch(_:context:)`` made of a line, on the connection's event loop.
    public enum Dispatched: Sendable {
        /// Answered (or refused) right there; its reply may still wait for the log.
        case answered(PendingReply)
        /// To be answered off the loop; the connection's later lines wait for it.
        case offLoop(OffLoopRequest)
    }

    /// A request handed off the loop, with what was already read of it (its envelope and, for
    /// a method that tried to answer on the loop, its params), so nothing is read twice.
    public struct OffLoopRequest: Sendable {
        fileprivate let run: @Sendable (inout RequestContext) async -> PendingReply

        /// Answers the request, on the global concurrent executor.
        public func answer(context: inout RequestContext) async -> PendingReply {
            await run(&context)
        }
    }

    /// The reply to `line` (without its newline), or `nil` when nothing is to be sent. When the
    /// request made a change and the daemon keeps a state directory, this returns once the
    /// change is in the log (see ``pendingReply(to:context:)``).
    public func reply(to line: Data, context: inout RequestContext) async -> Data? {
        await pendingReply(to: line, context: &context).settled(by: context.server.journal)
    }

    /// The reply to `line`, answered where it can be and off the loop where it must, which may
    /// still have to wait for the log record of the change it acknowledges.
    public func pendingReply(to line: Data, context: inout RequestContext) async -> PendingReply {
        switch line.withUnsafeBytes({ dispatch($0, context: &context) }) {
        case .answered(let reply): return reply
        case .offLoop(let request): return await request.answer(context: &context)
        }
    }

    /// The one way into the dispatcher: reads `line`'s envelope once, on the loop, and decides
    /// from it before any work where the request runs. A single request in the form the
    /// envelope scanner reads, to a method that answers immediately (see ``MethodTable``), is
    /// answered right here, unless its handler hands the rest of the work off the loop; a
    /// request to any other method, a batch, or a line the scanner leaves to `JSONDecoder`
    /// goes off the loop whole. Malformed requests are refused here when that takes no more
    /// than the scan.
    public func dispatch(_ line: UnsafeRawBufferPointer, context: inout RequestContext) -> Dispatched {
        var start = 0
        while start < line.count, Self.isWhitespace(line[start]) { start += 1 }
        // An empty line is ignored.
        guard start < line.count else { return .answered(PendingReply(parts: [])) }
        guard line[start] == UInt8(ascii: "{") else {
            // A batch, or not a request at all: read whole, off the loop.
            let data = Data(line)
            return .offLoop(OffLoopRequest { context in await self.replyToNonObject(data, context: &context) })
        }
        // JSON text is UTF-8; a line that is not is refused whole, even where the bad bytes sit
        // in a member no method reads.
        guard Self.isUTF8(line) else {
            context.server.countRequests(1)
            return .answered(PendingReply(ReplyEncoding.failure(id: .null, Self.notUTF8)))
        }
        guard let header = EnvelopeScanner.header(line) else {
            // Left to JSONDecoder, which decides: off the loop, since the line may be long.
            let data = Data(line)
            return .offLoop(OffLoopRequest { context in await self.replyToDecoded(data, context: &context) })
        }
        context.server.countRequests(1)
        switch call(header, context: context) {
        case .failure(let refusal): return .answered(PendingReply(parts: refusal.part.map { [$0] } ?? []))
        case .success(let call): return dispatch(call, line: line, context: &context)
        }
    }

    /// Where a well-formed request runs, and its reply when that is here.
    private func dispatch(_ call: Call, line: UnsafeRawBufferPointer, context: inout RequestContext) -> Dispatched {
        guard let immediate = call.handlers.immediate else {
            let data = Data(line)
            return .offLoop(
                OffLoopRequest { context in
                    let answered = await self.answer(call, line: data, context: &context) { context in
                        try await call.handlers.full(data, call.paramsRange, &context)
                    }
                    return PendingReply(call, answered)
                }
            )
        }
        let started = Self.clock(for: context)
        context.requestID = call.id
        let recording = context.server.journal.map { ChangeRecording(line: Data(line), journal: $0) }
        context.recording = recording
        defer { context.recording = nil }
        let reply: Data
        do {
            switch try immediate(line, call.paramsRange, &context) {
            case .reply(let answered):
                reply = answered
                log(call, started: started, context: context, line: line)
            case .later(let rest):
                // Nothing was changed; the params as read go with the rest of the work, and
                // the line with them (the copy the log record took, when there is one).
                let data = recording?.line ?? Data(line)
                return .offLoop(
                    OffLoopRequest { context in
                        PendingReply(call, await self.answer(call, line: data, context: &context, rest))
                    }
                )
            }
        } catch {
            reply = failure(error, call, context: context, line: line)
        }
        recording?.releaseClaim()
        return .answered(PendingReply(call, (reply, recording?.recorded)))
    }

    /// The reply to a line that is not a JSON object: a batch, or an error.
    private func replyToNonObject(_ line: Data, context: inout RequestContext) async -> PendingReply {
        guard let first = line.first(where: { !Self.isWhitespace($0) }) else { return PendingReply(parts: []) }
        guard line.withUnsafeBytes({ Self.isUTF8($0) }) else {
            context.server.countRequests(1)
            return PendingReply(ReplyEncoding.failure(id: .null, Self.notUTF8))
        }
        // Values nested past any request's need are refused before a decoder recurses into them.
        if JSONNesting.exceeds(JSONNesting.maximumDepth, in: line) {
            context.server.countRequests(1)
            return PendingReply(ReplyEncoding.failure(id: .null, Self.nestedTooDeeply))
        }
        if first == UInt8(ascii: "[") { return await replyToBatch(line, context: &context) }
        context.server.countRequests(1)
        if (try? JSONDecoder().decode(JSONValue.self, from: line)) != nil {
            return PendingReply(
                ReplyEncoding.failure(
                    id: .null,
                    .invalidRequest("A request must be a JSON object (or an array of them for a batch).")
                )
            )
        }
        return PendingReply(ReplyEncoding.failure(id: .null, Self.parseError))
    }

    /// Whether `line` is UTF-8; an all-ASCII line (most of them) needs no closer look.
    private static func isUTF8(_ line: UnsafeRawBufferPointer) -> Bool {
        for byte in line where byte >= 0x80 {
            return String(validating: line.bindMemory(to: UInt8.self), as: UTF8.self) != nil
        }
        return true
    }

    /// The error for a line that is not UTF-8.
    static let notUTF8 = ResponseError.parseError("The request is not valid UTF-8.")

    /// The error for a line that is not JSON.
    static let parseError = ResponseError.parseError("The request is not valid JSON.")

    /// The error for a line that nests arrays and objects deeper than any request needs.
    static let nestedTooDeeply = ResponseError.invalidRequest(
        "The request nests arrays and objects more than \(JSONNesting.maximumDepth) deep."
    )

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func replyToBatch(_ line: Data, context: inout RequestContext) async -> PendingReply {
        let elements: [JSONValue]
        do {
            elements = try JSONDecoder().decode([JSONValue].self, from: line)
        } catch {
            context.server.countRequests(1)
            return PendingReply(ReplyEncoding.failure(id: .null, Self.parseError))
        }
        guard !elements.isEmpty else {
            context.server.countRequests(1)
            return PendingReply(
                ReplyEncoding.failure(id: .null, .invalidRequest("A batch must hold at least one request."))
            )
        }
        guard elements.count <= limits.maxBatchSize else {
            context.server.countRequests(1)
            return PendingReply(
                ReplyEncoding.failure(
                    id: .null,
                    .limitExceeded(
                        "A batch may hold at most \(limits.maxBatchSize) requests; this one holds \(elements.count).",
                        limit: "maxBatchSize",
                        value: limits.maxBatchSize
                    )
                )
            )
        }
        // The whole batch's reply, estimated before any of it is worked on.
        let requester = context.requester
        let estimate = elements.reduce(0) { total, element in
            guard case .object(let request) = element else { return total + 256 }
            let (sum, overflow) = total.addingReportingOverflow(
                context.server.estimatedReplyBytes(to: request, line: 0, by: requester)
            )
            return overflow ? .max : sum
        }
        do {
            try context.server.checkReplySize(estimate, what: "This batch")
        } catch {
            context.server.countRequests(elements.count)
            return PendingReply(ReplyEncoding.failure(id: .null, error))
        }
        var replies: [PendingReply.Part] = []
        let encoder = JSONEncoder()
        // Each request from the bytes sent where they can be found (ids kept as written).
        let ranges = EnvelopeScanner.elementRanges(line).flatMap { $0.count == elements.count ? $0 : nil }
        for (index, element) in elements.enumerated() {
            let reply: PendingReply.Part?
            if case .object = element,
                let data = ranges.map({
                    line.subdata(
                        in: (line.startIndex + $0[index].lowerBound)..<(line.startIndex + $0[index].upperBound)
                    )
                })
                    ?? (try? encoder.encode(element))
            {
                reply = await replyToDecoded(data, context: &context).parts.first
            } else {
                context.server.countRequests(1)
                reply = PendingReply.Part(
                    line: ReplyEncoding.failure(
                        id: .null,
                        .invalidRequest("Each member of a batch must be a request object.")
                    ),
                    id: .null
                )
            }
            if let reply { replies.append(reply) }
        }
        return PendingReply(parts: replies, isBatch: true)
    }

    /// The reply to one request of a batch, or to a line the envelope scanner left to
    /// `JSONDecoder`, already off the loop: answered as a connection would, but here.
    private func replyToDecoded(_ line: Data, context: inout RequestContext) async -> PendingReply {
        context.server.countRequests(1)
        let header: RequestHeader
        do {
            header = try line.withUnsafeBytes { EnvelopeScanner.header($0) } ?? Self.decodedHeader(line)
        } catch let error as ResponseError {
            return PendingReply(ReplyEncoding.failure(id: .null, error))
        } catch {
            return PendingReply(ReplyEncoding.failure(id: .null, Self.parseError))
        }
        let call: Call
        switch self.call(header, context: context) {
        case .success(let found): call = found
        case .failure(let refusal): return PendingReply(parts: refusal.part.map { [$0] } ?? [])
        }
        let answered = await answer(call, line: line, context: &context) { context in
            if let immediate = call.handlers.immediate {
                switch try line.withUnsafeBytes({ try immediate($0, call.paramsRange, &context) }) {
                case .reply(let reply): return reply
                case .later(let rest): return try await rest(&context)
                }
            }
            return try await call.handlers.full(line, call.paramsRange, &context)
        }
        return PendingReply(call, answered)
    }

    /// When a request started, for its debug log entry; `nil` (no clock read) when that entry
    /// is not written.
    private static func clock(for context: RequestContext) -> ContinuousClock.Instant? {
        context.logger.logLevel <= .debug ? ContinuousClock.now : nil
    }

    /// A request whose envelope is in order: its method, id, and whether it is a notification.
    fileprivate struct Call {
        var method: String
        var handlers: MethodTable.Handlers
        var id: RequestID
        var isNotification: Bool
        var paramsRange: Range<Int>?
    }

    /// The header of a line the envelope scanner left to `JSONDecoder`, with a numeric id kept
    /// as written when a `Double` would round it. A line nested too deeply for the decoder is
    /// refused first.
    private static func decodedHeader(_ line: Data) throws -> RequestHeader {
        guard !JSONNesting.exceeds(JSONNesting.maximumDepth, in: line) else { throw nestedTooDeeply }
        var header = try JSONDecoder().decode(RequestHeader.self, from: line)
        switch header.id {
        case .number?, .integer?: header.exactID = EnvelopeScanner.idNumberText(line)
        default: break
        }
        return header
    }

    /// The call `header` makes, or the reply that refuses it (none for a well-formed
    /// notification, which gets no reply even when it fails).
    private func call(_ header: RequestHeader, context: RequestContext) -> Result<Call, Refusal> {
        // The id first, so that every later error can echo it.
        var id = RequestID.null
        if let rawID = header.id {
            guard let valid = RequestID(rawID) else {
                return .failure(Refusal(.invalidRequest("The id must be a string, a number or null."), id: .null))
            }
            id = header.exactID.map(RequestID.exact) ?? valid
        }
        switch header.jsonrpc {
        case nil, .string(jsonRPCVersion):
            break
        case let other?:
            let sent = other.stringValue.map { "\"\($0)\"" } ?? other.typeName
            return .failure(Refusal(.invalidRequest("\"jsonrpc\" must be \"2.0\" (or left out), not \(sent)."), id: id))
        }
        // Only a well-formed request can be a notification; JSON-RPC answers a malformed one
        // with `invalid_request` and a null id even without an id.
        let isNotification = header.isNotification
        func refuse(_ error: ResponseError) -> Result<Call, Refusal> {
            .failure(isNotification ? Refusal(nil) : Refusal(error, id: id))
        }
        guard let methodValue = header.method else {
            return refuse(.invalidRequest("The request has no \"method\"."))
        }
        guard let method = methodValue.stringValue else {
            return refuse(.invalidRequest("\"method\" must be a string, not \(methodValue.typeName)."))
        }
        guard let handlers = methods.handlers(for: method) else {
            context.logger.debug("unknown method", metadata: ["method": "\(method)"])
            return refuse(.unknownMethod(method))
        }
        if case .other(let shape) = header.params {
            return refuse(.invalidParams("params must be an object, not \(shape).", field: "params"))
        }
        return .success(
            Call(
                method: method,
                handlers: handlers,
                id: id,
                isNotification: isNotification,
                paramsRange: header.paramsRange
            )
        )
    }

    /// The reply that refuses a request, `nil` when nothing is sent (a notification).
    private struct Refusal: Error {
        var part: PendingReply.Part?
        init(_ part: PendingReply.Part?) { self.part = part }
        /// The error reply to the request with `id`.
        init(_ error: ResponseError, id: RequestID) {
            part = PendingReply.Part(line: ReplyEncoding.failure(id: id, error), id: id)
        }
    }

    /// The reply to a well-formed request off the loop, made by `work`, and the log record of
    /// its change.
    private func answer(
        _ call: Call,
        line: Data,
        context: inout RequestContext,
        _ work: @Sendable (inout RequestContext) async throws -> Data
    ) async -> (line: Data, record: UInt64?) {
        let started = Self.clock(for: context)
        context.requestID = call.id
        let recording = context.server.journal.map { ChangeRecording(line: line, journal: $0) }
        context.recording = recording
        defer { context.recording = nil }
        let reply: Data
        do {
            reply = try await work(&context)
            line.withUnsafeBytes { log(call, started: started, context: context, line: $0) }
        } catch {
            reply = line.withUnsafeBytes { failure(error, call, context: context, line: $0) }
        }
        recording?.releaseClaim()
        return (reply, recording?.recorded)
    }

    private func log(
        _ call: Call,
        started: ContinuousClock.Instant?,
        context: RequestContext,
        line: UnsafeRawBufferPointer
    ) {
        guard context.logger.logLevel <= .debug, let started else { return }
        var metadata: Logger.Metadata = [
            "method": "\(call.method)", "id": "\(call.id)", "elapsed": "\(ContinuousClock.now - started)",
        ]
        metadata["table"] = Self.table(of: call, in: line).map { "\($0)" }
        context.logger.debug("request", metadata: metadata)
    }

    /// `params.table` of a request, for its log entries (journald's `DATATABLED_TABLE`).
    private static func table(of call: Call, in line: UnsafeRawBufferPointer) -> String? {
        struct Named: Decodable { var table: String? }
        guard let range = call.paramsRange else { return nil }
        return try? JSONDecoder().decode(Named.self, from: Data(UnsafeRawBufferPointer(rebasing: line[range]))).table
    }

    /// The error reply for a handler's error.
    private func failure(_ error: any Error, _ call: Call, context: RequestContext, line: UnsafeRawBufferPointer)
        -> Data
    {
        let refusal: ResponseError
        switch error {
        case let error as ResponseError: refusal = error
        case let error as TableError: refusal = ResponseError(error)
        case let error as CatalogError: refusal = ResponseError(error)
        default:
            var metadata: Logger.Metadata = ["method": "\(call.method)", "id": "\(call.id)", "error": "\(error)"]
            metadata["table"] = Self.table(of: call, in: line).map { "\($0)" }
            context.logger.error("request failed", metadata: metadata)
            return ReplyEncoding.failure(id: call.id, .internalError())
        }
        let permission =
            (refusal.kind == .notPermitted || refusal.kind == .permissionDenied)
            && context.server.mayLogPermissionRefusal()
        if permission || context.logger.logLevel <= .debug {
            var metadata: Logger.Metadata = ["method": "\(call.method)", "id": "\(call.id)", "kind": "\(refusal.kind)"]
            metadata["table"] = Self.table(of: call, in: line).map { "\($0)" }
            // A refusal for want of permission is for the administrator to see.
            context.logger.log(level: permission ? .notice : .debug, "request refused", metadata: metadata)
        }
        return ReplyEncoding.failure(id: call.id, refusal)
    }
}

extension PendingReply {
    /// The reply to `call`: nothing for a notification.
    fileprivate init(_ call: RequestDispatcher.Call, _ answered: (line: Data, record: UInt64?)) {
        self.init(parts: call.isNotification ? [] : [Part(line: answered.line, record: answered.record, id: call.id)])
    }
}
