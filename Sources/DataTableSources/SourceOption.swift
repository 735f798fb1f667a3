import Foundation

/// A source as the administrator configures it: `--source NAME=URL`, the URL a PostgreSQL one
/// (`postgresql://USER@HOST:PORT/DATABASE`, or `postgresql://USER@/DATABASE?host=/run/postgresql`
/// for the server's Unix socket in that directory). A password is never in the URL: it comes
/// from `--source-password-file NAME=FILE`, a systemd credential `source-NAME`, or the password
/// file libpq reads (`PGPASSFILE`, else `~/.pgpass`).
public struct SourceOption: Sendable, Hashable {
    /// The name clients give the source.
    public var name: String
    /// The user to connect as.
    public var user: String
    /// The host name or address, for TCP; `nil` with `socketDirectory`.
    public var host: String?
    /// The port (5432 unless the URL says).
    public var port: Int
    /// The directory of the server's Unix socket, instead of TCP.
    public var socketDirectory: String?
    /// The database.
    public var database: String
    /// The password, once read from a file; `nil` when none is needed.
    public var password: String?

    /// The socket's path, for a Unix socket: libpq's `DIR/.s.PGSQL.PORT`.
    public var socketPath: String? { socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } }

    /// Reads `NAME=URL`; a URL with a password, another scheme, or no database is refused
    /// with the reason.
    public init(parsing text: String) throws(SourceOptionError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw .init("Give a source as NAME=URL, like pg=postgresql://app@localhost/stock.")
        }
        let name = String(text[..<equals])
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw .init("A source's name is letters, digits, - and _: \(name) is not.")
        }
        let url = String(text[text.index(after: equals)...])
        guard let parts = URLComponents(string: url), let scheme = parts.scheme,
            ["postgresql", "postgres"].contains(scheme)
        else {
            throw .init("The source \(name) needs a postgresql:// URL.")
        }
        if parts.password != nil {
            throw .init(
                "The source \(name)'s URL carries a password, which would show in the process list: "
                    + "put it in a file (--source-password-file \(name)=FILE) or ~/.pgpass."
            )
        }
        let database = String(parts.path.drop(while: { $0 == "/" }))
        let socket = parts.queryItems?.first(where: { $0.name == "host" })?.value
        let user = parts.user ?? parts.queryItems?.first(where: { $0.name == "user" })?.value
        guard let user, !user.isEmpty else {
            throw .init("The source \(name)'s URL names no user (postgresql://USER@HOST/DATABASE).")
        }
        guard !database.isEmpty else {
            throw .init("The source \(name)'s URL names no database (postgresql://USER@HOST/DATABASE).")
        }
        let unknown = (parts.queryItems ?? []).map(\.name).filter { !["host", "user"].contains($0) }
        guard unknown.isEmpty else {
            throw .init(
                "The source \(name)'s URL has settings the daemon does not take: \(unknown.joined(separator: ", "))."
            )
        }
        self.name = name
        self.user = user
        self.database = database
        self.port = parts.port ?? 5432
        if let socket, socket.hasPrefix("/") {
            self.socketDirectory = socket
            self.host = nil
        } else {
            self.socketDirectory = nil
            self.host = parts.host.flatMap { $0.isEmpty ? nil : $0 } ?? socket ?? "localhost"
        }
    }

    /// The password: from `file` when given, else the systemd credential `source-NAME`, else
    /// the first matching line of libpq's password file; `nil` when there is none.
    public mutating func readPassword(file: String?, environment: [String: String]) throws(SourceOptionError) {
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw .init("The password file of the source \(name), \(file), cannot be read.")
            }
            password = text.trimmingCharacters(in: .newlines)
            return
        }
        if let credentials = environment["CREDENTIALS_DIRECTORY"],
            let text = try? String(contentsOfFile: "\(credentials)/source-\(name)", encoding: .utf8)
        {
            password = text.trimmingCharacters(in: .newlines)
            return
        }
        let passfile = environment["PGPASSFILE"] ?? environment["HOME"].map { "\($0)/.pgpass" }
        if let passfile, let text = try? String(contentsOfFile: passfile, encoding: .utf8) {
            password = Self.passwordLine(in: text, for: self)
        }
    }

    /// The password of the first line of a libpq password file (`host:port:database:user:password`,
    /// `*` matching anything, `\` escaping `:` and `\`) that matches `source`.
    static func passwordLine(in text: String, for source: SourceOption) -> String? {
        let host = source.socketDirectory.map { _ in "localhost" } ?? source.host ?? "localhost"
        let wanted = [host, String(source.port), source.database, source.user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            var fields: [String] = [""]
            var escaped = false
            for character in line {
                if escaped {
                    fields[fields.count - 1].append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == ":" && fields.count < 5 {
                    fields.append("")
                } else {
                    fields[fields.count - 1].append(character)
                }
            }
            guard fields.count == 5 else { continue }
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }
}

/// Why a `--source` cannot be used, in a sentence.
public struct SourceOptionError: Error, Sendable, CustomStringConvertible {
    /// The sentence.
    public var description: String
    init(_ description: String) { self.description = description }
}
