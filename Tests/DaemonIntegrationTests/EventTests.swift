import Foundation
import Testing

/// `subscribe` over the real socket: every kind of event with its versions, bursts coalesced,
/// and a subscriber that never reads cut off without slowing anyone else.
@Suite struct EventTests {
    /// Events arrive in version order, each continuing from the one before.
    static func expectChained(
        _ events: [[String: Any]],
        from version: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var last = version
        for event in events {
            #expect(event["previous"] as? Int == last, "\(event)", sourceLocation: sourceLocation)
            last = event["version"] as? Int ?? -1
        }
    }

    @Test func subscribersHearOfEveryChangeWithItsVersion() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        try writer.call("create", numberedTableText("feed", count: 5))
        let subscribed = try listener.call("subscribe", #"{"table":"feed"}"#)
        #expect(subscribed["subscribed"] as? Bool == true)
        let start = try #require(subscribed["version"] as? Int)

        try writer.call("add", #"{"table":"feed","row":{"n":10,"name":"ten"}}"#)
        try writer.call("edit", #"{"table":"feed","id":1,"column":"name","value":"first"}"#)
        try writer.call("edit", #"{"table":"feed","id":2,"column":"n","value":"two"}"#)
        try writer.call("select", #"{"table":"feed","ids":[3,4]}"#)
        try writer.call("revert", #"{"table":"feed"}"#)
        try writer.call("sort", #"{"table":"feed","keys":[{"column":"name"}]}"#)
        try writer.call("delete", #"{"table":"feed","selection":true}"#)
        try writer.call("undo", #"{"table":"feed"}"#)
        try writer.call("drop", #"{"table":"feed"}"#)

        let events = try listener.untypedEvents(9)
        let kinds = events.map { $0["kind"] as? String ?? "" }
        // No two of a kind in a row: a burst of one kind may be coalesced into one event.
        #expect(kinds == ["added", "edited", "drafts", "selection", "drafts", "sort", "deleted", "added", "schema"])
        Self.expectChained(Array(events.prefix(8)), from: start)
        #expect(events[0]["ids"] as? [Int] == [6] && events[0]["rows"] as? Int == 6)
        #expect(events[1]["columns"] as? [String] == ["name"])
        #expect(events[2]["errors"] as? Int == 1 && events[4]["errors"] as? Int == 0)
        #expect(events[3]["selected"] as? Int == 2)
        #expect((events[5]["keys"] as? [[String: Any]])?.first?["column"] as? String == "name")
        #expect(events[6]["ids"] as? [Int] == [3, 4] && events[6]["rows"] as? Int == 4)
        // Undo brings the deleted rows back: an `added` event naming them.
        #expect(events[7]["ids"] as? [Int] == [3, 4] && events[7]["rows"] as? Int == 6)
        #expect(events[8]["change"] as? String == "dropped")

        // A table created again under the name is news to its subscribers too.
        try writer.call("create", numberedTableText("feed", count: 1))
        let created = try listener.untypedEvents(1)[0]
        #expect(created["kind"] as? String == "schema" && created["change"] as? String == "created")

        // Only the kinds asked for; unsubscribing stops them.
        try listener.call("subscribe", #"{"table":"feed","events":["selection"]}"#)
        try writer.call("add", #"{"table":"feed","row":{"n":1}}"#)
        try writer.call("select", #"{"table":"feed","action":"all"}"#)
        #expect(try listener.untypedEvents(1)[0]["kind"] as? String == "selection")
        #expect(try listener.call("unsubscribe", #"{"table":"feed"}"#)["subscribed"] as? Bool == true)
        try writer.call("select", #"{"table":"feed","action":"none"}"#)
        #expect(try listener.call("ping")["pong"] as? Bool == true)
        #expect(
            errorData(try listener.call("subscribe", #"{"table":"feed","events":["moved"]}"#))["kind"] as? String
                == "invalid_params"
        )
        #expect(errorData(try listener.call("subscribe", #"{"table":"none"}"#))["kind"] as? String == "no_such_table")
    }

    /// A load into a table lists the rows it added, as an add does (up to 1000 ids); past
    /// that, only the count.
    @Test func aLoadListsTheRowsItAdded() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        try writer.call(
            "create",
            #"{"table":"parts","columns":[{"key":"name"},{"key":"qty","type":"number"}],"key":"name"}"#
        )
        try listener.call("subscribe", #"{"table":"parts"}"#)
        try writer.call("load", #"{"table":"parts","text":"name,qty\nBolt,4\nNut,9\n"}"#)
        let small = try listener.untypedEvents(1)[0]
        #expect(small["kind"] as? String == "added" && small["count"] as? Int == 2)
        #expect(small["ids"] as? [String] == ["Bolt", "Nut"])
        let many = "name,qty\\n" + (0..<1001).map { "P\($0),1\\n" }.joined()
        try writer.call("load", #"{"table":"parts","text":"\#(many)"}"#)
        let large = try listener.untypedEvents(1)[0]
        #expect(large["count"] as? Int == 1001 && large["ids"] == nil)
    }

    /// An upsert replaces the rows whose keys are there and adds the rest, all or nothing;
    /// subscribers hear of the replaced cells and then of the added rows, versions chained.
    @Test func anUpsertReplacesByKeyAndAddsTheRest() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        try writer.call(
            "create",
            #"""
            {"table":"parts","key":"sku","columns":[{"key":"sku"},{"key":"name"},{"key":"qty","type":"number","min":0}],\#
            "rows":[{"sku":"P-1","name":"Bolt","qty":4},{"sku":"P-2","name":"Nut","qty":9}]}
            """#
        )
        try writer.call("select", #"{"table":"parts","ids":["P-2"]}"#)
        let subscribed = try listener.call("subscribe", #"{"table":"parts"}"#)
        let start = try #require(subscribed["version"] as? Int)
        let reply = try writer.call(
            "add",
            #"{"table":"parts","upsert":true,"rows":[{"sku":"P-2","name":"Hex nut"},{"sku":"P-3","name":"Washer","qty":50}]}"#
        )
        #expect((reply["replaced"] as? [[String: Any]])?.map { $0["id"] as? String } == ["P-2"])
        #expect((reply["added"] as? [[String: Any]])?.map { $0["id"] as? String } == ["P-3"])
        let rows = try #require(try writer.call("get", #"{"table":"parts"}"#)["rows"] as? [[String: Any]])
        #expect(rows.map { ($0["values"] as? [String: Any])?["name"] as? String } == ["Bolt", "Hex nut", "Washer"])
        // A column left out is empty; the id and the selection stay.
        #expect((rows[1]["values"] as? [String: Any])?["qty"] is NSNull)
        #expect(rows[1]["selected"] as? Bool == true)
        let events = try listener.untypedEvents(2)
        #expect(events.map { $0["kind"] as? String } == ["edited", "added"])
        #expect(events[0]["ids"] as? [String] == ["P-2"] && events[1]["ids"] as? [String] == ["P-3"])
        EventTests.expectChained(events, from: start)
        // One bad value refuses it all; without a key, or with index, it is refused.
        let version = try #require(reply["version"] as? Int)
        let refused = try writer.call(
            "add",
            #"{"table":"parts","upsert":true,"rows":[{"sku":"P-1","qty":-1},{"sku":"P-4","name":"Pin"}]}"#
        )
        #expect((refused["data"] as? [String: Any])?["kind"] as? String == "invalid_value")
        #expect(try writer.call("describe", #"{"table":"parts"}"#)["version"] as? Int == version)
        try writer.call("create", numberedTableText("plain", count: 1))
        let keyless = try writer.call("add", #"{"table":"plain","upsert":true,"row":{"n":1}}"#)
        #expect((keyless["data"] as? [String: Any])?["field"] as? String == "params.upsert")
        let placed = try writer.call("add", #"{"table":"parts","upsert":true,"index":0,"row":{"sku":"P-9"}}"#)
        #expect((placed["data"] as? [String: Any])?["field"] as? String == "params.index")
    }

    /// A clear of a large table (emptied on a copy off its lock) tells subscribers of every
    /// row in one event, and the table is empty at once.
    @Test func aClearOfALargeTableIsOneEvent() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        let rows = 25_000
        let text = "n\\n" + (0..<rows).map { "\($0)\\n" }.joined()
        try writer.call("load", #"{"table":"big","text":"\#(text)"}"#)
        try listener.call("subscribe", #"{"table":"big"}"#)
        let cleared = try writer.call("clear", #"{"table":"big"}"#)
        #expect(cleared["deleted"] as? Int == rows && cleared["rows"] as? Int == 0)
        let event = try listener.untypedEvents(1)[0]
        #expect(event["kind"] as? String == "deleted" && event["count"] as? Int == rows && event["rows"] as? Int == 0)
        #expect((try writer.call("get", #"{"table":"big"}"#)["rows"] as? [Any])?.isEmpty == true)
        let stale = try writer.call("clear", #"{"table":"big","ifVersion":1}"#)
        #expect((stale["data"] as? [String: Any])?["kind"] as? String == "conflict")
    }

    /// 200 adds sent in one write reach the subscriber as fewer events that add up to 200.
    @Test func burstsAreCoalesced() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        try writer.call("create", numberedTableText("feed", count: 0))
        let start = try #require(try listener.call("subscribe", #"{"table":"feed"}"#)["version"] as? Int)
        let burst = (0..<200).map { #"{"jsonrpc":"2.0","method":"add","params":{"table":"feed","row":{"n":\#($0)}}}"# }
        try writer.send(burst.joined(separator: "\n") + "\n")
        #expect(try writer.call("ping")["pong"] as? Bool == true)

        var events: [[String: Any]] = []
        var count = 0
        while count < 200 {
            let event = try listener.untypedEvents(1)[0]
            events.append(event)
            count += event["count"] as? Int ?? 0
        }
        #expect(count == 200)
        #expect(events.last?["version"] as? Int == start + 200)
        #expect(events.last?["rows"] as? Int == 200)
        Self.expectChained(events, from: start)
    }

    /// A subscriber that never reads: its unread events pile up to the limit, its connection is
    /// closed with a log line saying why, and the client making the changes never waits.
    @Test func aSubscriberThatNeverReadsIsCutOff() throws {
        let daemon = try TestDaemon(arguments: ["--max-output-bytes", "65536"])
        let writer = try daemon.connect()
        let sleeper = try daemon.connect()
        try writer.call("create", #"{"table":"feed","columns":[{"key":"n","type":"number"}]}"#)
        try sleeper.call("subscribe", #"{"table":"feed"}"#)

        // 1000 rows an add: each event lists 1000 ids, about 7 KB; 100 of them are far more
        // than the limit and the socket's buffers hold. Every add is answered meanwhile.
        let rows = (0..<1000).map { #"{"n":\#($0)}"# }.joined(separator: ",")
        for _ in 0..<100 {
            let reply = try writer.call("add", #"{"table":"feed","rows":[\#(rows)]}"#)
            #expect(reply["rows"] != nil, "\(reply)")
        }
        #expect(daemon.process.waitForOutput(containing: "does not read its events"))

        // The sleeper's connection is gone: what it still gets ends, then the stream closes.
        var lines = 0
        while (try? sleeper.readLine(timeout: .seconds(10))) ?? nil != nil { lines += 1 }
        #expect(lines < 100)
        #expect(try object(try daemon.request(#"{"method":"tables"}"#))["result"] != nil)
        #expect(try writer.call("ping")["pong"] as? Bool == true)
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
        try writer.call("create", #"{"table":"feed","columns":[{"key":"n","type":"number"}]}"#)
        try sleeper.call("subscribe", #"{"table":"feed"}"#)
        let rows = (0..<1000).map { #"{"n":\#($0)}"# }.joined(separator: ",")
        let deadline = ContinuousClock.now + .seconds(30)
        while !daemon.process.output.contains("does not read its events"), ContinuousClock.now < deadline {
            #expect(try writer.call("add", #"{"table":"feed","rows":[\#(rows)]}"#)["rows"] != nil)
            usleep(100_000)
        }
        #expect(daemon.process.output.contains("for over 1"), "\(daemon.process.output.suffix(500))")
        #expect(try writer.call("ping")["pong"] as? Bool == true)
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
        try writer.call("create", #"{"table":"feed","columns":[{"key":"n","type":"number"}]}"#)
        try sleeper.call("subscribe", #"{"table":"feed"}"#)
        let rows = (0..<1000).map { #"{"n":\#($0)}"# }.joined(separator: ",")
        for _ in 0..<150 { #expect(try writer.call("add", #"{"table":"feed","rows":[\#(rows)]}"#)["rows"] != nil) }
        let stopped = ContinuousClock.now
        #expect(daemon.process.waitForOutput(containing: "does not read its events", timeout: .seconds(10)))
        #expect(ContinuousClock.now - stopped < .seconds(3) + .milliseconds(500))
        #expect(try writer.call("ping")["pong"] as? Bool == true)
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
        try writer.call("create", #"{"table":"feed","columns":[{"key":"n","type":"number"}]}"#)
        try slow.call("subscribe", #"{"table":"feed"}"#)
        let rows = (0..<1000).map { #"{"n":\#($0)}"# }.joined(separator: ",")
        var version = 0
        for _ in 0..<150 {
            version = try #require(try writer.call("add", #"{"table":"feed","rows":[\#(rows)]}"#)["version"] as? Int)
        }
        var events: [[String: Any]] = []
        while let line = try slow.readLine(timeout: .seconds(2)) {
            let params = try #require(try object(line)["params"] as? [String: Any])
            events.append(params)
            if params["version"] as? Int == version { break }
        }
        #expect(events.count < 150, "\(events.count) events")
        let last = try #require(events.last)
        #expect(last["kind"] as? String == "resync", "\(last)")
        #expect(last["version"] as? Int == version && last["rows"] as? Int == 150_000)
        // Each event takes up where the one before ended: nothing is lost between them.
        for (before, after) in zip(events, events.dropFirst()) {
            #expect((after["previous"] as? Int) == (before["version"] as? Int))
        }
        // Caught up: the next change comes as itself.
        try writer.call("add", #"{"table":"feed","row":{"n":1}}"#)
        let next = try #require(try object(try slow.readLine())["params"] as? [String: Any])
        #expect(next["kind"] as? String == "added" && next["previous"] as? Int == version)
    }
}
