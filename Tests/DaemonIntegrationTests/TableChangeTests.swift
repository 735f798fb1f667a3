import DataTableClient
import DataTableProtocol
import Foundation
import Testing

/// Tables that change while people use them, over the socket: columns added, renamed, hidden in
/// one view, a deleted selection taken back, and two writers racing with `ifVersion` and
/// `ifRowVersion`.
@Suite struct TableChangeTests {
    /// A first scroll of a view in cells, `width` × `height`, with `settings` beside the unit.
    static func cellView(
        _ table: String,
        width: Double,
        height: Double,
        _ settings: LayoutSettings = LayoutSettings()
    ) -> ScrollRequest {
        var settings = settings
        settings.unit = .cell
        return ScrollRequest(table: table, viewport: .init(width: width, height: height), settings: settings)
    }

    @Test func alterRenameAndHideInOneViewThenUndoADeletedSelection() throws {
        let daemon = try TestDaemon()
        let one = try daemon.connect()
        let other = try daemon.connect()
        try one.send(numberedTable("parts", count: 4))
        let listener = try daemon.connect()
        try listener.send(SubscribeRequest(table: "parts", events: [.schema, .added, .deleted]))

        let added = try one.send(
            AlterRequest(table: "parts", add: [ColumnDefinition(key: "rack")], values: ["rack": "A1"])
        )
        #expect(added.columns == ["n", "name", "rack"])
        let renamed = try one.send(AlterRequest(table: "parts", rename: ["name": "title"]))
        #expect(renamed.altered.renamed == [["name", "title"]])
        // Hidden in one connection's view only.
        let hiding = try one.send(
            Self.cellView("parts", width: 60, height: 6, LayoutSettings(columns: ["rack": ColumnHints(hidden: true)]))
        )
        #expect(hiding.columns.map(\.key) == ["n", "title"])
        let showing = try other.send(Self.cellView("parts", width: 60, height: 6))
        #expect(showing.columns.map(\.key) == ["n", "title", "rack"])
        #expect(showing.rows.first?.cells == ["3", "row 3", "A1"])

        try one.send(SelectRequest(table: "parts", ids: [2, 3]))
        let deleted = try one.send(DeleteRequest(table: "parts", selection: true))
        #expect(deleted.deleted == 2 && deleted.rows == 2)
        let undone = try other.send(UndoRequest(table: "parts"))
        #expect(undone.restored == [2, 3] && undone.rows == 4)
        let selection = try one.send(SelectionRequest(table: "parts"))
        #expect(selection.ids == [3, 2])
        let order = try one.send(GetRequest(table: "parts")).rows
        #expect(order.map(\.id) == [4, 3, 2, 1])

        let events = try listener.events(4)
        #expect(events.map(\.kind) == [.schema, .schema, .deleted, .added])
        #expect(events[0].change == "altered" && events[0].columns == ["rack"])
        #expect(events[1].columns == ["title"])
        #expect(events[3].ids == [2, 3])
    }

    @Test func twoWritersRacingOnOneVersionOneWins() throws {
        let daemon = try TestDaemon()
        let first = try daemon.connect()
        let second = try daemon.connect()
        try first.send(numberedTable("race", count: 3))
        for round in 0..<20 {
            let version = try first.send(DescribeRequest(table: "race")).version
            // Both send before either reads: the daemon orders them, and only one finds the
            // version it was given.
            for (client, value) in [(first, "first \(round)"), (second, "second \(round)")] {
                let edit = EditRequest(table: "race", id: 1, column: "name", value: .string(value), ifVersion: version)
                try client.send(LineConnection.line(for: edit, id: 1) + "\n")
            }
            let replies = try [first, second].map { client in
                let line = try #require(try client.readLine(), "the daemon closed the connection")
                return try JSONDecoder().decode(ReplyMessage.self, from: Data(line.utf8))
            }
            let won = replies.filter { $0.result != nil }
            let lost = replies.compactMap(\.error)
            #expect(won.count == 1 && lost.count == 1)
            let refusal = try #require(lost.first)
            #expect(refusal.kind == .conflict)
            #expect(refusal.details["version"] == .integer(Int64(version + 1)))
        }
    }

