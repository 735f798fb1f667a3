import DataTableClient
import DataTableProtocol
import Foundation
import TestSupport
import Testing

/// `watch`: a client that applies each `window` notification to its copy of the window holds
/// what a fresh `scroll` of the same view returns. Five views of one table (filtered, in
/// sections, scrolled down with overscan, following the bottom, frozen now and then; with a
/// running sum and a rank, which follow each view's order) watch
/// while another connection makes random changes of every kind; after every change each
/// copy, built from the watch's reply and its deltas alone, must come to equal a fresh scroll.
@Suite(.tags(.slow)) struct WatchTests {
    /// One watching connection and the window it has built from what it was sent.
    final class Watcher {
        let client: UnixClient
        let name: String
        var id = 0
        var seq = 0
        var window: JSONValue = .null
        var frozen = false
        var deltas = 0
        /// The watch's rows carry their cells' values (`values: true`).
        let values: Bool

        init(_ client: UnixClient, name: String, values: Bool) {
            self.client = client
            self.name = name
            self.values = values
        }

        /// Sends `request` and returns its result as JSON, as it came; an error reply throws its
        /// ``ResponseError``. `window` notifications that come first are applied.
        func result<Request: DataTableRequest>(of request: Request) throws -> JSONValue {
            try client.send(LineConnection.line(for: request, id: 1) + "\n")
            while true {
                let message = try read()
                guard message["id"] != nil else { continue }
                if let error = message["error"] { throw try decoded(ResponseError.self, from: error) }
                return message["result"] ?? .null
            }
        }

        /// Sends `request` and returns its typed result; an error reply throws its
        /// ``ResponseError``. `window` notifications that come first are applied.
        @discardableResult
        func send<Request: DataTableRequest>(_ request: Request) throws -> Request.Response {
            try decoded(Request.Response.self, from: try result(of: request))
        }

        /// The next line, a `window` notification already applied.
        @discardableResult
        func read(timeout: Duration = .seconds(10)) throws -> JSONValue {
            try apply(try #require(try client.readLine(timeout: timeout), "\(name): the connection ended"))
        }

        /// Takes in a `watch` reply: the whole window, or a delta to what is held.
        func take(_ reply: WatchRequest.Response) throws {
            id = reply.watch
            if let delta = reply.delta {
                seq = delta.seq
                delta.apply(to: &window)
            } else {
                window = try #require(reply.window, "\(name): \(reply)")
            }
        }

        /// Reads notifications until the window held is `fresh`; false when it does not come to
        /// that within a few seconds.
        func converge(to fresh: JSONValue) throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(10)
            while window != fresh {
                guard ContinuousClock.now < deadline else { return false }
                guard let line = try? client.readLine(timeout: .milliseconds(200)) else { continue }
                try apply(line)
            }
            return true
        }

        /// The message on `line`; a `window` notification is applied to the window held, and
        /// must follow the one before it.
        @discardableResult
        private func apply(_ line: String) throws -> JSONValue {
            if ProcessInfo.processInfo.environment["WATCH_TRACE"] == name { print("\(name) <- \(line.prefix(600))") }
            let message = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            guard message["method"]?.stringValue == "window", let params = message["params"] else { return message }
            let delta = try JSONDecoder().decode(WindowDelta.self, from: JSONEncoder().encode(params))
            #expect(delta.watch == id)
            #expect(delta.seq == seq + 1, "\(name): delta \(delta.seq) after \(seq)")
            seq = delta.seq
            delta.apply(to: &window)
            deltas += 1
            return message
        }

        /// The view's window as `scroll` gives it now, without what a watch leaves out: the JSON
        /// as it came, to be compared member for member with the window built from the deltas.
        func fresh(_ table: String) throws -> JSONValue {
            var scroll = ScrollRequest(table: table)
            scroll.values = values
            return WindowDelta.watched(try result(of: scroll))
        }

        /// The ids of the rows held, in order.
        var rowIDs: [JSONValue] { window["rows"]?.arrayElements?.compactMap { $0["id"] } ?? [] }
    }

    /// A watch of the table `t` in cells, at the highest rate.
    static func watch(
        _ viewport: ScrollRequest.Viewport,
        overscan: Int? = nil,
        follow: FollowEdge? = nil,
        sections: ScrollRequest.Sections? = nil,
        values: Bool? = nil
    ) -> WatchRequest {
        var scroll = ScrollRequest(table: "t", viewport: viewport, overscan: overscan, follow: follow, unit: .cell)
        scroll.sections = sections
        scroll.values = values
        return WatchRequest(scroll: scroll, maxRate: 120)
    }

    static let views: [(name: String, setup: FilterRequest?, watch: WatchRequest)] = [
        ("plain", nil, watch(.init(width: 60, height: 8))),
        (
            "filtered",
            FilterRequest(
                table: "t",
                where: [.condition(column: "qty", op: .greaterOrEqualASCII, value: 40)]
            ),
            watch(.init(width: 50, height: 6), values: true)
        ),
        ("sections", nil, watch(.init(width: 60, height: 10), sections: .init(column: "grade"))),
        ("scrolled", nil, watch(.init(y: 6, width: 40, height: 5), overscan: 2, values: true)),
        ("follow", nil, watch(.init(width: 60, height: 6), follow: .bottom)),
        ("freezing", FilterRequest(table: "t", search: "a"), watch(.init(width: 60, height: 7))),
    ]

    /// `WATCH_SEED=N` runs seed N alone; `WATCH_TRACE=view` prints the changes and what that
    /// view's connection receives.
    @Test(arguments: [UInt64(2901), 2902, 2903, 2904, 2905])
    func everyWindowBuiltFromDeltasEqualsAFreshScroll(seed: UInt64) throws {
        if let only = ProcessInfo.processInfo.environment["WATCH_SEED"], UInt64(only) != seed { return }
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let grades = ["Low", "Mid", "High"]
        let rows: [JSONValue] = (0..<40).map {
            [
                "bin": .string("b\($0)"), "item": .string("item \($0)"), "qty": .integer(Int64($0 * 7 % 100)),
                "grade": .string(grades[$0 % 3]),
            ]
        }
        try writer.send(
            CreateRequest(
                table: "t",
                columns: [
                    ColumnDefinition(key: "bin"), ColumnDefinition(key: "item"),
                    ColumnDefinition(key: "qty", type: .number),
                    // Values that follow each view's order: an edit anywhere above a window
                    // changes them in it.
                    ColumnDefinition(key: "running", expression: "runningSum(qty)"),
                    ColumnDefinition(key: "place", expression: "rank()"),
                    ColumnDefinition(key: "grade", type: .picker, options: grades),
                ],
                key: "bin",
                rows: rows
            )
        )
        var watchers: [Watcher] = []
        for view in Self.views {
            let watcher = Watcher(try daemon.connect(), name: view.name, values: view.watch.scroll.values == true)
            if let setup = view.setup { try watcher.send(setup) }
            try watcher.take(try watcher.send(view.watch))
            watchers.append(watcher)
        }
        var random = SeededRandom(seed: seed)
        var frozenRows: [JSONValue] = []
        var made = 0
        for step in 0..<2000 where made < 2000 {
            // One to five changes between two looks: the deltas merge what came in between.
            var last = ""
            for _ in 0..<(1 + Int(random.next() % 5)) where made < 2000 {
                let change = Self.change(&random, step: made)
                last = Self.line(change)
                made += 1
                if ProcessInfo.processInfo.environment["WATCH_TRACE"] != nil {
                    print("change \(made): \(last)")
                }
                do {
                    try writer.send(change)
                } catch is ResponseError {
                    // Refusals are part of the mix, as they come: an undo with nothing to undo, a
                    // row deleted before, a value that does not fit (kept as a draft).
                }
            }
            for watcher in watchers {
                if watcher.name == "freezing", step % 40 == 20 || step % 40 == 39 {
                    watcher.frozen = step % 40 == 20
                    try watcher.take(
                        try watcher.send(WatchRequest(scroll: ScrollRequest(table: "t"), freeze: watcher.frozen))
                    )
                    frozenRows = watcher.rowIDs
                }
                // A scroll looks at the rows (rows added before it are no longer new to the view,
                // `newAbove`), and the watch's next window says so too: the second scroll is the
                // window the watch must come to.
                _ = try watcher.fresh("t")
                let fresh = try watcher.fresh("t")
                if watcher.frozen {
                    // The rows stay, in their order, whatever changes around them.
                    #expect(watcher.rowIDs == frozenRows, "seed \(seed) step \(step): a frozen window's rows moved")
                    continue
                }
                guard try watcher.converge(to: fresh) else {
                    let missing = Self.text(WindowDelta.between(watcher.window, fresh))
                    let place = "seed \(seed) step \(step) (\(last)), view \(watcher.name)"
                    Issue.record(
                        Comment(rawValue: "\(place): what a fresh scroll has that the window held lacks: \(missing)")
                    )
                    return
                }
            }
        }
        let deltas = watchers.map { "\($0.name) \($0.deltas)" }.joined(separator: ", ")
        print("watch, seed \(seed): \(made) changes, deltas per view: \(deltas)")
    }

    /// protocol.md's exchange of two clients (lines `A→`, `B→` and what each receives, `A←`,
    /// `B←`) runs as written against the demo table: each reply as shown (a result with the same
    /// members, or an error of the same kind), and each `window` notification shown arrives.
    @Test func theTwoClientExchangeInProtocolMdRunsAsWritten() throws {
        let lines = ProtocolExamplesTests.document.split(separator: "\n").map(String.init)
            .filter { ["A→ ", "B→ ", "A← ", "B← "].contains(String($0.prefix(3))) }
        try #require(lines.count >= 10, "protocol.md has \(lines.count) lines of the exchange")
        let daemon = try TestDaemon(arguments: ["--demo"])
        let clients = ["A": try daemon.connect(), "B": try daemon.connect()]
        var notified: [String: [String]] = ["A": [], "B": []]
        var index = 0
        while index < lines.count {
            let who = String(lines[index].prefix(1))
            let request = String(lines[index].dropFirst(3))
            try #require(lines[index].dropFirst(1).hasPrefix("→"), "protocol.md: \(lines[index])")
            index += 1
            var shown: [(who: String, line: String)] = []
            while index < lines.count, lines[index].dropFirst(1).hasPrefix("←") {
                shown.append((String(lines[index].prefix(1)), String(lines[index].dropFirst(3))))
                index += 1
            }
            let client = try #require(clients[who])
            try client.send(request + "\n")
            var reply: String?
            while reply == nil {
                let line = try #require(try client.readLine(timeout: .seconds(10)), "\(request): no reply")
                if line.hasPrefix(#"{"jsonrpc":"2.0","method""#) { notified[who]!.append(line) } else { reply = line }
            }
            for (listener, line) in shown {
                if line.hasPrefix(#"{"jsonrpc":"2.0","method""#) {
                    // A notification comes when its delta is due: wait for it (a few seconds at most).
                    let deadline = ContinuousClock.now + .seconds(10)
                    while notified[listener]!.isEmpty, ContinuousClock.now < deadline {
                        if let line = try? clients[listener]!.readLine(timeout: .milliseconds(100)) {
                            notified[listener]!.append(line)
                        }
                    }
                    #expect(!notified[listener]!.isEmpty, "\(request): no notification for \(listener)")
                    if !notified[listener]!.isEmpty { notified[listener]!.removeFirst() }
                } else {
                    let expected = ProtocolExamplesTests.Outcome(line)
                    let actual = ProtocolExamplesTests.Outcome(reply!)
                    #expect(
                        expected.admits(actual),
                        "\(request)\n  shown: \(expected)\n  got:   \(actual)\n  \(reply!)"
                    )
                }
            }
        }
    }

    static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "?"
    }

    /// `request` as it goes on the wire, for messages and traces.
    static func line(_ request: some DataTableRequest) -> String {
        (try? LineConnection.line(for: request, id: 1)) ?? "\(request)"
    }

    /// One random change of every kind the table takes.
    static func change(_ random: inout SeededRandom, step: Int) -> any DataTableRequest {
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        func number() -> JSONValue { .integer(Int64(random.next() % 100)) }
        let bin = JSONValue.string("b\(random.next() % 60)")
        func row() -> JSONValue {
            // In this order: the item, the quantity, the grade.
            let item = JSONValue.string("\(pick(["a", "bb", "c"]))\(step)")
            let qty = number()
            return ["bin": bin, "item": item, "qty": qty, "grade": .string(pick(["Low", "Mid", "High"]))]
        }
        switch random.next() % 16 {
        case 0, 1, 2: return AddRequest(table: "t", rows: [row()])
        case 3:
            let rows = [row(), row()]
            return AddRequest(table: "t", rows: rows, upsert: true)
        case 4, 5, 6:
            let column = pick(["qty", "item", "grade"])
            let values: [JSONValue] = [.string("a\(step)"), number(), "High"]
            return EditRequest(table: "t", id: bin, column: column, value: pick(values))
        case 7, 8: return DeleteRequest(table: "t", ids: [bin])
        case 9: return UndoRequest(table: "t")
        case 10: return RedoRequest(table: "t")
        case 11:
            guard random.next() % 3 != 0 else { return SortRequest(table: "t", keys: []) }
            let column = pick(["qty", "item"])
            return SortRequest(table: "t", keys: [SortKeyParam(column: column, descending: random.next() % 2 == 0)])
        case 12: return SelectRequest(table: "t", action: .toggle, ids: [bin])
        case 13:
            return random.next() % 2 == 0
                ? AlterRequest(table: "t", add: [ColumnDefinition(key: "x\(step)")], values: ["x\(step)": "v"])
                : AlterRequest(table: "t", drop: ["x\(step - 1)"])
        case 14:
            let lines = (0..<(10 + random.next() % 20)).map { "b\($0 * 2),r\(step),\(random.next() % 100),Mid" }
            return LoadRequest(
                table: "t",
                text: "bin,item,qty,grade\n" + lines.joined(separator: "\n") + "\n",
                replace: true
            )
        default: return EditRequest(table: "t", id: bin, column: "qty", value: number())
        }
    }
}
