import DataTableEngine
import DataTableProtocol
import DataTableServer
import Dispatch
import Foundation
import Logging
import NIOCore
import NIOEmbedded

/// Feeds one input through the daemon's whole request path, as a connection would: the line
/// framing (``JSONLineDecoder``), then for each line the dispatcher (envelope, JSON, params,
/// methods) against a few tables, answered on the spot where a connection would answer it so.
/// Every line must get nothing or one JSON object or array back, and a header the
/// ``EnvelopeScanner`` reads, or params the ``ParamsReader`` reads, must be what `JSONDecoder`
/// reads; anything else, or a crash, is a finding.
///
/// Each input starts from the same tables, so a finding replays alone.
final class RequestFuzzer: Sendable {
    static let shared = RequestFuzzer()

    private let limits = ServerLimits(maxLineBytes: 16_384, maxBatchSize: 64, maxTables: 16, maxRows: 10_000)
    private let dispatcher: RequestDispatcher
    private let tables: TableCatalog

    private init() {
        dispatcher = RequestDispatcher(methods: .builtin(), limits: limits)
        let server = ServerState(limits: limits)
        let dispatcher = dispatcher
        Self.wait {
            var context = Self.context(server)
            for line in Self.setUp { _ = await dispatcher.reply(to: Data(line.utf8), context: &context) }
        }
        tables = server.tables.catalog()
        precondition(tables.tableCount == Self.setUp.count, "the fuzzer's tables could not be set up")
    }

    /// The tables every input starts with: those protocol.md's examples name.
    static let setUp = [
        #"{"method":"create","params":{"table":"stock","key":"item","columns":[{"key":"item","required":true},{"key":"qty","type":"number","min":0,"decimals":0},{"key":"received","type":"date"},{"key":"at","type":"time"},{"key":"lead","type":"duration"},{"key":"status","type":"picker","options":["In Stock","Reorder"]},{"key":"photo","type":"image"}],"sort":[{"column":"received","descending":true}],"rows":[{"item":"Hex Bolt","qty":40,"received":"2024-05-06"},{"item":"Washer","qty":3,"status":"Reorder","lead":"2h"},{"item":"Nut","received":"2024-01-02","at":"09:30"}]}}"#,
        #"{"method":"create","params":{"table":"parts","columns":[{"key":"name","label":"Name"},{"key":"notes","lines":2},{"key":"price","type":"number","decimals":2}],"rows":[{"name":"Servo","notes":"Order the new cable kit with every motor","price":12.5},{"name":"Gear"}]}}"#,
        #"{"method":"load","params":{"table":"inventory","text":"item,qty,received\nBolt,40,2024-05-06\n"}}"#,
    ]

    /// Runs one input: as the bytes of a connection, and as an expression (``ExpressionFuzzer``).
    func run(_ bytes: [UInt8]) {
        ExpressionFuzzer.run(bytes)
        let channel = EmbeddedChannel(
            handler: ByteToMessageHandler(JSONLineDecoder(maximumLineBytes: limits.maxLineBytes))
        )
        var lines: [ByteBuffer] = []
        do {
            try channel.writeInbound(channel.allocator.buffer(bytes: bytes))
            while let line: ByteBuffer = try channel.readInbound() { lines.append(line) }
            _ = try channel.finish()
        } catch is LineTooLongError {
            // The connection would be answered once and closed; the lines before still count.
        } catch {
            fatalError("the line decoder failed with \(error)")
        }
        let requests = lines.map { Data($0.readableBytesView) }
        let server = ServerState(limits: limits, catalog: tables)
        let dispatcher = dispatcher
        Self.wait {
            var context = Self.context(server)
            for request in requests {
                // The scanner reads what the decoder reads, or leaves the line to it (on lines
                // that are UTF-8, as the dispatcher checks first).
                if String(validating: request, as: UTF8.self) != nil, let scanned = EnvelopeScanner.header(request),
                    scanned != (try? JSONDecoder().decode(RequestHeader.self, from: request))
                {
                    fatalError("the envelope scanner reads \(String(decoding: request, as: UTF8.self)) otherwise")
                }
                // Params too, on lines that are UTF-8 (the dispatcher refuses others first).
                if String(validating: request, as: UTF8.self) != nil, let scanned = EnvelopeScanner.header(request),
                    let range = scanned.paramsRange,
                    let type = Self.readable.first(where: { $0.method == scanned.method?.stringValue })
                {
                    Self.checkParams(request[range], as: type)
                }
                // As a connection does: answered on the spot when it can be, else off the loop.
                let reply = await dispatcher.pendingReply(to: request, context: &context).line(unsaved: nil)
                guard let reply else { continue }
                guard let parsed = try? JSONSerialization.jsonObject(with: reply, options: [.fragmentsAllowed]),
                    parsed is [String: Any] || parsed is [Any]
                else {
                    fatalError("the reply to \(String(decoding: request, as: UTF8.self)) is not a JSON object or array")
                }
            }
        }
    }

    /// The requests whose params ``ParamsReader`` reads.
    static let readable: [any ReadableParams.Type] = [
        GetRequest.self, EditRequest.self, AddRequest.self, SelectRequest.self, ScrollRequest.self,
    ]

    /// The params reader reads what the decoder reads, or leaves the params to it.
    private static func checkParams(_ params: Data, as type: any ReadableParams.Type) {
        guard let read = params.withUnsafeBytes({ type.read($0) }) else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let decoded = try? JSONDecoder().decode(type, from: params),
            (try? encoder.encode(read)) == (try? encoder.encode(decoded))
        else {
            fatalError("the params reader reads \(String(decoding: params, as: UTF8.self)) otherwise")
        }
    }

    private static func context(_ server: ServerState) -> RequestContext {
        RequestContext(
            // The daemon's own user, as a local administrator: every method is open to it.
            connection: ConnectionInfo(id: 1, peer: PeerCredentials(pid: getpid(), uid: geteuid(), gid: getegid())),
            server: server,
            logger: Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
        )
    }

    /// Runs `body` to its end on the concurrency runtime, from this synchronous caller.
    private static func wait(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }
}
