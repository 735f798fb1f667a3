import DataTableProtocol
import Foundation

/// The one envelope of every message the daemon sends: a reply
/// (`{"id":…,"jsonrpc":"2.0","result":…}` or `{"error":…,"id":…,"jsonrpc":"2.0"}`) or a
/// notification (`{"jsonrpc":"2.0","method":…,"params":…}`), members in sorted order so a
/// message reads the same every time.
///
/// The envelope is written into a ``JSONWriter``; the body inside it writes itself
/// (``DirectJSON``: the frequent and the large replies) or is encoded by `JSONEncoder` with
/// sorted keys and unescaped slashes. A request id goes in as it came (``RequestID/exact(_:)``
/// keeps a number's text).
enum ReplyEncoding {
    /// An error reply.
    static func failure(id: RequestID, _ error: ResponseError) -> Data {
        var writer = JSONWriter(capacity: 256)
        writer.raw(#"{"error":"#)
        writer.encoded(error)
        writer.raw(#","id":"#)
        writer.requestID(id)
        writer.raw(#","jsonrpc":"2.0"}"#)
        return writer.data()
    }

    /// A successful reply whose result's type is known only at run time.
    static func success(id: RequestID, _ result: any Encodable & Sendable) -> Data {
        if let direct = result as? any DirectJSON { return success(id: id, direct: direct) }
        var writer = JSONWriter(capacity: 512)
        guard writer.result(id: id, { $0.encoded(result) }) else { return failure(id: id, unencodable) }
        return writer.data()
    }

    /// A successful reply whose result writes its own JSON.
    static func success(id: RequestID, direct result: some DirectJSON) -> Data {
        var writer = JSONWriter(capacity: result.expectedBytes + 64)
        _ = writer.result(id: id) { writer in
            result.write(to: &writer)
            return true
        }
        return writer.data()
    }

    /// How replies with results of type `Result` are encoded, decided once (a request's handler
    /// asks at registration): straight into bytes when the type writes its own JSON
    /// (``DirectJSON``), without looking that up for each reply.
    static func encoder<Result: Encodable & Sendable>(for _: Result.Type) -> @Sendable (RequestID, Result) -> Data {
        guard let direct = Result.self as? any DirectJSON.Type else { return { success(id: $0, $1) } }
        func writing<Direct: DirectJSON>(_: Direct.Type) -> @Sendable (RequestID, Result) -> Data {
            { id, result in success(id: id, direct: result as! Direct) }
        }
        return writing(direct)
    }

    /// A notification from the daemon.
    static func notification(method: String, params: some Encodable & Sendable) -> Data {
        var writer = JSONWriter(capacity: 256)
        writer.beginNotification(method: method)
        guard writer.encoded(params) else {
            var fallback = JSONWriter(capacity: 128)
            fallback.beginNotification(method: method)
            fallback.raw("null}")
            return fallback.data()
        }
        writer.raw("}")
        return writer.data()
    }

    /// Only a result that cannot be encoded (a non-finite number) gets this.
    private static let unencodable = ResponseError.internalError("The reply could not be encoded.")
}

extension JSONWriter {
    /// A reply's envelope around the result `body` writes; `false`, with nothing kept, when
    /// `body` could not write it.
    mutating func result(id: RequestID, _ body: (inout JSONWriter) -> Bool) -> Bool {
        raw(#"{"id":"#)
        requestID(id)
        raw(#","jsonrpc":"2.0","result":"#)
        guard body(&self) else { return false }
        raw("}")
        return true
    }

    /// A notification's envelope up to its params: `{"jsonrpc":"2.0","method":…,"params":`;
    /// the params and a closing `}` come next.
    mutating func beginNotification(method: String) {
        raw(#"{"jsonrpc":"2.0","method":"#)
        string(method)
        raw(#","params":"#)
    }

    /// `value` as `JSONEncoder` writes it (keys sorted, slashes unescaped); `false`, writing
    /// nothing, when it cannot be encoded.
    @discardableResult
    mutating func encoded(_ value: some Encodable) -> Bool {
        guard let data = try? Self.encoder.encode(value) else { return false }
        data.withUnsafeBytes { append($0.bindMemory(to: UInt8.self)) }
        return true
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
