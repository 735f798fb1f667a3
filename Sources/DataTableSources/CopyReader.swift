import DataTableEngine
import DataTableServer
import Foundation
import Synchronization

/// Reads every row of an attached table's shape as CSV with `COPY … TO STDOUT`: a relation of
/// many pages in pieces of its pages (ranges of `ctid`), each on a connection and a thread of
/// its own, all in one snapshot, so that PostgreSQL writes them on every core; a query, or a
/// small or partitioned relation, in one piece.
///
/// The pieces share the snapshot the first one exports (`pg_export_snapshot`), so together
/// they are the relation at one moment, as one `COPY` would be.
enum CopyReader {
    /// Pages (8 kB each, by default) per piece at least: a smaller relation is read in one.
    static let piecePages = 1024
    /// The most connections one read opens.
    static let mostPieces = 4

    /// ``read(_:through:)`` on a thread of its own, for a task to wait for.
    /// The text is checked to be UTF-8, as the loader needs (a database of encoding
    /// `SQL_ASCII` sends its bytes unconverted).
    static func readOnThread(_ shape: SourceRows.Shape, through option: SourceOption) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            _ = JoinableThread {
                continuation.resume(
                    with: Result { () throws(SourceError) -> [UInt8] in
                        let csv = try read(shape, through: option)
                        guard UTF8Check.isValid(csv) else {
                            throw .invalid(
                                "The rows of \(shape.relation ?? "the query") are not UTF-8 text "
                                    + "(is the database's encoding SQL_ASCII?).",
                                field: shape.relation == nil ? "params.query" : "params.relation"
                            )
                        }
                        return csv
                    }
                )
            }
        }
    }

    /// The CSV of `shape` read through `option`: a header of the columns' names, then the
    /// rows. Blocks until it is read; call it on a thread of its own.
    static func read(_ shape: SourceRows.Shape, through option: SourceOption) throws(SourceError) -> [UInt8] {
        let field = shape.relation == nil ? "params.query" : "params.relation"
        var csv = Array(
            shape.columns.map { PostgresSource.csvField(Array($0.name.utf8)) }.joined(separator: [UInt8(ascii: ",")])
        )
        csv.append(UInt8(ascii: "\n"))
        let select = shape.columns.map {
            PostgresTypes.copyExpression($0, identifier: PostgresSource.quoted($0.name))
        }.joined(separator: ", ")

        let first = try CopyConnection(option)
        guard let relation = shape.relation else {
            try first.execute("BEGIN READ ONLY", field: field)
            try first.copyOut(
                "COPY (SELECT \(select) FROM (\(shape.query ?? "")) AS attached) TO STDOUT (FORMAT csv)",
                into: &csv,
                field: field
            )
            try first.execute("COMMIT", field: field)
            return csv
        }
        let from = PostgresSource.quotedRelation(relation)
        try first.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", field: field)
        let pages = try splittablePages(of: relation, on: first, field: field)
        let count = pages.map { min(mostPieces, ProcessInfo.processInfo.activeProcessorCount, $0 / piecePages) } ?? 1
        guard count > 1, let pages else {
            try first.copyOut("COPY (SELECT \(select) FROM \(from)) TO STDOUT (FORMAT csv)", into: &csv, field: field)
            try first.execute("COMMIT", field: field)
            return csv
        }
        let snapshot = try first.execute("SELECT pg_export_snapshot()", field: field) ?? ""
        // Piece i holds the pages [bounds[i], bounds[i + 1]); the last has no upper bound, so
        // it also holds pages added since the size was read (which the snapshot does not see).
        let bounds = (0..<count).map { $0 * pages / count }
        let copies = (0..<count).map { piece in
            var condition = "ctid >= '(\(bounds[piece]),0)'::tid"
            if piece + 1 < count { condition += " AND ctid < '(\(bounds[piece + 1]),0)'::tid" }
            return "COPY (SELECT \(select) FROM \(from) WHERE \(condition)) TO STDOUT (FORMAT csv)"
        }
        let others = Mutex<[Int: Result<[UInt8], SourceError>]>([:])
        let threads = (1..<count).map { piece in
            let thread = JoinableThread {
                let result = Result { () throws(SourceError) -> [UInt8] in
                    let connection = try CopyConnection(option)
                    try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", field: field)
                    try connection.execute("SET TRANSACTION SNAPSHOT '\(snapshot)'", field: field)
                    var bytes: [UInt8] = []
                    try connection.copyOut(copies[piece], into: &bytes, field: field)
                    try connection.execute("COMMIT", field: field)
                    return bytes
                }
                others.withLock { $0[piece] = result }
            }
            return thread
        }
        // The exporting transaction stays open until the others have taken its snapshot; it
        // reads the first piece meanwhile.
        let firstPiece = Result { () throws(SourceError) -> [UInt8] in
            var bytes: [UInt8] = []
            try first.copyOut(copies[0], into: &bytes, field: field)
            return bytes
        }
        threads.forEach { $0.join() }
        _ = try? first.execute("COMMIT", field: field)
        csv.append(contentsOf: try firstPiece.get())
        let results = others.withLock { $0 }
        for piece in 1..<count {
            guard let result = results[piece] else { throw .unavailable("a piece of the rows was not read") }
            csv.append(contentsOf: try result.get())
        }
        return csv
    }

    /// The pages of `relation` when it can be read in pieces of `ctid` (a plain table, on a
    /// server that scans ranges of it: PostgreSQL 14 or later); `nil` otherwise.
    private static func splittablePages(
        of relation: String,
        on connection: CopyConnection,
        field: String
    ) throws(SourceError) -> Int? {
        let literal = "'" + PostgresSource.quotedRelation(relation).replacingOccurrences(of: "'", with: "''") + "'"
        let answer = try connection.execute(
            """
            SELECT CASE WHEN c.relkind = 'r' AND current_setting('server_version_num')::int >= 140000
                        THEN pg_relation_size(c.oid) / current_setting('block_size')::int END
            FROM pg_class c WHERE c.oid = to_regclass(\(literal))
            """,
            field: field
        )
        return answer.flatMap { Int($0) }
    }
}

/// A thread that runs one body and can be waited for.
private final class JoinableThread: Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        let done = self.done
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
    }

    /// Waits until the body has returned.
    func join() { done.wait() }
}
