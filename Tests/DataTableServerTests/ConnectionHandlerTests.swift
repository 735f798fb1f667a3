import DataTableProtocol
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import DataTableServer

/// One connection as its client sees it: request bytes go in as the socket's reads, and what
/// comes back is the bytes the daemon writes. The pipeline is the one the server builds for each
/// connection it accepts: the line decoder, then ``ConnectionHandler``.
///
/// Requests answered on the event loop are driven on an `EmbeddedChannel`, where a read is
/// answered by the time it returns. A request that runs off the loop hands its reply back to the
/// loop from another thread, which `EmbeddedEventLoop` does not allow; those tests use
/// `NIOAsyncTestingChannel`, the thread-safe embedded channel, and wait for the replies.
@Suite struct ConnectionHandlerTests {
    // MARK: Order and framing

    /// Each request, sent on its own, is answered with one line carrying its id, error replies
    /// included.
    @Test func eachRequestIsAnsweredWithOneLineCarryingItsID() async throws {
        let state = try await Self.state(withTable: "t", rows: 3)
        let connection = try EmbeddedConnection(state: state)
        let requests: [(line: String, id: JSONValue)] = [
            (#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, 1),
            (#"{"id":"two","method":"describe","params":{"table":"t"}}"#, "two"),
            (#"{"id":3,"method":"get","params":{"table":"missing"}}"#, 3),
            (#"{"method":"ping"}"#, .null),
            (#"{"id":0,"method":"get","params":{"table":"t","count":2}}"#, 0),
        ]
        for request in requests {
            try connection.send(request.line + "\n")
            let replies = try connection.replies()
            try #require(replies.count == 1, "\(request.line) → \(replies)")
            #expect(replies[0]["id"] == request.id)
        }
        try connection.send(#"{"jsonrpc":"2.0","id":7,"method":"ping"}"# + "\n")
        #expect(try connection.written() == #"{"id":7,"jsonrpc":"2.0","result":{"pong":true}}"# + "\n")
    }

    /// Requests pipelined in one read are all answered, in order, each on its line, and go out
    /// in one write; blank lines and a `\r` before the newline are ignored.
    @Test func pipelinedRequestsInOneReadAreAnsweredInOrder() async throws {
        let state = try await Self.state(withTable: "t", rows: 3)
        let connection = try EmbeddedConnection(state: state)
        try connection.send(
            #"{"id":1,"method":"ping"}"# + "\n"
                + #"{"id":"two","method":"describe","params":{"table":"t"}}"# + "\r\n"
                + "\n"
                + #"{"id":3,"method":"get","params":{"table":"t","count":2}}"# + "\n"
                + #"{"id":4,"method":"ping","params":{"loud":true}}"# + "\n"
                + #"{"id":5,"method":"get","params":{"table":"missing"}}"# + "\n"
                + #"{"id":6,"method":"ping"}"# + "\n"
        )
        let writes = try connection.writes()
        #expect(writes.count == 1, "one read, one write: \(writes)")
        let replies = try Self.parse(writes.joined())
        #expect(replies.map { $0["id"] } == [1, "two", 3, 4, 5, 6])
        #expect(replies[safe: 1]?["result"]?["rows"] == 3)
        #expect(replies[safe: 2]?["result"]?["rows"]?.arrayValue?.count == 2)
        #expect(replies[safe: 3]?["error"]?["data"]?["kind"] == "invalid_params")
        #expect(replies[safe: 4]?["error"]?["data"]?["kind"] == "no_such_table")
        #expect(replies[safe: 5]?["result"]?["pong"] == true)
        #expect(try connection.channel.finish().isClean)
    }

    /// A line split across reads is answered once, when its end arrives, and in its place
    /// among the lines around it.
    @Test func aLineSplitAcrossReadsIsAnsweredOnceWhole() throws {
        let connection = try EmbeddedConnection(state: ServerState(limits: ServerLimits()))
        try connection.send(#"{"id":1,"method":"ping"}"# + "\n" + #"{"id":2,"met"#)
        #expect(try connection.replies().map { $0["id"] } == [1])
        try connection.send(#"hod":"ping"}"#)
        #expect(try connection.written() == "")
        try connection.send("\r")
        #expect(try connection.written() == "")
        try connection.send("\n" + #"{"id":3,"method":"ping"}"# + "\n")
        #expect(try connection.replies().map { $0["id"] } == [2, 3])
    }

    /// A client that does not read its replies (the channel is not writable) is not answered
    /// meanwhile; once it reads, what it sent is answered, in order.
    @Test func aClientThatDoesNotReadIsAnsweredOnceItReads() throws {
        let connection = try EmbeddedConnection(state: ServerState(limits: ServerLimits()))
        connection.channel.isWritable = false
        connection.channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        try connection.send(#"{"id":1,"method":"ping"}"# + "\n" + #"{"id":2,"method":"ping"}"# + "\n")
        try connection.send(#"{"id":3,"method":"ping"}"# + "\n")
        #expect(try connection.written() == "")
        connection.channel.isWritable = true
        connection.channel.pipeline.syncOperations.fireChannelWritabilityChanged()
        #expect(try connection.replies().map { $0["id"] } == [1, 2, 3])
        #expect(try connection.channel.finish().isClean)
    }

    /// A request that runs off the event loop (`create` and `sort` are never answered right
    /// away) holds back the requests behind it, however small: their replies come after its
    /// own, in order, and they see what it did.
    @Test func requestsBehindALongOneWaitForIt() async throws {
        let connection = try await AsyncConnection.open(state: ServerState(limits: ServerLimits()))
        let rows = 500
        let create = CreateRequest(
            table: "big",
            columns: [ColumnDefinition(key: "n", type: .number)],
            rows: (0..<rows).map { .object(["n": .integer(Int64(rows - 1 - $0))]) }
        )
        let createLine = try Self.line(id: 1, method: "create", params: create)
        try await connection.send(
            createLine + "\n"
                + #"{"id":2,"method":"ping"}"# + "\n"
                + #"{"id":3,"method":"get","params":{"table":"big","count":3,"columns":["n"]}}"# + "\n"
                + #"{"id":4,"method":"sort","params":{"table":"big","keys":[{"column":"n"}]}}"# + "\n"
                + #"{"id":5,"method":"get","params":{"table":"big","count":3,"columns":["n"]}}"# + "\n"
                + #"{"id":6,"method":"ping"}"# + "\n"
        )
        let replies = try await connection.replies(6)
        #expect(replies.map { $0["id"] } == [1, 2, 3, 4, 5, 6])
        #expect(replies.first?["result"]?["rows"] == .integer(Int64(rows)))
        #expect(Self.column("n", of: replies[safe: 2]) == [rows - 1, rows - 2, rows - 3])
        #expect(replies[safe: 3]?["result"]?["keys"]?.arrayValue?.count == 1)
        #expect(Self.column("n", of: replies[safe: 4]) == [0, 1, 2])
        #expect(replies.allSatisfy { $0["error"] == nil }, "\(replies)")
        // Nothing else was written: the next request's reply is the next line.
        try await connection.send(#"{"id":7,"method":"ping"}"# + "\n")
        #expect(try await connection.replies(1).map { $0["id"] } == [7])
    }

    /// An add to a large table whose arrays are full (each would copy every slot as it grows)
    /// makes room off the loop first, and is answered as any add; the room lasts, so the next
    /// adds are answered right on the loop.
    @Test func anAddToAFullLargeTableMakesRoomOffTheLoop() async throws {
        let rows = ServerState.offLockRows
        let state = try await Self.state(withTable: "t", rows: rows)
        let batch = (0..<500).map { JSONValue.object(["n": .integer(Int64(rows + $0))]) }
        let add = try Self.line(id: 1, method: "add", params: AddRequest(table: "t", rows: batch))
        try #require(try !state.tables.entry("t").reading { $0.hasRoom(forAdding: batch.count) })
        let connection = try await AsyncConnection.open(state: state)
        try await connection.send(add + "\n")
        let reply = try await connection.replies(1).first
        #expect(reply?["result"]?["rows"] == .integer(Int64(rows + batch.count)), "\(String(describing: reply))")
        #expect(reply?["result"]?["added"]?.arrayValue?.last?["index"] == .integer(Int64(rows + batch.count - 1)))
        try #require(try state.tables.entry("t").reading { $0.hasRoom(forAdding: 1000) })
        let onLoop = try EmbeddedConnection(state: state)
        try onLoop.send(add.replacingOccurrences(of: #""id":1"#, with: #""id":2"#) + "\n")
        let replies = try onLoop.replies()
        #expect(replies.count == 1)
        #expect(replies.first?["result"]?["rows"] == .integer(Int64(rows + 2 * batch.count)))
        try onLoop.send(
            #"{"id":3,"method":"get","params":{"table":"t","from":20499,"count":2,"columns":["n"]}}"# + "\n"
        )
        #expect(Self.column("n", of: try onLoop.replies().first) == [rows + batch.count - 1, rows])
    }

    // MARK: Limits

    /// A line longer than `maxLineBytes`, whole or still growing, is answered once with
    /// `limit_exceeded` (`data.limit` `maxLineBytes`, id null) after the lines before it, and
    /// the connection is closed: the line after it is not answered.
    @Test(arguments: [false, true])
    func aLineOverTheLimitIsAnsweredOnceAndTheConnectionCloses(growing: Bool) throws {
        let connection = try EmbeddedConnection(state: ServerState(limits: ServerLimits(maxLineBytes: 64)))
        let long = String(repeating: "x", count: 65)
        if growing {
            try connection.send(#"{"id":1,"method":"ping"}"# + "\n" + long.prefix(40))
            #expect(try connection.replies().map { $0["id"] } == [1])
            #expect(connection.channel.isActive)
            try connection.send(String(long.dropFirst(40)))
        } else {
            try connection.send(#"{"id":1,"method":"ping"}"# + "\n" + long + "\n" + #"{"id":3,"method":"ping"}"# + "\n")
        }
        connection.channel.embeddedEventLoop.run()
        let replies = try connection.replies()
        #expect(replies.map { $0["id"] } == (growing ? [.null] : [1, .null]))
        let error = replies.last?["error"]
        #expect(error?["data"]?["kind"] == "limit_exceeded")
        #expect(error?["data"]?["limit"] == "maxLineBytes")
        #expect(error?["data"]?["max"] == 64)
        #expect(!connection.channel.isActive)
        #expect(try connection.channel.finish(acceptAlreadyClosed: true).isClean)
    }

    /// A line of exactly `maxLineBytes` is a request like any other.
    @Test func aLineOfExactlyTheLimitIsAnswered() throws {
        let line = #"{"id":1,"method":"ping","params":{}}"#
        let connection = try EmbeddedConnection(state: ServerState(limits: ServerLimits(maxLineBytes: line.utf8.count)))
        try connection.send(line + "\r\n" + line + "\n")
        #expect(try connection.replies().map { $0["id"] } == [1, 1])
        #expect(connection.channel.isActive)
    }

    /// An over-long line behind a request still running off the loop is answered after that
    /// request's reply, then the connection closes.
    @Test func anOverlongLineBehindALongRequestIsAnsweredAfterIt() async throws {
        let connection = try await AsyncConnection.open(state: ServerState(limits: ServerLimits(maxLineBytes: 128)))
        try await connection.send(
            #"{"id":1,"method":"create","params":{"table":"t","columns":[{"key":"a"}]}}"# + "\n"
                + String(repeating: " ", count: 129) + "\n"
        )
        let replies = try await connection.replies(2)
        #expect(replies.map { $0["id"] } == [1, .null])
        #expect(replies.first?["result"]?["table"] == "t")
        #expect(replies.last?["error"]?["data"]?["limit"] == "maxLineBytes")
        #expect(try await connection.closes())
        #expect(try await connection.channel.finish(acceptAlreadyClosed: true).isClean)
    }

    /// A notification (`"jsonrpc":"2.0"`, no id) is carried out and gets no reply, not even
    /// when it fails; the request after it is answered as usual.
    @Test func aNotificationGetsNoReply() async throws {
        let state = try await Self.state(withTable: "t", rows: 3)
        let connection = try await AsyncConnection.open(state: state)
        try await connection.send(
            #"{"jsonrpc":"2.0","method":"ping"}"# + "\n"
                + #"{"jsonrpc":"2.0","method":"add","params":{"table":"t","row":{"n":99}}}"# + "\n"
                + #"{"jsonrpc":"2.0","method":"nosuch"}"# + "\n"
                + #"{"jsonrpc":"2.0","method":"get","params":{"table":"missing"}}"# + "\n"
                + #"{"jsonrpc":"2.0","method":"create","params":{"table":"u","columns":[{"key":"a"}]}}"# + "\n"
                + #"{"jsonrpc":"2.0","id":1,"method":"tables"}"# + "\n"
        )
        let replies = try await connection.replies(1)
        #expect(replies.map { $0["id"] } == [1])
        let tables = replies.first?["result"]?["tables"]?.arrayValue ?? []
        #expect(tables.map { $0["name"] } == ["t", "u"])
        #expect(tables.first?["rows"] == 4)
        // Nothing else was written: the next request's reply is the next line.
        try await connection.send(#"{"id":2,"method":"ping"}"# + "\n")
        #expect(try await connection.replies(1).map { $0["id"] } == [2])
    }

    /// A batch is answered with one line holding one array of replies in request order,
    /// notifications left out; a batch of notifications only gets no reply at all.
    @Test func aBatchGetsOneArrayReply() async throws {
        let connection = try await AsyncConnection.open(state: ServerState(limits: ServerLimits()))
        try await connection.send(
            #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"ping"},"#
                + #"{"id":"b","method":"nosuch"},5,{"id":3,"method":"ping"}]"# + "\n"
                + #"[{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","method":"ping"}]"# + "\n"
                + #"{"id":9,"method":"ping"}"# + "\n"
        )
        let replies = try await connection.replies(2)
        try #require(replies.count == 2, "\(replies)")
        let batch = try #require(replies[0].arrayValue, "\(replies[0])")
        #expect(batch.map { $0["id"] } == [1, "b", .null, 3])
        #expect(batch[safe: 1]?["error"]?["data"]?["kind"] == "unknown_method")
        #expect(batch[safe: 2]?["error"]?["data"]?["kind"] == "invalid_request")
        #expect(replies[1]["id"] == 9)
    }

    // MARK: Opening and closing

    /// What a client sends before the server admits its connection is kept, and answered once
    /// it is admitted.
    @Test func requestsSentBeforeAdmissionAreAnsweredOnceAdmitted() throws {
        let connection = try EmbeddedConnection(state: ServerState(limits: ServerLimits()), admitted: false)
        try connection.send(#"{"id":1,"method":"ping"}"# + "\n" + #"{"id":2,"method":"ping"}"# + "\n")
        #expect(try connection.written() == "")
        try connection.admit()
        #expect(try connection.replies().map { $0["id"] } == [1, 2])
    }

    /// A client that closes its sending side gets every reply, a request still running off the
    /// loop and a last line without a newline included; then the daemon closes the connection.
    @Test func aClientThatStopsSendingGetsEveryReplyThenTheConnectionCloses() async throws {
        let connection = try await AsyncConnection.open(state: ServerState(limits: ServerLimits()))
        try await connection.send(
            #"{"id":1,"method":"create","params":{"table":"t","columns":[{"key":"a"}]}}"# + "\n"
                + #"{"id":2,"method":"describe","params":{"table":"t"}}"# + "\n"
                + #"{"id":3,"method":"ping"}"#
        )
        try await connection.closeInput()
        let replies = try await connection.replies(3)
        #expect(replies.map { $0["id"] } == [1, 2, 3])
        #expect(replies.allSatisfy { $0["result"] != nil }, "\(replies)")
        #expect(try await connection.closes())
        #expect(try await connection.channel.finish(acceptAlreadyClosed: true).isClean)
    }

    /// A connection closed while a request runs off the loop: that request is still carried out,
    /// but nothing is written for it or for the requests read behind it, which are dropped (the
    /// `create` among them never happens); nothing is left pending on the channel.
    @Test func aConnectionClosedMidRequestWritesNothingMore() async throws {
        let state = ServerState(limits: ServerLimits())
        let connection = try await AsyncConnection.open(state: state)
        let rows = 100
        let create = CreateRequest(
            table: "big",
            columns: [ColumnDefinition(key: "n", type: .number)],
            rows: (0..<rows).map { .object(["n": .integer(Int64($0))]) }
        )
        let read =
            try Self.line(id: 1, method: "create", params: create) + "\n"
            + #"{"id":2,"method":"ping"}"# + "\n"
            + #"{"id":3,"method":"create","params":{"table":"later","columns":[{"key":"a"}]}}"# + "\n"
        // The read and the close in one turn of the loop: the create cannot be done before it.
        let channel = connection.channel
        try await channel.testingEventLoop.executeInContext {
            channel.pipeline.syncOperations.fireChannelRead(NIOAny(ByteBuffer(string: read)))
            channel.pipeline.syncOperations.fireChannelReadComplete()
            channel.close(promise: nil)
        }
        var client = InProcessClient(server: state)
        let deadline = ContinuousClock.now + .seconds(300)
        while try await client.reply(#"{"method":"describe","params":{"table":"big"}}"#)["result"] == nil,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(5))
        }
        let big = try await client.reply(#"{"method":"describe","params":{"table":"big"}}"#)
        #expect(big["result"]?["rows"] == .integer(Int64(rows)))
        await channel.testingEventLoop.run()
        #expect(try await connection.written() == "")
        let later = try await client.reply(#"{"method":"describe","params":{"table":"later"}}"#)
        #expect(later["error"]?["data"]?["kind"] == "no_such_table")
        #expect(!channel.isActive)
        #expect(try await channel.finish(acceptAlreadyClosed: true).isClean)
    }

    // MARK: Helpers

    /// Daemon state holding table `name` of `rows` rows (one number column `n`, 0 up), made
    /// by a client of its own.
    private static func state(withTable name: String, rows: Int) async throws -> ServerState {
        let state = ServerState(limits: ServerLimits())
        var client = InProcessClient(server: state)
        let create = CreateRequest(
            table: name,
            columns: [ColumnDefinition(key: "n", type: .number)],
            rows: (0..<rows).map { .object(["n": .integer(Int64($0))]) }
        )
        let reply = try await client.reply(try line(id: 1, method: "create", params: create))
        try #require(reply["result"] != nil, "\(reply)")
        return state
    }

    /// A request line of `method` with `params`.
    private static func line(id: Int, method: String, params: some Encodable) throws -> String {
        let params = String(decoding: try JSONEncoder().encode(params), as: UTF8.self)
        return #"{"id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }

    /// The replies in `text`, which must be whole lines.
    fileprivate static func parse(_ text: String) throws -> [JSONValue] {
        #expect(text.isEmpty || text.hasSuffix("\n"), "a reply is a whole line: \(text)")
        return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
        }
    }

    /// Column `key` of the rows in a `get` reply.
    private static func column(_ key: String, of reply: JSONValue?) -> [Int] {
        (reply?["result"]?["rows"]?.arrayValue ?? []).compactMap { $0["values"]?[key]?.intValue }
    }
}

/// The request path's pipeline, as the server builds it for each connection it accepts.
private enum Pipeline {
    static func add(to pipeline: ChannelPipeline.SynchronousOperations, state: ServerState) throws {
        let limits = state.limits
        try pipeline.addHandler(
            ByteToMessageHandler(
                JSONLineDecoder(maximumLineBytes: limits.maxLineBytes),
                maximumBufferSize: limits.maxLineBytes + 2
            )
        )
        try pipeline.addHandler(
            ConnectionHandler(
                dispatcher: RequestDispatcher(methods: .builtin(), limits: limits),
                context: RequestContext(
                    connection: ConnectionInfo(id: 1, peer: PeerCredentials(pid: 42, uid: 1000, gid: 1000)),
                    server: state,
                    logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
                )
            )
        )
    }

    /// Lets the connection's handler answer, as the server's accept loop does.
    static func admit(_ pipeline: ChannelPipeline.SynchronousOperations) throws {
        try pipeline.handler(type: ConnectionHandler.self).admit()
    }

    static let address = try! SocketAddress(unixDomainSocketPath: "/run/datatabled/datatabled.sock")
}

/// A connection on an `EmbeddedChannel`: everything runs on the test's thread, so a read is
/// answered (as far as it is answered on the loop) by the time ``send(_:)`` returns.
private struct EmbeddedConnection {
    let channel = EmbeddedChannel()

    init(state: ServerState, admitted: Bool = true) throws {
        try Pipeline.add(to: channel.pipeline.syncOperations, state: state)
        try channel.connect(to: Pipeline.address).wait()
        if admitted { try admit() }
    }

    func admit() throws { try Pipeline.admit(channel.pipeline.syncOperations) }

    /// One read from the socket.
    func send(_ text: String) throws { try channel.writeInbound(ByteBuffer(string: text)) }

    /// The writes since last asked, each as its text.
    func writes() throws -> [String] {
        var writes: [String] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            writes.append(String(buffer: buffer))
        }
        return writes.filter { !$0.isEmpty }
    }

    /// What was written since last asked.
    func written() throws -> String { try writes().joined() }

    /// The replies written since last asked.
    func replies() throws -> [JSONValue] { try ConnectionHandlerTests.parse(written()) }
}

/// A connection on a `NIOAsyncTestingChannel`, whose event loop takes work handed back from
/// other threads (a request answered off the loop).
private struct AsyncConnection {
    let channel: NIOAsyncTestingChannel

    static func open(state: ServerState) async throws -> AsyncConnection {
        let channel = try await NIOAsyncTestingChannel { channel in
            try Pipeline.add(to: channel.pipeline.syncOperations, state: state)
        }
        try await channel.connect(to: Pipeline.address).get()
        try await channel.testingEventLoop.executeInContext {
            try Pipeline.admit(channel.pipeline.syncOperations)
        }
        return AsyncConnection(channel: channel)
    }

    /// One read from the socket.
    func send(_ text: String) async throws { try await channel.writeInbound(ByteBuffer(string: text)) }

    /// The client shuts down its sending side.
    func closeInput() async throws {
        let channel = self.channel
        try await channel.testingEventLoop.executeInContext {
            channel.pipeline.syncOperations.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
    }

    /// What was written and flushed since last asked.
    func written() async throws -> String {
        await channel.testingEventLoop.run()
        var text = ""
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) {
            text += String(buffer: buffer)
        }
        return text
    }

    /// The replies written from now on, waiting until `count` have come or `timeout` has
    /// passed (then fewer). The wait is long: requests answered off the loop run as tasks, which
    /// wait for a thread of the cooperative pool while the suite's blocking tests hold them.
    func replies(_ count: Int, within timeout: Duration = .seconds(300)) async throws -> [JSONValue] {
        let deadline = ContinuousClock.now + timeout
        var text = ""
        while true {
            text += try await written()
            let lines = text.utf8.count(where: { $0 == UInt8(ascii: "\n") })
            if lines >= count || ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(2))
        }
        return try ConnectionHandlerTests.parse(text)
    }

    /// Whether the daemon closes the connection within `timeout`.
    func closes(within timeout: Duration = .seconds(300)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while channel.isActive, ContinuousClock.now < deadline {
            await channel.testingEventLoop.run()
            try await Task.sleep(for: .milliseconds(2))
        }
        return !channel.isActive
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
