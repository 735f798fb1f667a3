import Foundation
import Testing

/// Sections over the real socket, through socat: a view grouped by a column in each of the
/// HIG's three styles, with a filter on top, and rows another client adds landing in their
/// sections.
@Suite struct SectionMethodTests {
    let daemon: TestDaemon

    init() throws { daemon = try TestDaemon(arguments: ["--demo"]) }

    static func sections(_ window: [String: Any]) -> [String: Any] { window["sections"] as? [String: Any] ?? [:] }
    static func shown(_ window: [String: Any]) -> [[String: Any]] {
        sections(window)["shown"] as? [[String: Any]] ?? []
    }

    @Test func aViewGroupedByAColumnInEachStyle() throws {
        let first = try ScrollMethodTests.SocatSession(to: daemon, name: "first")
        let second = try ScrollMethodTests.SocatSession(to: daemon, name: "second")
        // 30 rows in racks A (n % 3 == 0), B, C; n from 0, newest (largest n) first.
        let rows = (0..<30).map { #"{"n":\#($0),"rack":"\#(["A", "B", "C"][$0 % 3])"}"# }.joined(separator: ",")
        _ = try first.client.call(
            "create",
            #"{"table":"bins","columns":[{"key":"n","type":"number"},{"key":"rack","type":"picker","options":["A","B","C"]}],"sort":[{"column":"n","descending":true}],"rows":[\#(rows)]}"#
        )

        // Plain, with an index: headers between the sections, titles with their counts.
        let plain = try first.client.call(
            "scroll",
            #"{"table":"bins","unit":"cell","viewport":{"width":30,"height":14},"sections":{"column":"rack","index":true}}"#
        )
        #expect(Self.sections(plain)["style"] as? String == "plain")
        #expect(Self.sections(plain)["count"] as? Int == 3)
        #expect(Self.shown(plain).map { $0["title"] as? String } == ["A", "B"])
        #expect(Self.shown(plain).map { $0["count"] as? Int } == [10, 10])
        #expect(Self.shown(plain).map { $0["y"] as? Int } == [1, 12])
        let index = Self.sections(plain)["index"] as? [[String: Any]] ?? []
        #expect(index.map { $0["title"] as? String } == ["A", "B", "C"])
        #expect(index.map { $0["y"] as? Int } == [0, 11, 22])
        let plainRows = ScrollMethodTests.rows(plain)
        #expect(plainRows.first?["cells"] as? [String] == ["27", "A"])
        #expect(plainRows.map { $0["y"] as? Int }.prefix(3) == [2, 3, 4])

        // Scrolled into A, its header sticks at the top.
        let inA = try first.client.call("scroll", #"{"table":"bins","viewport":{"y":4}}"#)
        #expect(Self.shown(inA).first?["sticky"] as? Bool == true)
        #expect(Self.shown(inA).first?["y"] as? Int == 1)

        // Grouped: sections a line apart, with footers; inset grouped: rows in from both edges.
        let grouped = try first.client.call(
            "scroll",
            #"{"table":"bins","viewport":{"y":0},"sections":{"column":"rack","style":"grouped","footers":true}}"#
        )
        #expect(Self.shown(grouped).map { $0["footerY"] as? Int }.first == 12)
        #expect(Self.shown(grouped).map { $0["y"] as? Int } == [1])
        #expect(grouped["contentHeight"] as? Int == 1 + 3 * 2 + 2 + 30)
        // layout of the view says the same; of the table, the rows alone.
        let laidOut = try first.client.call("layout", #"{"table":"bins","width":30,"unit":"cell","view":true}"#)
        #expect(laidOut["contentHeight"] as? Int == 1 + 3 * 2 + 2 + 30)
        let whole = try first.client.call("layout", #"{"table":"bins","width":30,"unit":"cell"}"#)
        #expect(whole["contentHeight"] as? Int == 1 + 30)
        let inset = try first.client.call(
            "scroll",
            #"{"table":"bins","sections":{"column":"rack","style":"insetGrouped"},"to":{"section":"C"}}"#
        )
        #expect(Self.sections(inset)["inset"] as? Int == 2)
        // C's header as near the top as the content allows (the view cannot scroll past its end).
        #expect((inset["viewport"] as? [String: Any])?["y"] as? Int == 36 - 14)
        #expect(Self.shown(inset).contains { $0["title"] as? String == "C" })
        #expect(((inset["columns"] as? [[String: Any]])?.first?["x"] as? Int ?? 0) >= 2)
        #expect(((inset["accessories"] as? [String: Any])?["left"] as? [String: Any])?["x"] as? Int == 2)

        // With a filter: sections hold only the rows it shows; another client's new rows land
        // in their sections, and only those the filter shows count as new above.
        _ = try first.client.call(
            "scroll",
            #"{"table":"bins","sections":{"column":"rack"},"to":{"section":"B"}}"#
        )
        let filtered = try first.client.call(
            "filter",
            #"{"table":"bins","where":[{"column":"n","op":">=","value":15}]}"#
        )
        #expect(filtered["shown"] as? Int == 15)
        let before = try first.client.call("scroll", #"{"table":"bins","to":{"section":"B"}}"#)
        #expect(Self.shown(before).map { $0["count"] as? Int }.first == 5)
        let anchor = try #require(ScrollMethodTests.rows(before).first)
        _ = try second.client.call(
            "add",
            #"{"table":"bins","rows":[{"n":100,"rack":"A"},{"n":101,"rack":"C"},{"n":3,"rack":"A"},{"n":102,"rack":"B"}]}"#
        )
        let after = try first.client.call("scroll", #"{"table":"bins"}"#)
        // A's 100 is above; B's 102 comes in at the top of B, just above the anchored row, in
        // view; C's 101 is below and n 3 is filtered out.
        #expect(after["newAbove"] as? Int == 1)
        let kept = ScrollMethodTests.rows(after).first { $0["id"] as? Int == anchor["id"] as? Int }
        #expect(kept?["y"] as? Int == anchor["y"] as? Int)
        #expect(Self.shown(after).first { $0["title"] as? String == "B" }?["count"] as? Int == 6)

        // Bad sections change nothing.
        for bad in [
            #"{"table":"bins","sections":{"column":"size"}}"#,
            #"{"table":"bins","sections":{"column":"rack","style":"tiled"}}"#,
            #"{"table":"bins","sections":{"column":"rack","style":"grouped","index":true}}"#,
            #"{"table":"bins","to":{"section":"Z"}}"#,
        ] {
            #expect(try first.client.call("scroll", bad)["code"] != nil, "\(bad)")
        }
        #expect(Self.sections(try first.client.call("scroll", #"{"table":"bins"}"#))["style"] as? String == "plain")
        let ended = try first.client.call("scroll", #"{"table":"bins","sections":{}}"#)
        #expect(ended["sections"] == nil)
    }
}
