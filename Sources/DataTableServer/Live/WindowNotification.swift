import DataTableProtocol
import Foundation

/// A `window` notification written straight into bytes: every watch sends one many times a
/// second, so it skips `JSONEncoder` (the bytes are the same, members sorted).
enum WindowNotification {
    /// `{"jsonrpc":"2.0","method":"window","params":…}` and a line break.
    static func line(_ delta: WindowDelta) -> Data {
        var writer = JSONWriter(capacity: 256)
        writer.beginNotification(method: "window")
        write(delta, to: &writer)
        writer.raw("}\n")
        return writer.data()
    }

    /// The delta as `WindowDelta`'s `Encodable` conformance writes it with sorted keys.
    static func write(_ delta: WindowDelta, to writer: inout JSONWriter) {
        writer.raw("{")
        var first = true
        func key(_ name: StaticString, _ writer: inout JSONWriter) {
            if !first { writer.comma() }
            first = false
            writer.raw("\"")
            writer.raw(name)
            writer.raw("\":")
        }
        if let added = delta.added {
            key("added", &writer)
            writer.value(.array(added))
        }
        if let changed = delta.changed {
            key("changed", &writer)
            writer.value(.array(changed))
        }
        if let pending = delta.pending {
            key("pending", &writer)
            writer.int(pending)
        }
        if let removed = delta.removed {
            key("removed", &writer)
            writer.value(.array(removed))
        }
        if let sections = delta.sections {
            key("sections", &writer)
            var members: [String: JSONValue] = [:]
            members["added"] = sections.added.map(JSONValue.array)
            members["changed"] = sections.changed.map(JSONValue.array)
            members["removed"] = sections.removed.map(JSONValue.array)
            members["set"] = sections.set.map(JSONValue.object)
            writer.value(.object(members))
        }
        key("seq", &writer)
        writer.int(delta.seq)
        if let set = delta.set {
            key("set", &writer)
            writer.value(.object(set))
        }
        key("version", &writer)
        writer.int(delta.version)
        key("watch", &writer)
        writer.int(delta.watch)
        writer.raw("}")
    }
}
