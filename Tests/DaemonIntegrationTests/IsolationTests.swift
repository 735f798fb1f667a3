import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// Tables are isolated from each other: long work on one never holds up the clients of another,
/// and long work on a table runs beside its own readers and writers without losing or reordering
/// anything.
@Suite struct IsolationTests {
    /// A CSV of `rows` rows (`n`, a text `name` in scrambled order, `qty`) in `scratch`.
    static func writeCSV(rows: Int, in scratch: Scratch) throws -> String {
        var text = "n,name,qty\n"
        text.reserveCapacity(rows * 32)
        var random = SeededRandom(seed: 1)
        for row in 0..<rows {
            text += "\(row),item \(random.next() >> 40) \(row),\(row % 997)\n"
        }
        let path = scratch.file("big.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aSortOfOneTableLeavesAnotherTablesClientsServed() throws {
        let daemon = try TestDaemon()
        let setup = try daemon.connect()
        let csv = try Self.writeCSV(rows: 200_000, in: daemon.scratch)
        let loaded = try setup.call("load", #"{"table":"big","path":"\#(csv)"}"#)
        #expect(loaded["rows"] as? Int == 200_000, "\(loaded)")
        try setup.call("create", numberedTableText("small", count: 100))

        let sorter = try daemon.connect()
        let scroller = try daemon.connect()
        try scroller.call("scroll", #"{"table":"small","unit":"cell","viewport":{"width":80,"height":10}}"#)
        // Sorting 200,000 rows by text and back by number, one after the other, in one pipeline.
        try sorter.send(
            #"{"id":1,"method":"sort","params":{"table":"big","keys":[{"column":"name"}]}}"# + "\n"
                + #"{"id":2,"method":"sort","params":{"table":"big","keys":[{"column":"name","descending":true}]}}"#
                + "\n"
        )
        // The other table's client goes on being answered while the sorts run: it completes
        // round trips before the sorts' replies come. Behind one lock for every table, not one
        // of them would come back before the first sort's reply.
        var roundTrips = 0
        while !sorter.hasInput && roundTrips < 1_000 {
            let reply = try scroller.call("scroll", #"{"table":"small","viewport":{"y":\#(roundTrips % 50)}}"#)
            #expect(reply["rows"] != nil, "\(reply)")
            roundTrips += 1
        }
        #expect(roundTrips >= 5, "only \(roundTrips) scrolls were answered before the sort's reply")
        let first = try object(try sorter.readLine(timeout: .seconds(120)))
        let second = try object(try sorter.readLine(timeout: .seconds(120)))
        #expect(first["id"] as? Int == 1 && first["result"] != nil, "\(first)")
        #expect(second["id"] as? Int == 2 && second["result"] != nil, "\(second)")
        // The sort is whole: the first row is the greatest name.
        let top = try setup.call("get", #"{"table":"big","count":1}"#)
        let rows = try #require(top["rows"] as? [[String: Any]])
        let name = (rows.first?["values"] as? [String: Any])?["name"] as? String
        #expect(name?.hasPrefix("item ") == true)
    }

    /// Runs `body` on `count` threads at once and waits for all of them; returns what they threw.
    static func together(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [String] {
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                do { try body(index) } catch { failures.withLock { $0.append("client \(index): \(error)") } }
                group.leave()
            }.start()
        }
        group.wait()
        return failures.withLock { $0 }
    }

    @Test func readersAndWritersOfOneTableKeepEveryInvariant() throws {
        let stateDirectory = try Scratch()
        defer { stateDirectory.remove() }
        let arguments = ["--state-dir", stateDirectory.file("state")]
        var daemon = try TestDaemon(arguments: arguments)
        let setup = try daemon.connect()
        // Large enough that sorts and exports work on copies off the table's lock.
        let startRows = 30_000
        let csv = try Self.writeCSV(rows: startRows, in: daemon.scratch)
        try setup.call("load", #"{"table":"t","path":"\#(csv)"}"#)
        let listener = try daemon.connect()
        let start = try #require(try listener.call("subscribe", #"{"table":"t"}"#)["version"] as? Int)

        let (writers, addsEach) = (3, 60)
        let socket = daemon.socketPath
        // A random schedule: each client sleeps a random moment between its requests.
        let failures = Self.together(writers + 3) { client in
            let connection = try UnixClient(path: socket)
            var random = SeededRandom(seed: UInt64(client + 1))
            func pause() { usleep(UInt32.random(in: 0..<3_000, using: &random)) }
            var lastVersion = 0
            func call(_ method: String, _ params: String) throws -> [String: Any] {
                let reply = try connection.call(method, params)
                guard let version = reply["version"] as? Int else {
                    throw UnixClient.Failure(description: "\(method) \(params): \(reply)")
                }
                // Each client sees the table's version only go up.
                guard version > lastVersion || method == "export" || method == "scroll" else {
                    throw UnixClient.Failure(description: "\(method) answered version \(version) after \(lastVersion)")
                }
                lastVersion = max(lastVersion, version)
                return reply
            }
            switch client {
            case 0..<writers:
                for index in 0..<addsEach {
                    _ = try call("add", #"{"table":"t","row":{"n":\#(-1 - index),"name":"w\#(client)-\#(index)"}}"#)
                    pause()
                }
            case writers:
                for round in 0..<6 {
                    let key = ["name", "qty", "n"][round % 3]
                    _ = try call(
                        "sort",
                        #"{"table":"t","keys":[{"column":"\#(key)","descending":\#(round % 2 == 0)}]}"#
                    )
                    pause()
                }
            case writers + 1:
                for round in 0..<4 {
                    let reply = try call("export", #"{"table":"t","format":"ndjson"}"#)
                    let text = reply["text"] as? String ?? ""
                    let lines = text.split(separator: "\n").count
                    // An export is the table at one version: as many lines as rows then.
                    guard lines == reply["rows"] as? Int, lines >= startRows else {
                        throw UnixClient.Failure(
                            description: "export \(round): \(lines) lines, \(reply["rows"] ?? "?") rows"
                        )
                    }
                    pause()
                }
            default:
                _ = try call("scroll", #"{"table":"t","unit":"cell","viewport":{"width":60,"height":20}}"#)
                for round in 0..<100 {
                    let reply = try call("scroll", #"{"table":"t","viewport":{"y":\#(round * 7)}}"#)
                    guard (reply["rows"] as? [[String: Any]])?.isEmpty == false else {
                        throw UnixClient.Failure(description: "scroll \(round): \(reply)")
                    }
                    if round % 10 == 0 {
                        _ = try call("edit", #"{"table":"t","id":\#(round + 1),"column":"qty","value":\#(round)}"#)
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")

        // Every add is there once; nothing else came or went.
        let described = try setup.call("describe", #"{"table":"t"}"#)
        #expect(described["rows"] as? Int == startRows + writers * addsEach)
        let final = try #require(described["version"] as? Int)
        let export = try setup.call("export", #"{"table":"t","format":"csv"}"#)
        let text = try #require(export["text"] as? String)
        let added = text.split(separator: "\n").filter { $0.contains(",w") }
        #expect(added.count == writers * addsEach && Set(added).count == added.count)

        // The subscriber heard of every change in version order, up to the last.
        var events: [[String: Any]] = []
        while (events.last?["version"] as? Int ?? 0) < final {
            events += try listener.untypedEvents(1)
        }
        EventTests.expectChained(events, from: start)

        // The log holds the changes in the order they were made: a restart gives the same table.
        _ = daemon.process.stop()
        daemon = try TestDaemon(arguments: arguments)
        let restarted = try daemon.connect().call("export", #"{"table":"t","format":"csv"}"#)
        #expect(restarted["text"] as? String == text)
        #expect(restarted["version"] as? Int == final)
    }
}
