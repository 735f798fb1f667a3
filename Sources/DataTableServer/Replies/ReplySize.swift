import DataTableEngine
import DataTableProtocol
import Foundation

/// `--max-reply-bytes`: a reply that would pass it is refused before the work is done, from an
/// estimate of what it would hold.
extension ServerState {
    /// Refuses a reply of about `bytes` bytes when that passes `maxReplyBytes`.
    func checkReplySize(_ bytes: Int, what: String) throws(ResponseError) {
        let limit = limits.maxReplyBytes
        guard bytes > limit else { return }
        throw .limitExceeded(
            "\(what) would reply with about \(bytes / 1_000_000) MB, more than the \(limit / 1_000_000) MB "
                + "one reply may hold; ask for fewer rows at a time (or export with stream: true).",
            limit: "maxReplyBytes",
            value: limit
        )
    }

    /// Roughly the bytes a `get` of `rows` rows of `table` writes: per row its id and index, and
    /// each column shown (all, or `only`) with its key twice (value and display) and its text
    /// twice, taking the table's average cell.
    /// Costs O(columns) and allocates nothing: it runs before every `get`.
    static func estimatedGetBytes(of table: borrowing Table, rows: Int, only: [Bool]?) -> Int {
        guard rows > 0, !table.columns.isEmpty else { return 0 }
        var keys = 0
        var shown = 0
        for (index, column) in table.columns.enumerated() where only?[index] ?? true {
            keys += 2 * column.key.utf8.count + 16
            shown += 1
        }
        let averageRow = table.rowCount == 0 ? 0 : table.estimatedBytes / table.rowCount
        let averageCells = averageRow * shown / table.columns.count
        // Saturating: an estimate past Int.max is refused like any other too large.
        return rows.multipliedReportingOverflow(by: 64 + keys + 2 * averageCells).overflow
            ? .max : rows * (64 + keys + 2 * averageCells)
    }

    /// Roughly the bytes the reply to the batch member `request` holds: a `get`'s rows as
    /// ``estimatedGetBytes(of:rows:only:)`` says, anything else a little more than its line.
    func estimatedReplyBytes(to request: [String: JSONValue], line: Int, by requester: Requester) -> Int {
        guard request["method"]?.stringValue == GetRequest.method, let params = request["params"],
            let data = try? JSONEncoder().encode(params),
            let get = try? JSONDecoder().decode(GetRequest.self, from: data)
        else { return line + 256 }
        let estimate = try? read(get.table, by: requester) { table -> Int in
            // Params the get itself refuses (a negative from or count) count as no rows here.
            let from = max(0, get.from ?? 0)
            let rows = get.ids?.count ?? max(0, min(get.count ?? 100, table.rowCount - min(from, table.rowCount)))
            let only = get.columns.map { keys in table.columns.map { keys.contains($0.key) } }
            return Self.estimatedGetBytes(of: table, rows: rows, only: only)
        }
        return (estimate ?? 0).addingReportingOverflow(256).overflow ? .max : (estimate ?? 0) + 256
    }
}
