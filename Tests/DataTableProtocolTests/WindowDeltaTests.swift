import DataTableProtocol
import Foundation
import TestSupport
import Testing

/// A `window` delta takes the window a client holds to the new one, whatever the two are:
/// members set and removed, rows that leave, come, move and change, cells patched by column.
@Suite struct WindowDeltaTests {
    static func window(_ rows: [(id: String, index: Int, cells: [String])], extra: [String: JSONValue] = [:])
        -> JSONValue
    {
        var members: [String: JSONValue] = [
            "columns": .array([.object(["key": .string("a")]), .object(["key": .string("b")])]),
            "rows": .array(
                rows.map { row in
                    .object([
                        "id": .string(row.id), "index": .integer(Int64(row.index)),
                        "y": .integer(Int64(row.index + 1)), "cells": .array(row.cells.map { .string($0) }),
                    ])
                }
            ),
        ]
        for (key, value) in extra { members[key] = value }
        return .object(members)
    }

    /// `window` with `delta` applied as a client reads it off the wire (encoded, then decoded).
    static func appliedOffTheWire(_ delta: WindowDelta, to window: JSONValue) throws -> JSONValue {
        var held = window
        try JSONDecoder().decode(WindowDelta.self, from: JSONEncoder().encode(delta)).apply(to: &held)
        return held
    }

    @Test func aMemberThatGoesIsRemoved() throws {
        let old = Self.window([("b33", 0, ["x", "y"])], extra: ["first": .integer(0), "last": .integer(0)])
        let new = Self.window([], extra: ["shown": .integer(0)])
        var held = old
        let delta = WindowDelta.between(old, new)
        #expect(delta.set?["first"] == .null)
        delta.apply(to: &held)
        #expect(held == new)
        // And as a client reads it off the wire.
        #expect(try Self.appliedOffTheWire(delta, to: old) == new)
    }

    @Test(arguments: 0..<200)
    func anyWindowComesFromAnyOther(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        func some() -> JSONValue {
            let ids = (0..<8).filter { _ in random.next() % 2 == 0 }.shuffled(using: &random)
            var extra: [String: JSONValue] = [:]
            if random.next() % 2 == 0 { extra["first"] = .integer(Int64(random.next() % 3)) }
            if random.next() % 2 == 0 { extra["total"] = .integer(Int64(random.next() % 3)) }
            return Self.window(
                ids.enumerated().map { place, id in
                    ("r\(id)", place, ["\(random.next() % 3)", "\(random.next() % 3)"])
                },
                extra: extra
            )
        }
        let old = some()
        let new = some()
        #expect(try Self.appliedOffTheWire(WindowDelta.between(old, new), to: old) == new)
    }

    /// Sections of a window: headers at increasing `y`, each with a count and a sum.
    static func sections(_ headers: [(title: String, count: Int, sum: Int)], total: Int?) -> JSONValue {
        var members: [String: JSONValue] = [
            "column": "status", "count": .integer(Int64(headers.count)),
            "shown": .array(
                headers.enumerated().map { place, header in
                    [
                        "title": .string(header.title), "count": .integer(Int64(header.count)),
                        "y": .integer(Int64(place * 4 + 1)), "height": 1,
                        "aggregates": [["column": "qty", "function": "sum", "value": .integer(Int64(header.sum))]],
                    ]
                }
            ),
        ]
        if let total { members["grandTotal"] = ["y": 9, "aggregates": [["value": .integer(Int64(total))]]] }
        return .object(members)
    }

    /// A new total is a change of one header's aggregates, not the whole sections again.
    @Test func aNewTotalChangesOnlyItsHeader() throws {
        let old = Self.window(
            [("r1", 0, ["x", "y"])],
            extra: ["sections": Self.sections([("Low", 2, 10), ("OK", 5, 7)], total: 17)]
        )
        let new = Self.window(
            [("r1", 0, ["x", "y"])],
            extra: ["sections": Self.sections([("Low", 2, 12), ("OK", 5, 7)], total: 19)]
        )
        let delta = WindowDelta.between(old, new)
        #expect(delta.set == nil)
        #expect(
            delta.sections?.changed == [
                ["title": "Low", "aggregates": [["column": "qty", "function": "sum", "value": 12]]]
            ]
        )
        #expect(delta.sections?.set?.keys.sorted() == ["grandTotal"])
        #expect(delta.sections?.added == nil && delta.sections?.removed == nil)
        #expect(try Self.appliedOffTheWire(delta, to: old) == new)
    }

    @Test(arguments: 0..<200)
    func anySectionsComeFromAnyOthers(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(1000 + seed))
        func some() -> JSONValue {
            let titles = ["Low", "OK", "Out", "Reorder", ""].filter { _ in random.next() % 2 == 0 }
            let headers = titles.map { ($0, Int(random.next() % 3), Int(random.next() % 3)) }
            let extra: [String: JSONValue] =
                random.next() % 5 == 0
                ? [:] : ["sections": Self.sections(headers, total: random.next() % 2 == 0 ? 3 : nil)]
            return Self.window([("r1", 0, ["x", "y"])], extra: extra)
        }
        let old = some()
        let new = some()
        #expect(try Self.appliedOffTheWire(WindowDelta.between(old, new), to: old) == new)
    }

    /// Nested groups share titles ("A" under both Low and OK): headers are kept by path, so a
    /// delta still changes them header by header.
    @Test(arguments: 0..<200)
    func nestedHeadersAreKeptByPath(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(2000 + seed))
        func some() -> JSONValue {
            var shown: [JSONValue] = []
            for outer in ["Low", "OK"] where random.next() % 4 != 0 {
                shown.append(["title": .string(outer), "path": [.string(outer)], "level": 0, "count": 3])
                for inner in ["A", "B"] where random.next() % 3 != 0 {
                    let collapsed: JSONValue? = random.next() % 3 == 0 ? true : nil
                    var header: [String: JSONValue] = [
                        "title": .string(inner), "path": [.string(outer), .string(inner)], "level": 1,
                        "count": .integer(Int64(random.next() % 3)),
                    ]
                    header["collapsed"] = collapsed
                    shown.append(.object(header))
                }
            }
            // Each at its own place, except where a nested header is pushed up under its parent's.
            for place in shown.indices {
                guard case .object(var header) = shown[place] else { continue }
                let shared =
                    place > 0 && header["level"] == 1 && shown[place - 1]["level"] == 0 && random.next() % 4 == 0
                header["y"] = .integer(Int64(shared ? place : place + 1))
                shown[place] = .object(header)
            }
            return Self.window(
                [("r1", 0, ["x", "y"])],
                extra: ["sections": ["column": "status", "columns": ["status", "rack"], "shown": .array(shown)]]
            )
        }
        let old = some()
        let new = some()
        let delta = WindowDelta.between(old, new)
        #expect(delta.set?["sections"] == nil)
        #expect(try Self.appliedOffTheWire(delta, to: old) == new)
    }
}
