import CLibPQ
import DataTableServer
import Glibc

/// One libpq connection, used on one thread at a time, for what postgres-nio does not speak:
/// `COPY … TO STDOUT`, whose rows arrive as one stream of CSV instead of a message per row.
///
/// Every call blocks: run it on a thread of its own, never on the concurrency pool.
final class CopyConnection {
    private let connection: OpaquePointer

    /// Connects as `option` says; the server's settings that change how values are written
    /// (the date style, the encoding) are set to what the daemon's columns parse.
    init(_ option: SourceOption) throws(SourceError) {
        var settings: [(String, String)] = [
            ("host", option.socketDirectory ?? option.host ?? "localhost"),
            ("port", String(option.port)),
            ("user", option.user),
            ("dbname", option.database),
            ("connect_timeout", "5"),
            ("client_encoding", "UTF8"),
            ("application_name", "datatabled"),
            ("options", "-c DateStyle=ISO,YMD -c extra_float_digits=1"),
        ]
        if let password = option.password { settings.append(("password", password)) }
        let connection = Self.connect(settings)
        guard let connection else { throw .unavailable("libpq could not start a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = Self.message(PQerrorMessage(connection))
            PQfinish(connection)
            throw .unavailable(reason)
        }
        self.connection = connection
    }

    deinit { PQfinish(connection) }

    private static func connect(_ settings: [(String, String)]) -> OpaquePointer? {
        let keys = settings.map { strdup($0.0) }
        let values = settings.map { strdup($0.1) }
        defer { (keys + values).forEach { free($0) } }
        let keyPointers: [UnsafePointer<CChar>?] = keys.map { $0.map { UnsafePointer($0) } } + [nil]
        let valuePointers: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } } + [nil]
        return PQconnectdbParams(keyPointers, valuePointers, 0)
    }

    /// Runs `sql` (statements without parameters); the first column of its first row, if it
    /// returned rows.
    @discardableResult
    func execute(_ sql: String, field: String) throws(SourceError) -> String? {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK: return nil
        case PGRES_TUPLES_OK:
            guard PQntuples(result) > 0, PQnfields(result) > 0, PQgetisnull(result, 0, 0) == 0 else { return nil }
            return String(cString: PQgetvalue(result, 0, 0))
        default: throw failure(result, field: field)
        }
    }

    /// Runs `copy` (a `COPY … TO STDOUT`) and appends what it writes to `output`.
    func copyOut(_ copy: String, into output: inout [UInt8], field: String) throws(SourceError) {
        let started = PQexec(connection, copy)
        guard PQresultStatus(started) == PGRES_COPY_OUT else {
            defer { PQclear(started) }
            throw failure(started, field: field)
        }
        PQclear(started)
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let count = PQgetCopyData(connection, &buffer, 0)
            if count > 0, let buffer {
                buffer.withMemoryRebound(to: UInt8.self, capacity: Int(count)) { bytes in
                    output.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
                }
                PQfreemem(buffer)
                continue
            }
            if count == -1 { break }
            throw .unavailable(Self.message(PQerrorMessage(connection)))
        }
        // The COPY's own outcome: an error partway (a lost connection, a cancelled query)
        // arrives here.
        while let result = PQgetResult(connection) {
            defer { PQclear(result) }
            if PQresultStatus(result) != PGRES_COMMAND_OK { throw failure(result, field: field) }
        }
    }

    /// The error of `result`, classified as postgres-nio's are (``PostgresSource/sourceError(state:message:detail:column:field:)``).
    private func failure(_ result: OpaquePointer?, field: String) -> SourceError {
        guard let result, PQstatus(connection) == CONNECTION_OK else {
            return .unavailable(Self.message(PQerrorMessage(connection)))
        }
        func part(_ code: Character) -> String? {
            guard let ascii = code.asciiValue, let text = PQresultErrorField(result, Int32(ascii)) else { return nil }
            return String(cString: text)
        }
        return PostgresSource.sourceError(
            state: part("C") ?? "",
            message: part("M") ?? Self.message(PQresultErrorMessage(result)),
            detail: part("D"),
            column: part("c"),
            field: field
        )
    }

    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        let message = text.map { String(cString: $0) } ?? ""
        let trimmed = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return trimmed.isEmpty ? "the connection failed" : trimmed
    }
}
