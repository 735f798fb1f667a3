import ArgumentParser
import DataTableClient
import DataTableProtocol
import Foundation

/// `datatable ping`.
struct Ping: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check that the daemon answers.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.withSession { session in
            try session.send(PingRequest())
            if !common.json { print("pong") }
        }
    }
}

/// `datatable hello`.
struct Hello: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The daemon's version, protocol, limits and features.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.withSession { session in
            let reply = try session.send(HelloRequest(client: "datatable"))
            guard !common.json else { return }
            print("\(reply.server) \(reply.version), protocol \(reply.protocol)")
            let limits = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(reply.limits))
            for (name, value) in (limits.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                print("  \(name): \(value.text)")
            }
            print("  features: \(reply.features.joined(separator: ", "))")
        }
    }
}

/// `datatable methods` (the daemon's `help`).
struct Methods: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The daemon's methods, one line each (its help).")
    @OptionGroup var common: CommonOptions
    @Argument(help: "Describe only this method.") var method: String?

    func run() throws {
        try common.withSession { session in
            let reply = try session.send(HelpRequest(method: method))
            guard !common.json else { return }
            Self.print(reply)
        }
    }

    /// The methods as a table; one method with its params.
    static func print(_ reply: HelpRequest.Response) {
        var table = TextTable(["method", "what it does"])
        for method in reply.methods { table.add([method.name, method.summary]) }
        if let one = reply.methods.first, reply.methods.count == 1, let params = one.params {
            table.print()
            Swift.print("")
            table = TextTable(["param", "type", "", "meaning"])
            for param in params {
                // A string of a fixed set of names: the names.
                let type = param.values.map { "\(param.type): \($0.joined(separator: ", "))" } ?? param.type
                table.add([param.name, type, param.required ? "required" : "optional", param.meaning ?? ""])
            }
            if params.isEmpty { table.add(["(none)", "", "", ""]) }
        }
        table.print()
    }
}

/// `datatable stats`.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Uptime, connections, requests, tables, rows, memory.")
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.withSession { session in
            let reply = try session.sendForJSON(StatsRequest())
            guard !common.json else { return }
            Self.printMembers(reply, indent: "")
        }
    }

    /// Nested members as indented `name: value` lines.
    static func printMembers(_ value: JSONValue, indent: String) {
        for (name, member) in (value.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            if member.objectValue != nil {
                print("\(indent)\(name):")
                printMembers(member, indent: indent + "  ")
            } else {
                print("\(indent)\(name): \(member.text)")
            }
        }
    }
}

/// `datatable socket`: where the daemon's socket is, found the way the daemon finds it.
struct Socket: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: """
            Print the path of the daemon's socket (--socket, else $DATATABLED_SOCKET, else the first default \
            place that answers, else where a daemon started now would listen).
            """,
        discussion: "SOCK=$(datatable socket)"
    )
    @OptionGroup var connection: ConnectionOptions

    func run() {
        // With no daemon answering, the place a daemon started now would listen.
        let paths = connection.socket.map { [$0] } ?? connection.defaultPaths
        print((try? SocketSearch.firstReachable(paths)) ?? paths[0])
    }
}
