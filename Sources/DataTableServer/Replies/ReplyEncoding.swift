import DataTableProtocol
import Foundation

/// Encodes reply objects: keys sorted (so replies read the same every time), slashes unescaped.
enum ReplyEncoding {
    static func failure(id: RequestID, _ error: ResponseError) -> Data {
        guard case .exact(let text) = id else { return encode(ErrorMessage(id: id, error: error)) }
        // JSONEncoder cannot write a number as given: the id goes in as null, then its text in
        // its place (keys sorted, so the message ends with it).
        var data = encode(ErrorMessage(id: .null, error: error))
        let ending = Data(#""id":null,"jsonrpc":"2.0"}"#.utf8)
        guard data.count >= ending.count, data.suffix(ending.count) == ending else { return data }
        data.replaceSubrange((data.count - ending.count)..., with: Data(#""id":\#(text),"jsonrpc":"2.0"}"#.utf8))
        return data
    }

    static func success(id: RequestID, _ result: any Encodable & Sendable) -> Data {
        if let direct = result as? any DirectJSON { return success(id: id, direct: direct) }
        guard case .exact(let text) = id else { return encode(AnyResultMessage(id: id, result: result)) }
        // As in `failure`: the id's text in place of null (keys sorted, so the message starts with it).
        var data = encode(AnyResultMessage(id: .null, result: result))
        let opening = Data(#"{"id":null,"#.utf8)
        guard data.starts(with: opening) else { return data }
        data.replaceSubrange(0..<opening.count, with: Data(#"{"id":\#(text),"#.utf8))
        return data
    }

    /// A successful reply whose result writes its own JSON.
    static func success(id: RequestID, direct result: some DirectJSON) -> Data {
        var writer = JSONWriter(capacity: result.expectedBytes + 64)
        writer.raw(#"{"id":"#)
        writer.requestID(id)
        writer.raw(#","jsonrpc":"2.0","result":"#)
        result.write(to: &writer)
        writer.raw("}")
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

    /// A notification from the daemon: `{"jsonrpc":"2.0","method":…,"params":…}`.
    static func notification(method: String, params: some Encodable & Sendable) -> Data {
        encode(NotificationMessage(method: method, params: params))
    }

    private struct NotificationMessage<Params: Encodable>: Encodable {
        var jsonrpc = jsonRPCVersion
        var method: String
        var params: Params
    }

    private static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            // Only a result that cannot be encoded (a non-finite number) gets here.
            let failure = ErrorMessage(id: .null, error: .internalError("The reply could not be encoded: \(error)."))
            return (try? encoder.encode(failure)) ?? Data()
        }
    }

    /// A successful reply whose result type is only known at run time.
    private struct AnyResultMessage: Encodable {
        var id: RequestID
        var result: any Encodable & Sendable

        private enum CodingKeys: String, CodingKey {
            case jsonrpc, id, result
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(jsonRPCVersion, forKey: .jsonrpc)
            try container.encode(id, forKey: .id)
            try container.encode(result, forKey: .result)
        }
    }
}
