import Foundation
import Testing

extension UnixClient {
    /// Sends `method` with `params` (JSON text) and returns the reply: its `result`, or its
    /// `error` object. Notifications that arrive first are skipped.
    @discardableResult
    func call(_ method: String, _ params: String = "{}") throws -> [String: Any] {
        try send(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"# + "\n")
        while true {
            let reply = try object(try readLine())
            guard reply["id"] != nil else { continue }
            return reply["result"] as? [String: Any] ?? reply["error"] as? [String: Any] ?? [:]
        }
    }

    /// The `params` of the next `count` `event` notifications (replies in between are skipped).
    func events(_ count: Int, timeout: Duration = .seconds(10)) throws -> [[String: Any]] {
        var events: [[String: Any]] = []
        while events.count < count {
            let line = try object(try readLine(timeout: timeout))
            if line["method"] as? String == "event", let params = line["params"] as? [String: Any] {
                events.append(params)
            }
        }
        return events
    }
}

/// `error.data` of an error object returned by ``UnixClient/call(_:_:)``.
func errorData(_ error: [String: Any]) -> [String: Any] { error["data"] as? [String: Any] ?? [:] }

/// JSON text for a table `name` of `count` rows, `n` = 0 ..< count and `name` = "row N",
/// sorted by `n` descending (the newest on top).
func numberedTable(_ name: String, count: Int) -> String {
    let rows = (0..<count).map { #"{"n":\#($0),"name":"row \#($0)"}"# }.joined(separator: ",")
    return #"""
        {"table":"\#(name)","columns":[{"key":"n","type":"number"},{"key":"name"}],\#
        "sort":[{"column":"n","descending":true}],"rows":[\#(rows)]}
        """#
}
