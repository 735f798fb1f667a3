import DataTableClient
import DataTableProtocol
import Foundation
import Testing

/// `subscribe` over the real socket: every kind of event with its versions, bursts coalesced,
/// and a subscriber that never reads cut off without slowing anyone else.
@Suite(.tags(.slow)) struct EventTests {
    /// Events arrive in version order, each continuing from the one before.
    static func expectChained(
        _ events: [TableEvent],
        from version: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var last = version
        for event in events {
            #expect(event.previous == last, "\(event)", sourceLocation: sourceLocation)
            last = event.version
        }
    }

    /// The next line `client` receives, which must be an `event` notification.
    static func nextEvent(
        _ client: UnixClient,
        timeout: Duration = .seconds(10),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TableEvent {
        let line = try #require(
            try client.readLine(timeout: timeout),
            "the daemon closed the connection",
            sourceLocation: sourceLocation
        )
        let message = try JSONDecoder().decode(Notification<TableEvent>.self, from: Data(line.utf8))
        #expect(message.method == "event", "\(line)", sourceLocation: sourceLocation)
        return try #require(message.params, "\(line)", sourceLocation: sourceLocation)
    }

    /// `request` as a notification: a request without an id, which gets no reply.
    static func notificationLine<Request: DataTableRequest>(for request: Request) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = RequestWithoutID(method: Request.method, params: request)
        return String(decoding: try encoder.encode(line), as: UTF8.self)
    }

    @Test func subscribersHearOfEveryChangeWithItsVersion() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        try writer.send(numberedTable("feed", count: 5))
        let subscribed = try listener.send(SubscribeRequest(table: "feed"))
        #expect(subscribed.subscribed)
        let start = subscribed.version

        try writer.send(AddRequest(table: "feed", row: ["n": 10, "name": "ten"]))
        try writer.send(EditRequest(table: "feed", id: 1, column: "name", value: "first"))
        // Not a number: refused, and kept as a draft.
        #expect(try writer.failure(EditRequest(table: "feed", id: 2, column: "n", value: "two")).kind == .invalidValue)
        try writer.send(SelectRequest(table: "feed", ids: [3, 4]))
        try writer.send(RevertRequest(table: "feed"))
        try writer.send(SortRequest(table: "feed", keys: [SortKeyParam(column: "name")]))
        try writer.send(DeleteRequest(table: "feed", selection: true))
        try writer.send(UndoRequest(table: "feed"))
        try writer.send(DropRequest(table: "feed"))

        let events = try listener.events(9)
        // No two of a kind in a row: a burst of one kind may be coalesced into one event.
        #expect(
            events.map(\.kind) == [.added, .edited, .drafts, .selection, .drafts, .sort, .deleted, .added, .schema]
        )
        Self.expectChained(Array(events.prefix(8)), from: start)
        #expect(events[0].ids == [6] && events[0].rows == 6)
        #expect(events[1].columns == ["name"])
        #expect(events[2].errors == 1 && events[4].errors == 0)
        #expect(events[3].selected == 2)
        #expect(events[5].keys?.first?.column == "name")
        #expect(events[6].ids == [3, 4] && events[6].rows == 4)
        // Undo brings the deleted rows back: an `added` event naming them.
        #expect(events[7].ids == [3, 4] && events[7].rows == 6)
        #expect(events[8].change == "dropped")

        // A table created again under the name is news to its subscribers too.
        try writer.send(numberedTable("feed", count: 1))
        let created = try listener.events(1)[0]
        #expect(created.kind == .schema && created.change == "created")

        // Only the kinds asked for; unsubscribing stops them.
        try listener.send(SubscribeRequest(table: "feed", events: [.selection]))
        try writer.send(AddRequest(table: "feed", row: ["n": 1]))
        try writer.send(SelectRequest(table: "feed", action: .all))
        #expect(try listener.events(1)[0].kind == .selection)
        #expect(try listener.send(UnsubscribeRequest(table: "feed")).subscribed)
        try writer.send(SelectRequest(table: "feed", action: SelectionAction.none))
        // Nothing comes before the ping's reply: the selection event was not sent.
        try listener.send(LineConnection.line(for: PingRequest(), id: 1) + "\n")
        let next = try #require(try listener.readLine(), "the daemon closed the connection")
        let pong = try JSONDecoder().decode(ReplyMessage.self, from: Data(next.utf8))
        #expect(try decoded(PingRequest.Response.self, from: try #require(pong.result, "\(next)")).pong)
        #expect(
            try listener.failure(toLine: #"{"id":1,"method":"subscribe","params":{"table":"feed","events":["moved"]}}"#)
                .kind == .invalidParams
        )
        #expect(try listener.failure(SubscribeRequest(table: "none")).kind == .noSuchTable)
    }

    /// A load into a table lists the rows it added, as an add does (up to 1000 ids); past
    /// that, only the count.
    @Test func aLoadListsTheRowsItAdded() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        try writer.send(
            CreateRequest(
                table: "parts",
                columns: [ColumnDefinition(key: "name"), ColumnDefinition(key: "qty", type: .number)],
                key: "name"
            )
        )
        try listener.send(SubscribeRequest(table: "parts"))
        try writer.send(LoadRequest(table: "parts", text: "name,qty\nBolt,4\nNut,9\n"))
        let small = try listener.events(1)[0]
        #expect(small.kind == .added && small.count == 2)
        #expect(small.ids == ["Bolt", "Nut"])
        let many = "name,qty\n" + (0..<1001).map { "P\($0),1\n" }.joined()
        try writer.send(LoadRequest(table: "parts", text: many))
        let large = try listener.events(1)[0]
        #expect(large.count == 1001 && large.ids == nil)
    }

    /// An upsert replaces the rows whose keys are there and adds the rest, all or nothing;
    /// subscribers hear of the replaced cells and then of the added rows, versions chained.
    @Test func anUpsertReplacesByKeyAndAddsTheRest() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        try writer.send(
            CreateRequest(
                table: "parts",
                columns: [
                    ColumnDefinition(key: "sku"), ColumnDefinition(key: "name"),
                    ColumnDefinition(key: "qty", type: .number, min: 0),
                ],
                key: "sku",
                rows: [["sku": "P-1", "name": "Bolt", "qty": 4], ["sku": "P-2", "name": "Nut", "qty": 9]]
            )
        )
        try writer.send(SelectRequest(table: "parts", ids: ["P-2"]))
        let start = try listener.send(SubscribeRequest(table: "parts")).version
        let reply = try writer.send(
            AddRequest(
                table: "parts",
                rows: [["sku": "P-2", "name": "Hex nut"], ["sku": "P-3", "name": "Washer", "qty": 50]],
                upsert: true
            )
        )
        #expect(reply.replaced?.map(\.id) == ["P-2"])
        #expect(reply.added.map(\.id) == ["P-3"])
        let rows = try writer.send(GetRequest(table: "parts")).rows
        #expect(rows.map { $0.values["name"] } == ["Bolt", "Hex nut", "Washer"])
        try #require(rows.count == 3)
        // A column left out is empty; the id and the selection stay.
        #expect(rows[1].values["qty"] == JSONValue.null)
        #expect(rows[1].selected)
        let events = try listener.events(2)
        #expect(events.map(\.kind) == [.edited, .added])
        #expect(events[0].ids == ["P-2"] && events[1].ids == ["P-3"])
        EventTests.expectChained(events, from: start)
        // One bad value refuses it all; without a key, or with index, it is refused.
        let version = reply.version
        let refused = try writer.failure(
            AddRequest(
                table: "parts",
                rows: [["sku": "P-1", "qty": -1], ["sku": "P-4", "name": "Pin"]],
                upsert: true
            )
        )
        #expect(refused.kind == .invalidValue)
        #expect(try writer.send(DescribeRequest(table: "parts")).version == version)
        try writer.send(numberedTable("plain", count: 1))
        let keyless = try writer.failure(AddRequest(table: "plain", row: ["n": 1], upsert: true))
        #expect(keyless.details["field"] == "params.upsert")
        let placed = try writer.failure(AddRequest(table: "parts", row: ["sku": "P-9"], index: 0, upsert: true))
        #expect(placed.details["field"] == "params.index")
    }

    /// A clear of a large table (emptied on a copy off its lock) tells subscribers of every
    /// row in one event, and the table is empty at once.
    @Test func aClearOfALargeTableIsOneEvent() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        let rows = 25_000
        let text = "n\n" + (0..<rows).map { "\($0)\n" }.joined()
        try writer.send(LoadRequest(table: "big", text: text))
        try listener.send(SubscribeRequest(table: "big"))
        let cleared = try writer.send(ClearRequest(table: "big"))
        #expect(cleared.deleted == rows && cleared.rows == 0)
        let event = try listener.events(1)[0]
        #expect(event.kind == .deleted && event.count == rows && event.rows == 0)
        #expect(try writer.send(GetRequest(table: "big")).rows.isEmpty)
        let stale = try writer.failure(ClearRequest(table: "big", ifVersion: 1))
        #expect(stale.kind == .conflict)
    }

    /// 200 adds sent in one write reach the subscriber as fewer events that add up to 200.
    @Test func burstsAreCoalesced() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        try writer.send(numberedTable("feed", count: 0))
        let start = try listener.send(SubscribeRequest(table: "feed")).version
        let burst = try (0..<200).map {
            try Self.notificationLine(for: AddRequest(table: "feed", row: ["n": .integer(Int64($0))]))
        }
        try writer.send(burst.joined(separator: "\n") + "\n")
        #expect(try writer.send(PingRequest()).pong)

        var events: [TableEvent] = []
        var count = 0
        while count < 200 {
            let event = try listener.events(1)[0]
            events.append(event)
            count += event.count ?? 0
        }
        #expect(count == 200)
        #expect(events.last?.version == start + 200)
        #expect(events.last?.rows == 200)
        Self.expectChained(events, from: start)
    }

    /// A subscriber that never reads: its unread events pile up to the limit, its connection is
    /// closed with a log line saying why, and the client making the changes never waits.
    @Test func aSubscriberThatNeverReadsIsCutOff() throws {
        let daemon = try TestDaemon(arguments: ["--max-output-bytes", "65536"])
        let writer = try daemon.connect()
        let sleeper = try daemon.connect()
        try writer.send(CreateRequest(table: "feed", columns: [ColumnDefinition(key: "n", type: .number)]))
        try sleeper.send(SubscribeRequest(table: "feed"))

        // 1000 rows an add: each event lists 1000 ids, about 7 KB; 100 of them are far more
        // than the limit and the socket's buffers hold. Every add is answered meanwhile.
        let add = try EncodedRequest(AddRequest(table: "feed", rows: (0..<1000).map { ["n": .integer(Int64($0))] }))
        for round in 0..<100 {
            let reply = try add.send(on: writer)
            #expect(reply.rows == 1000 * (round + 1), "\(reply)")
        }
        #expect(daemon.process.waitForOutput(containing: "does not read its events"))

        // The sleeper's connection is gone: what it still gets ends, then the stream closes.
        var lines = 0
        while (try? sleeper.readLine(timeout: .seconds(10))) ?? nil != nil { lines += 1 }
        #expect(lines < 100)
        #expect(try daemon.connect().send(TablesRequest()).tables.map(\.name) == ["feed"])
        #expect(try writer.send(PingRequest()).pong)
    }

    /// Under the hard limit but above the soft one for longer than its grace: cut off too.
    @Test func aSubscriberAboveTheSoftLimitTooLongIsCutOff() throws {
        let daemon = try TestDaemon(
            arguments: [
                "--max-output-bytes", "100000000", "--soft-output-bytes", "65536", "--soft-output-seconds", "1",
            ]
        )
        let writer = try daemon.connect()
        let sleeper = try daemon.connect()
        try writer.send(CreateRequest(table: "feed", columns: [ColumnDefinition(key: "n", type: .number)]))
        try sleeper.send(SubscribeRequest(table: "feed"))
        let add = try EncodedRequest(AddRequest(table: "feed", rows: (0..<1000).map { ["n": .integer(Int64($0))] }))
        let deadline = ContinuousClock.now + .seconds(30)
        var added = 0
        while !daemon.process.output.contains("does not read its events"), ContinuousClock.now < deadline {
            added += 1000
            #expect(try add.send(on: writer).rows == added)
            // The pause is what is tested, not a wait: events keep coming, a few a second, for
            // longer than the grace, and the output stays far below the hard limit meanwhile.
            usleep(100_000)
        }
        #expect(daemon.process.output.contains("for over 1"), "\(daemon.process.output.suffix(500))")
        #expect(try writer.send(PingRequest()).pong)
    }

    /// A subscriber above the soft limit is cut off when its grace ends, even if no event comes
    /// after: the check does not wait for the next one.
    @Test func aSubscriberIsCutOffOnTimeWhenTheEventsStop() throws {
        let daemon = try TestDaemon(
            arguments: [
                "--max-output-bytes", "100000000", "--soft-output-bytes", "65536", "--soft-output-seconds", "2",
            ]
        )
        let writer = try daemon.connect()
        let sleeper = try daemon.connect()
        try writer.send(CreateRequest(table: "feed", columns: [ColumnDefinition(key: "n", type: .number)]))
        try sleeper.send(SubscribeRequest(table: "feed"))
        let add = try EncodedRequest(AddRequest(table: "feed", rows: (0..<1000).map { ["n": .integer(Int64($0))] }))
        for round in 0..<150 { #expect(try add.send(on: writer).rows == 1000 * (round + 1)) }
        let stopped = ContinuousClock.now
        #expect(daemon.process.waitForOutput(containing: "does not read its events", timeout: .seconds(10)))
        #expect(ContinuousClock.now - stopped < .seconds(3) + .milliseconds(500))
        #expect(try writer.send(PingRequest()).pong)
    }

    /// A subscriber that falls behind and then reads gets what it missed as one `resync` event
    /// (re-fetch at its version), not every event, and then events again.
    @Test func aSubscriberThatFallsBehindGetsOneResync() throws {
        let daemon = try TestDaemon(
            arguments: [
                "--max-output-bytes", "100000000", "--soft-output-bytes", "65536", "--soft-output-seconds", "60",
            ]
        )
        let writer = try daemon.connect()
        let slow = try daemon.connect()
        try writer.send(CreateRequest(table: "feed", columns: [ColumnDefinition(key: "n", type: .number)]))
        try slow.send(SubscribeRequest(table: "feed"))
        let add = try EncodedRequest(AddRequest(table: "feed", rows: (0..<1000).map { ["n": .integer(Int64($0))] }))
        var version = 0
        for _ in 0..<150 {
            version = try add.send(on: writer).version
        }
        var events: [TableEvent] = []
        while events.last?.version != version {
            events.append(try Self.nextEvent(slow, timeout: .seconds(2)))
        }
        #expect(events.count < 150, "\(events.count) events")
        let last = try #require(events.last)
        #expect(last.kind == .resync, "\(last)")
        #expect(last.version == version && last.rows == 150_000)
        // Each event takes up where the one before ended: nothing is lost between them.
        for (before, after) in zip(events, events.dropFirst()) {
            #expect(after.previous == before.version)
        }
        // Caught up: the next change comes as itself.
        try writer.send(AddRequest(table: "feed", row: ["n": 1]))
        let next = try Self.nextEvent(slow)
        #expect(next.kind == .added && next.previous == version)
    }
}

/// A request without an `id`: a notification, which the daemon carries out without replying.
private struct RequestWithoutID<Params: Encodable>: Encodable {
    var jsonrpc = "2.0"
    var method: String
    var params: Params
}