    @Test func aRowVersionGuardsItsRowOnly() throws {
        let daemon = try TestDaemon()
        let one = try daemon.connect()
        let other = try daemon.connect()
        try one.send(numberedTable("rows", count: 3))
        let read = try one.send(GetRequest(table: "rows", ids: [1, 2])).rows
        try #require(read.count == 2)
        let (first, second) = (read[0].version, read[1].version)
        // Someone else changes row 2: an edit of row 1 still goes through.
        let theirs = try other.send(EditRequest(table: "rows", id: 2, column: "name", value: "theirs"))
        let mine = try one.send(EditRequest(table: "rows", id: 1, column: "name", value: "mine", ifRowVersion: first))
        #expect(mine.edited == 1)
        // An edit of row 2 as it was is refused, naming its version now, and changes nothing.
        let stale = try one.failure(
            EditRequest(
                table: "rows",
                edits: [
                    EditRequest.Change(id: 1, column: "n", value: 9),
                    EditRequest.Change(id: 2, column: "name", value: "mine", ifRowVersion: second),
                ]
            )
        )
        #expect(stale.kind == .conflict)
        #expect(stale.details["rowVersion"] == .integer(Int64(theirs.version)))
        let now = try one.send(GetRequest(table: "rows", ids: [1, 2])).rows
        try #require(now.count == 2)
        #expect(now[0].values["n"] == 0)
        #expect(now[1].values["name"] == "theirs")
        #expect(now[1].version == theirs.version)
    }

    /// An arrangement saved by one connection is restored into another's view, which scrolls
    /// with it; the other views are left as they were.
    @Test func aColumnStateSavedByNameIsRestoredIntoAnotherView() throws {
        let daemon = try TestDaemon()
        let one = try daemon.connect()
        let other = try daemon.connect()
        try one.send(numberedTable("parts", count: 3))
        let saved = try one.send(
            ColumnStateRequest(
                table: "parts",
                name: "mine",
                save: ColumnState(columns: ["n": ColumnHints(hidden: true)], columnOrder: ["name"])
            )
        )
        #expect(saved.names == ["mine"])
        let view = Self.cellView("parts", width: 40, height: 5)
        let before = try other.send(view)
        #expect(before.columns.map(\.key) == ["n", "name"])
        let restored = try other.send(ColumnStateRequest(table: "parts", name: "mine"))
        #expect(restored.state?.columnOrder == ["name"])
        let after = try other.send(view)
        #expect(after.columns.map(\.key) == ["name"])
        let unchanged = try one.send(view)
        #expect(unchanged.columns.map(\.key) == ["n", "name"])
        // Refusals name what is wrong and keep nothing.
        let unknown = try one.failure(ColumnStateRequest(table: "parts", name: "nope"))
        #expect(unknown.kind == .invalidValue)
        let badKey = try one.failure(
            ColumnStateRequest(table: "parts", name: "x", save: ColumnState(columns: ["zz": ColumnHints(hidden: true)]))
        )
        #expect(badKey.kind == .noSuchColumn)
        let deleted = try one.send(ColumnStateRequest(table: "parts", name: "mine", delete: true))
        #expect(deleted.names.isEmpty)
    }

    /// `method`'s request on the table `stale`, made only if the table is at version 1, which it
    /// is not: the error it is answered with.
    static func staleChange(_ method: String, on client: UnixClient) throws -> ResponseError {
        let table = "stale"
        switch method {
        case AddRequest.method: return try client.failure(AddRequest(table: table, row: ["n": 9], ifVersion: 1))
        case EditRequest.method:
            return try client.failure(EditRequest(table: table, id: 1, column: "name", value: "x", ifVersion: 1))
        case RevertRequest.method: return try client.failure(RevertRequest(table: table, id: 1, ifVersion: 1))
        case DeleteRequest.method: return try client.failure(DeleteRequest(table: table, ids: [1], ifVersion: 1))
        case ClearRequest.method: return try client.failure(ClearRequest(table: table, ifVersion: 1))
        case AlterRequest.method:
            return try client.failure(AlterRequest(table: table, add: [ColumnDefinition(key: "rack")], ifVersion: 1))
        case SelectRequest.method: return try client.failure(SelectRequest(table: table, ids: [1], ifVersion: 1))
        case SortRequest.method:
            return try client.failure(SortRequest(table: table, keys: [SortKeyParam(column: "name")], ifVersion: 1))
        case UndoRequest.method: return try client.failure(UndoRequest(table: table, ifVersion: 1))
        case RedoRequest.method: return try client.failure(RedoRequest(table: table, ifVersion: 1))
        case LoadRequest.method:
            return try client.failure(LoadRequest(table: table, text: "n,name\n5,five\n", ifVersion: 1))
        case ColumnStateRequest.method:
            return try client.failure(
                ColumnStateRequest(table: table, name: "mine", save: ColumnState(columnOrder: ["name"]), ifVersion: 1)
            )
        default: throw UnixClient.Failure(description: "no stale request for \(method)")
        }
    }

