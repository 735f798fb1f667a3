import DataTableClient
import DataTableProtocol
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// Tables are isolated from each other: long work on one never holds up the clients of another,
/// and long work on a table runs beside its own readers and writers without losing or reordering
/// anything.
@Suite(.tags(.slow)) struct IsolationTests {
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
        let loaded = try setup.send(LoadRequest(table: "big", path: csv))
        #expect(loaded.rows == 200_000, "\(loaded)")
        try setup.send(numberedTable("small", count: 100))

        let sorter = try daemon.connect()
        let scroller = try daemon.connect()
        try scroller.send(ScrollRequest(table: "small", viewport: .init(width: 80, height: 10), unit: .cell))
        // Sorting 200,000 rows by text and back by number, one after the other, in one pipeline.
        try sorter.send(
            LineConnection.line(for: SortRequest(table: "big", keys: [SortKeyParam(column: "name")]), id: 1) + "\n"
                + LineConnection.line(
                    for: SortRequest(table: "big", keys: [SortKeyParam(column: "name", descending: true)]),
                    id: 2
                ) + "\n"
        )
        // The other table's client goes on being answered while the sorts run: it completes
        // round trips before the sorts' replies come. Behind one lock for every table, not one
        // of them would come back before the first sort's reply.
        var roundTrips = 0
        while !sorter.hasInput && roundTrips < 1_000 {
            let reply = try scroller.send(ScrollRequest(table: "small", viewport: .init(y: Double(roundTrips % 50))))
            #expect(!reply.rows.isEmpty, "\(reply)")
            roundTrips += 1
        }
        #expect(roundTrips >= 5, "only \(roundTrips) scrolls were answered before the sort's reply")
        let first = try Self.reply(try sorter.readLine(timeout: .seconds(120)))
        let second = try Self.reply(try sorter.readLine(timeout: .seconds(120)))
        #expect(first.id == .integer(1) && first.result != nil, "\(first)")
        #expect(second.id == .integer(2) && second.result != nil, "\(second)")
        // The sort is whole: the first row is the greatest name.
        let top = try setup.send(GetRequest(table: "big", count: 1))
        let name = top.rows.first?.values["name"]?.stringValue
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
        try setup.send(LoadRequest(table: "t", path: csv))
        let listener = try daemon.connect()
        let start = try listener.send(SubscribeRequest(table: "t")).version

        let (writers, addsEach) = (3, 60)
        let socket = daemon.socketPath
        // A random schedule: each client sleeps a random moment between its requests (the
        // interleavings are what is tested; nothing waits on the daemon here).
        let failures = Self.together(writers + 3) { client in
            let connection = try UnixClient(path: socket)
            var random = SeededRandom(seed: UInt64(client + 1))
            func pause() { usleep(UInt32.random(in: 0..<3_000, using: &random)) }
            var lastVersion = 0
            func send<Request: DataTableRequest>(_ request: Request) throws -> Request.Response
            where Request.Response: Versioned {
                let reply = try EncodedRequest(request).send(on: connection)
                let version = reply.version
                // Each client sees the table's version only go up.
                let reads = Request.method == ExportRequest.method || Request.method == ScrollRequest.method
                guard version > lastVersion || reads else {
                    throw UnixClient.Failure(
                        description: "\(Request.method) answered version \(version) after \(lastVersion)"
                    )
                }
                lastVersion = max(lastVersion, version)
                return reply
            }
            switch client {
            case 0..<writers:
                for index in 0..<addsEach {
                    _ = try send(
                        AddRequest(
                            table: "t",
                            row: ["n": .integer(Int64(-1 - index)), "name": .string("w\(client)-\(index)")]
                        )
                    )
                    pause()
                }
            case writers:
                for round in 0..<6 {
                    let key = ["name", "qty", "n"][round % 3]
                    _ = try send(SortRequest(table: "t", keys: [SortKeyParam(column: key, descending: round % 2 == 0)]))
                    pause()
                }
            case writers + 1:
                for round in 0..<4 {
                    let reply = try send(ExportRequest(table: "t", format: .ndjson))
                    let text = reply.text ?? ""
                    let lines = text.split(separator: "\n").count
                    // An export is the table at one version: as many lines as rows then.
                    guard lines == reply.rows, lines >= startRows else {
                        throw UnixClient.Failure(description: "export \(round): \(lines) lines, \(reply.rows) rows")
                    }
                    pause()
                }
            default:
                _ = try send(ScrollRequest(table: "t", viewport: .init(width: 60, height: 20), unit: .cell))
                for round in 0..<100 {
                    let reply = try send(ScrollRequest(table: "t", viewport: .init(y: Double(round * 7))))
                    guard !reply.rows.isEmpty else {
                        throw UnixClient.Failure(description: "scroll \(round): \(reply)")
                    }
                    if round % 10 == 0 {
                        _ = try send(
                            EditRequest(
                                table: "t",
                                id: .integer(Int64(round + 1)),
                                column: "qty",
                                value: .integer(Int64(round))
                            )
                        )
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")

        // Every add is there once; nothing else came or went.
        let described = try setup.send(DescribeRequest(table: "t"))
        #expect(described.rows == startRows + writers * addsEach)
        let final = described.version
        let export = try setup.send(ExportRequest(table: "t", format: .csv))
        let text = try #require(export.text)
        let added = text.split(separator: "\n").filter { $0.contains(",w") }
        #expect(added.count == writers * addsEach && Set(added).count == added.count)

        // The subscriber heard of every change in version order, up to the last.
        var events: [TableEvent] = []
        while (events.last?.version ?? 0) < final {
            events += try listener.events(1)
        }
        EventTests.expectChained(events, from: start)

        // The log holds the changes in the order they were made: a restart gives the same table.
        _ = daemon.process.stop()
        daemon = try TestDaemon(arguments: arguments)
        let restarted = try daemon.connect().send(ExportRequest(table: "t", format: .csv))
        #expect(restarted.text == text)
        #expect(restarted.version == final)
    }

    /// A reply line, read as one.
    static func reply(_ line: String?) throws -> ReplyMessage {
        try JSONDecoder().decode(ReplyMessage.self, from: Data(try #require(line).utf8))
    }
}

/// A reply that carries the table's version.
private protocol Versioned { var version: Int { get } }

extension AddRequest.Response: Versioned {}
extension SortRequest.Response: Versioned {}
extension ExportRequest.Response: Versioned {}
extension ScrollRequest.Response: Versioned {}
extension EditRequest.Response: Versioned {}
