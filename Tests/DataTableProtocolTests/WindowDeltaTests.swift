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

    @Test func aMemberThatGoesIsRemoved() throws {
        let old = Self.window([("b33", 0, ["x", "y"])], extra: ["first": .integer(0), "last": .integer(0)])
        let new = Self.window([], extra: ["shown": .integer(0)])
        var held = old
        let delta = WindowDelta.between(old, new)
        #expect(delta.set?["first"] == .null)
        delta.apply(to: &held)
        #expect(held == new)
        // And as a client reads it off the wire.
        var decoded = old
        try JSONDecoder().decode(WindowDelta.self, from: JSONEncoder().encode(delta)).apply(to: &decoded)
        #expect(decoded == new)
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
        var held = old
        try JSONDecoder().decode(WindowDelta.self, from: JSONEncoder().encode(WindowDelta.between(old, new)))
            .apply(to: &held)
        #expect(held == new)
    }
}
