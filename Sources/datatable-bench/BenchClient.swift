import DataTableClient
import Foundation

/// Times requests over one connection and fails loudly on error replies.
struct BenchClient {
    let connection: LineConnection

    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// Seconds from sending `line` to reading its reply.
    func timed(_ line: String) throws -> Double {
        let start = ContinuousClock.now
        let reply = try connection.request(line)
        let elapsed = ContinuousClock.now - start
        if reply.contains(#""error":"#) {
            throw Refused(description: "the daemon refused \(line.prefix(120)): \(reply)")
        }
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// The daemon's resident memory, from `stats`.
    func residentBytes() throws -> Int {
        let reply = try connection.request(#"{"id":0,"method":"stats"}"#)
        guard let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any],
            let result = object["result"] as? [String: Any],
            let memory = result["memory"] as? [String: Any],
            let resident = memory["residentBytes"] as? Int
        else { throw Refused(description: "stats did not report memory: \(reply)") }
        return resident
    }
}
