import DataTableProtocol
import Foundation
import TestSupport
import Testing

/// Hostile and broken input over the socket: every line gets an error reply or the connection
/// is closed cleanly, the daemon stays up, and other clients never notice.
@Suite struct BadInputTests {
    /// The reply to one raw line (bytes no request type can send) on a fresh connection.
    static func reply(_ daemon: TestDaemon, _ bytes: [UInt8]) throws -> ReplyMessage {
        let client = try daemon.connect()
        try client.send(bytes + [0x0A])
        let line = try #require(try client.readLine())
        return try JSONDecoder().decode(ReplyMessage.self, from: Data(line.utf8))
    }

    /// The `error.data.kind` of `reply`, if it is an error with one of the kinds the daemon answers with.
    static func kind(_ reply: ReplyMessage) -> ErrorKind? {
        reply.error.map(\.kind).flatMap { ErrorKind.all.contains($0) ? $0 : nil }
    }

    /// Whether the daemon still answers a new connection.
    static func answers(_ daemon: TestDaemon) throws -> Bool {
        try daemon.connect().send(PingRequest()).pong
    }

    @Test func deeplyNestedJSONIsRefused() throws {
        let daemon = try TestDaemon()
        func nested(_ depth: Int) -> String {
            String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        }
        let tooDeep = "The request nests arrays and objects more than 65 deep."
        // Deeper than any request needs, in params, in a batch, or bare: refused, never decoded.
        for depth in [66, 300, 1000, 100_000] {
            for line in [
                #"{"method":"ping","params":{"x":\#(nested(depth - 2))}}"#,
                #"[{"method":"ping","params":{"x":\#(nested(depth - 2))}}]"#,
                nested(depth),
                String(repeating: "[", count: depth),
                #"{"id":7,"method":"ping","note":"\u00e9",\#(String(repeating: #""a":{"#, count: depth))}"#,
            ] {
                let answer = try Self.reply(daemon, Array(line.utf8))
                #expect(Self.kind(answer) == .invalidRequest, "depth \(depth): \(line.prefix(40))")
                #expect(answer.error?.message == tooDeep)
            }
        }
        // As deep as the limit: read, and its unknown member named.
        let deepest = try Self.reply(daemon, Array(#"{"method":"ping","params":{"x":\#(nested(63))}}"#.utf8))
        #expect(deepest.error?.message == "x is not a param of ping. ping takes no params.")
        // Brackets inside strings are text, not nesting.
        let text = #"{"method":"ping","params":{"x":"\#(String(repeating: "[", count: 500))"}}"#
        #expect(Self.kind(try Self.reply(daemon, Array(text.utf8))) == .invalidParams)
        #expect(try Self.answers(daemon))
    }

    @Test func hugeNumbersInvalidUTF8AndNULBytesGetErrors() throws {
        let daemon = try TestDaemon(arguments: ["--demo"])
        // Numbers no request type holds: a count past a Double, a position past 64 bits.
        let huge = #"{"method":"get","params":{"table":"stock","count":1e400}}"#
        #expect(Self.kind(try Self.reply(daemon, Array(huge.utf8))) != nil)
        let big = #"{"method":"get","params":{"table":"stock","from":99999999999999999999999}}"#
        #expect(Self.kind(try Self.reply(daemon, Array(big.utf8))) != nil)
        try daemon.connect().send(EditRequest(table: "stock", id: 1, column: "qty", value: 1e308))
        let tooBig = #"{"method":"edit","params":{"table":"stock","id":1,"column":"qty","value":1e309}}"#
        let refused = try Self.reply(daemon, Array(tooBig.utf8))
        #expect(Self.kind(refused) == .invalidParams)
        #expect(refused.error?.message == "params.value is not valid: the number is too large to read.")
        let invalid: [UInt8] = Array(#"{"method":"ping","params":{"x":""#.utf8) + [0xFF, 0xFE] + Array(#""}}"#.utf8)
        #expect(Self.kind(try Self.reply(daemon, invalid)) == .parseError)
        let nul: [UInt8] = Array(#"{"method":"pi"#.utf8) + [0x00] + Array(#"ng"}"#.utf8)
        #expect(Self.kind(try Self.reply(daemon, nul)) != nil)
        // An escaped NUL in a value is taken or refused: either way, answered.
        do {
            try daemon.connect().send(AddRequest(table: "stock", row: ["item": "a\u{0}b"]))
        } catch is ResponseError {}
        #expect(try Self.answers(daemon))
    }

    /// Values at the edge of what numbers hold get an error, never a crash: a duration past 64
    /// bits of seconds, a select range of Int.max rows, a column width of 1e300.
    @Test(
        arguments: [
            EditRequest(table: "stock", id: 5, column: "lead", value: "9223372036854775807s 1m"),
            EditRequest(table: "stock", id: 5, column: "lead", value: "9223372036854775808s"),
            AddRequest(table: "stock", row: ["item": "x", "lead": "P106751991167300DT99999S"]),
            SelectRequest(table: "stock", from: 3, count: Int.max),
            SelectRequest(table: "stock", from: 3, count: 8),
            LayoutRequest(
                table: "stock",
                width: 80,
                settings: LayoutSettings(columns: ["item": ColumnHints(width: 1e300)])
            ),
            LayoutRequest(
                table: "stock",
                width: 80,
                settings: LayoutSettings(columns: ["item": ColumnHints(maxWidth: 1e300)])
            ),
            CreateRequest(table: "w", columns: [ColumnDefinition(key: "a", width: 1e300)]),
            EditRequest(table: "stock", id: 1, column: "weight", value: "1e-9223372036854775808"),
            EditRequest(table: "stock", id: 1, column: "weight", value: "1.5e-9223372036854775807"),
            LayoutRequest(
                table: "stock",
                width: 600,
                settings: LayoutSettings(
                    font: .init(file: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", index: -1)
                )
            ),
            LayoutRequest(
                table: "stock",
                width: 600,
                settings: LayoutSettings(headerFont: .init(family: "DejaVu Sans", index: 4_294_967_296))
            ),
            LayoutRequest(table: "stock", width: 1, settings: LayoutSettings(font: .init(size: 1e-300))),
            LayoutRequest(table: "stock", width: 80, settings: LayoutSettings(minShare: 0.6, maxShare: 0.5)),
            LayoutRequest(table: "stock", width: 80, settings: LayoutSettings(minShare: 0.75)),
            ScrollRequest(
                table: "stock",
                viewport: .init(width: 80, height: 10),
                settings: LayoutSettings(font: .init(size: 0.5))
            ),
        ] as [any DataTableRequest]
    )
    func numbersPastTheirRangeAreRefusedNotACrash(request: any DataTableRequest) throws {
        let daemon = try TestDaemon(arguments: ["--demo"])
        let error = try daemon.connect().failure(request)
        #expect(error.kind == .invalidValue || error.kind == .invalidParams, "\(error)")
        #expect(try Self.answers(daemon))
    }

    /// A batch's gets at the edges of Int are refused one by one (their reply size is estimated
    /// first, without overflowing), and a table whose only column is bound to syncStatus lays
    /// out sideways with no columns.
    @Test func edgeCasesInABatchAndAnEmptyLayoutAreAnswered() throws {
        let daemon = try TestDaemon(arguments: ["--demo"])
        let batch =
            #"[{"method":"get","params":{"table":"stock","from":-9223372036854775808}},"#
            + #"{"method":"get","params":{"table":"stock","from":-9223372036854775000,"count":9223372036854775807}}]"#
        let client = try daemon.connect()
        try client.send(batch + "\n")
        let line = try #require(try client.readLine())
        let replies = try JSONDecoder().decode([ReplyMessage].self, from: Data(line.utf8))
        #expect(replies.count == 2 && replies.allSatisfy { Self.kind($0) == .invalidValue }, "\(line)")
        try client.send(
            CreateRequest(
                table: "t1",
                columns: [ColumnDefinition(key: "a", binding: .syncStatus)],
                rows: [["a": "x"]]
            )
        )
        let layout = try client.send(LayoutRequest(table: "t1", width: 100, horizontalScroll: true, unit: .cell))
        #expect(layout.columns.isEmpty, "\(layout)")
        #expect(try Self.answers(daemon))
    }

    /// A batch of 100,000 requests is over the batch limit: one error, nothing done.
    /// A numeric id comes back exactly as it was sent, however large or long.
    @Test(arguments: [
        "9223372036854775807", "9223372036854775808", "18446744073709551616", "-9223372036854775809",
        "123456789012345678901234567890", "1.10", "0.1", "1e2", "2.5E-3",
    ])
    func aNumericIDIsEchoedExactly(id: String) throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try client.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"# + "\n")
        #expect(try client.readLine() == #"{"id":\#(id),"jsonrpc":"2.0","result":{"pong":true}}"#)
        try client.send(#"[{"jsonrpc":"2.0","id":\#(id),"method":"describe","params":{"table":"nope"}}]"# + "\n")
        let reply = try #require(try client.readLine())
        #expect(reply.hasPrefix(#"[{"error":"#) && reply.hasSuffix(#""id":\#(id),"jsonrpc":"2.0"}]"#), "\(reply)")
    }

    @Test(.tags(.slow)) func aHugeBatchIsOneLimitError() throws {
        let daemon = try TestDaemon(arguments: ["--max-line-bytes", "16000000"])
        let batch = "[" + Array(repeating: #"{"method":"ping"}"#, count: 100_000).joined(separator: ",") + "]"
        let answer = try Self.reply(daemon, Array(batch.utf8))
        #expect(Self.kind(answer) == .limitExceeded)
        #expect(try Self.answers(daemon))
    }

    /// Random bytes on one connection until the daemon closes it (an over-long line) or they run
    /// out; every reply is a JSON line, and another client is served all the while.
    @Test(arguments: [1, 2, 3]) func randomBytesNeverHurtTheDaemon(seed: UInt64) throws {
        let daemon = try TestDaemon(arguments: ["--max-line-bytes", "4096"])
        let noise = try daemon.connect()
        let bystander = try daemon.connect()
        var random = SeededRandom(seed: seed)
        func next() -> UInt8 { UInt8.random(in: .min ... .max, using: &random) }
        for round in 0..<20 {
            // Mostly printable JSON-ish bytes, some newlines, now and then anything at all.
            let alphabet = Array(#"{}[]":,0123456789.e-truefalsnl \"#.utf8)
            let chunk = (0..<512).map { _ -> UInt8 in
                let roll = next()
                if roll < 8 { return 0x0A }
                if roll < 40 { return next() }
                return alphabet[Int(next()) % alphabet.count]
            }
            do {
                try noise.send(chunk)
            } catch {
                break  // closed after an over-long line: that is a clean end
            }
            #expect(try bystander.send(PingRequest()).pong == true, "round \(round)")
        }
        noise.shutdownWrite()
        while let line = try noise.readLine(timeout: .seconds(10)) {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line.prefix(200))")
        }
        #expect(try bystander.send(PingRequest()).pong == true)
    }

    /// A load from a device is refused: /dev/zero never ends.
    @Test func aLoadReadsOnlyRegularFiles() throws {
        let daemon = try TestDaemon()
        let error = try daemon.connect().failure(LoadRequest(table: "z", path: "/dev/zero"))
        #expect(error.kind == .invalidValue)
        #expect(error.message.contains("not a regular file"), "\(error)")
    }

    /// A file that is not UTF-8, however far in its bad byte, is refused and makes no table.
    @Test func aLoadRefusesAFileThatIsNotUTF8() throws {
        let daemon = try TestDaemon()
        var bytes = Array("item,qty\n".utf8)
        for row in 0..<100_000 { bytes += Array("Bolt é \(row),\(row)\n".utf8) }
        bytes[bytes.count - 5] = 0xC3
        let path = daemon.scratch.file("latin1.csv")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let connection = try daemon.connect()
        let error = try connection.failure(LoadRequest(table: "latin", path: path))
        #expect(error.kind == .invalidValue)
        #expect(error.message == "The file \(path) is not UTF-8 text.", "\(error)")
        #expect(try connection.send(TablesRequest()).tables.isEmpty)
    }

    /// The fuzzer's seeds and every input it ever failed on, replayed through the same harness
    /// built without libFuzzer: each is answered (fuzz/README.md).
    @Test func fuzzSeedsAndRegressionsAreAnswered() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz")
        var inputs: [String] = []
        for folder in ["seeds", "regressions"] {
            let directory = root.appendingPathComponent(folder).path
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where !name.hasPrefix(".") {
                inputs.append(directory + "/" + name)
            }
        }
        #expect(inputs.count >= 9)
        let (status, output) = try run(BuiltProducts.directory + "/datatabled-fuzz", inputs.sorted())
        #expect(status == 0, "\(output.suffix(2000))")
        #expect(output.components(separatedBy: ": answered").count - 1 == inputs.count)
    }
}
