import DataTableEngine
import DataTableProtocol
import Foundation

/// The budgets a change is checked against before it is made: memory, per-user memory, tables
/// and rows.
extension ServerState {
    /// Refuses a change that adds rows or tables while the daemon is over its memory budget.
    func checkMemory() throws(ResponseError) {
        let budget = limits.maxMemoryBytes
        guard budget > 0 else { return }
        let resident = memory.residentBytes
        guard resident <= budget else {
            throw .limitExceeded(
                "The daemon uses \(resident / 1_000_000) MB, over its memory budget of \(budget / 1_000_000) MB; "
                    + "drop tables or rows first.",
                limit: "maxMemoryBytes",
                value: budget
            )
        }
    }

    /// Refuses a change that would take the tables owned by `owner` past `maxMemoryPerUid`, given
    /// it adds about `bytes`. What the tables hold counts their rows, their undo and redo history
    /// (rows deleted or cleared stay in it), drafts, column states and what they keep for views;
    /// the refusal names the cap and says how much each part holds. Tables of root and of the
    /// daemon's own user have no such limit.
    func checkUserMemory(owner: UInt32, adding bytes: Int) throws(ResponseError) {
        let limit = limits.maxMemoryPerUid
        guard limit > 0, owner != 0, owner != geteuid() else { return }
        let use = tables.ledger.use(ownedBy: owner)
        let held = use.total
        guard held + bytes <= limit else {
            throw .limitExceeded(
                "The tables of user \(owner) hold about \(Self.megabytes(held)) (\(Self.parts(of: use))); this would "
                    + "take them past \(Self.megabytes(limit)), the per-user memory cap (maxMemoryPerUid). Drop tables "
                    + "or rows first.",
                limit: "maxMemoryPerUid",
                value: limit
            )
        }
    }

    /// `bytes` in megabytes for a person, one decimal below 10 MB.
    static func megabytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1_000_000
        return value < 10 ? "\((value * 10).rounded() / 10) MB" : "\(Int(value.rounded())) MB"
    }

    /// The parts of `use` that hold anything, in words: "rows 12 MB, undo history 8.1 MB".
    static func parts(of use: MemoryUse) -> String {
        let parts = [
            ("rows", use.rows), ("undo history", use.history), ("drafts", use.drafts),
            ("column states", use.columnStates), ("views", use.views),
        ]
        return parts.filter { $0.1 > 0 }.map { "\($0.0) \(megabytes($0.1))" }.joined(separator: ", ")
    }

    /// About what rows of `columns` columns add to a table, before their text is known.
    static func estimatedBytes(rows: Int, columns: Int) -> Int {
        rows * (columns * 16 + Table.bytesPerRow)
    }

    /// Memory a load takes per byte of its text, at its peak: the text, its rows as parsed, and
    /// the table they go into (a million rows × 8 columns rest at 1.9× their CSV).
    static let loadMemoryFactor = 3

    /// Refuses, before anything is read or parsed, a load of `bytes` of text that would take the
    /// daemon past its memory budget.
    func checkRoomToLoad(bytes: Int) throws(ResponseError) {
        let budget = limits.maxMemoryBytes
        guard budget > 0 else { return }
        let resident = memory.residentBytes
        let needed = bytes.multipliedReportingOverflow(by: Self.loadMemoryFactor)
        guard !needed.overflow, resident + needed.partialValue <= budget else {
            throw .limitExceeded(
                "Loading \(bytes / 1_000_000) MB of text takes about \(bytes / 1_000_000 * Self.loadMemoryFactor) MB; "
                    + "the daemon uses \(resident / 1_000_000) MB of its \(budget / 1_000_000) MB budget.",
                limit: "maxMemoryBytes",
                value: budget
            )
        }
    }

    /// The most bytes a loaded file may have once open (it may grow while it is read).
    var loadByteLimit: Int {
        let budget = limits.maxMemoryBytes
        guard budget > 0 else { return 1 << 40 }
        return max(0, budget - memory.residentBytes) / Self.loadMemoryFactor
    }

    /// Refuses a new table when the daemon holds `maxTables` (`tableCount`) already.
    func checkRoomForTable(_ tableCount: Int) throws(ResponseError) {
        guard tableCount < limits.maxTables else {
            throw .limitExceeded(
                "The daemon already holds \(limits.maxTables) tables, its limit; drop one first.",
                limit: "maxTables",
                value: limits.maxTables
            )
        }
    }

    /// Refuses a change that would leave `table` with more than `maxRows` rows.
    func checkRows(_ rows: Int, table: String) throws(ResponseError) {
        guard rows <= limits.maxRows else {
            throw .limitExceeded(
                "The table \(table) would hold \(rows) rows; a table holds at most \(limits.maxRows).",
                limit: "maxRows",
                value: limits.maxRows
            )
        }
    }
}