    /// Every method that changes a table refuses a stale `ifVersion` and changes nothing.
    @Test(arguments: [
        AddRequest.method, EditRequest.method, RevertRequest.method, DeleteRequest.method, ClearRequest.method,
        AlterRequest.method, SelectRequest.method, SortRequest.method, UndoRequest.method, RedoRequest.method,
        LoadRequest.method, ColumnStateRequest.method,
    ])
    func aStaleVersionIsRefusedByEveryChange(method: String) throws {
        let daemon = try TestDaemon()
        let client = try daemon.connect()
        try client.send(numberedTable("stale", count: 3))
        try client.send(EditRequest(table: "stale", id: 2, column: "name", value: "two"))
        try client.send(UndoRequest(table: "stale"))
        let before = try client.send(DescribeRequest(table: "stale")).version
        let refused = try Self.staleChange(method, on: client)
        #expect(refused.kind == .conflict, "\(method): \(refused)")
        #expect(refused.details["version"] == .integer(Int64(before)))
        #expect(try client.send(DescribeRequest(table: "stale")).version == before)
    }

    /// A view may show datetimes in its own zone; other views keep the column's.
    @Test func aViewShowsDatetimesInItsOwnZone() throws {
        let daemon = try TestDaemon()
        let here = try daemon.connect()
        let there = try daemon.connect()
        try here.send(
            CreateRequest(
                table: "shifts",
                columns: [
                    ColumnDefinition(key: "start", type: .datetime, format: ColumnFormat(zone: "Europe/Berlin"))
                ],
                rows: [["start": "2026-07-01T06:00:00Z"]]
            )
        )
        let view = Self.cellView("shifts", width: 40, height: 3)
        func cell(_ reply: ScrollRequest.Response) -> String? { reply.rows.first?.cells.first }
        #expect(
            cell(try here.send(Self.cellView("shifts", width: 40, height: 3, LayoutSettings(zone: "-04:00"))))
                == "2026-07-01 02:00:00"
        )
        #expect(cell(try there.send(view)) == "2026-07-01 08:00:00")
        // The view keeps its zone for later scrolls.
        #expect(cell(try here.send(view)) == "2026-07-01 02:00:00")
        let refused = try here.failure(Self.cellView("shifts", width: 40, height: 3, LayoutSettings(zone: "Mars")))
        #expect(refused.details["field"] == "params.zone")
    }

    /// Adding past a table's limit: an `added` event, then a `deleted` event naming the oldest
    /// rows that went, one version later; a lower limit set by `alter` drops at once, as its own event.
    @Test func aRollingTableSaysWhichRowsWent() throws {
        let daemon = try TestDaemon()
        let writer = try daemon.connect()
        let listener = try daemon.connect()
        try writer.send(
            CreateRequest(table: "feed", columns: [ColumnDefinition(key: "line")], rows: [["line": "a"]], limit: 2)
        )
        let start = try listener.send(SubscribeRequest(table: "feed")).version
        let added = try writer.send(AddRequest(table: "feed", rows: [["line": "b"], ["line": "c"]]))
        #expect(added.rows == 2)
        try writer.send(AlterRequest(table: "feed", limit: 1))
        let events = try listener.events(4)
        #expect(events.map(\.kind) == [.added, .deleted, .schema, .deleted])
        #expect(events[0].ids == [2, 3] && events[1].ids == [1])
        #expect(events[3].ids == [2])
        EventTests.expectChained(events, from: start)
    }
}
