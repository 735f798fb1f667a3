import ArgumentParser
import DataTableClient
import DataTableProtocol
import Foundation

/// `datatable`: talk to datatabled from a shell.
@main
struct DataTableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datatable",
        abstract: "Talk to datatabled.",
        version: ServerInfo.version,
        subcommands: [
            Call.self, Ping.self, Hello.self, Methods.self, Stats.self, Tables.self, Describe.self, Create.self,
            Drop.self, Chmod.self, Load.self, Attach.self, SourceCommand.self, Export.self, Add.self, Edit.self,
            Revert.self, Delete.self, Clear.self,
            Alter.self, ColumnStateCommand.self,
            Get.self,
            Select.self,
            Selection.self, Copy.self, Sort.self, Undo.self, Redo.self, Layout.self, Scroll.self, Filter.self,
            Search.self,
            Group.self, Distinct.self,
            Subscribe.self, Watch.self,
            View.self,
            Socket.self, Shell.self, Web.self,
        ]
    )
}

/// Options every subcommand shares.
struct ConnectionOptions: ParsableArguments {
    @Option(
        help: """
            The daemon's socket (default: $DATATABLED_SOCKET; else the first that answers of the user's own \
            default path and the system service's, /run/datatabled/datatabled.sock).
            """
    )
    var socket: String?

    /// The socket to talk to: `--socket`, else the first of the default places that accepts a
    /// connection. When none does, says on stderr which paths were tried and exits 2.
    var socketPath: String {
        get throws {
            if let socket { return socket }
            let paths = defaultPaths
            // One place to look: the connection made to it says why it fails, if it does.
            if paths.count == 1 { return paths[0] }
            do {
                return try SocketSearch.firstReachable(paths)
            } catch {
                Output.error(error.description)
                throw ExitCode(2)
            }
        }
    }

    /// The places tried, in order, when `--socket` is not given.
    var defaultPaths: [String] {
        SocketLocation.clientPaths(environment: ProcessInfo.processInfo.environment, uid: getuid())
    }
}

/// `datatable call`: send one request and print the reply as it came.
struct Call: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send one request and print the reply line.",
        discussion: """
            Either a whole request line: datatable call '{"method":"ping"}'
            or a method and optional params: datatable call help '{"method":"stats"}'
            Exits 1 when the daemon answers with an error, 2 when it cannot be reached.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "A JSON request (object or batch array), or a method name.")
    var request: String

    @Argument(help: "Params as a JSON object, when the first argument is a method name.")
    var params: String?

    func validate() throws {
        let trimmed = request.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("["), params != nil {
            throw ValidationError("Give params only together with a method name, not with a whole request.")
        }
    }

    func run() async throws {
        let line: String
        let trimmed = request.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") {
            guard params == nil else {
                throw ValidationError("Give params only together with a method name, not with a whole request.")
            }
            line = trimmed
        } else {
            let paramsPart = params.map { ",\"params\":\($0)" } ?? ""
            let method = String(decoding: try JSONEncoder().encode(trimmed), as: UTF8.self)
            line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\(method)\(paramsPart)}"
        }

        let path = try connection.socketPath
        let replies: [String]
        do {
            replies = try LineConnection(path: path).exchange([line])
        } catch {
            FileHandle.standardError.write(
                Data("datatable: Cannot reach datatabled at \(path): \(error).\n".utf8)
            )
            throw ExitCode(2)
        }
        var failed = false
        for reply in replies {
            print(reply)
            failed = failed || Self.isError(reply)
        }
        if failed { throw ExitCode(1) }
    }

    /// Whether a reply line (or any reply in a batch) is an error.
    static func isError(_ line: String) -> Bool {
        let data = Data(line.utf8)
        if let single = try? JSONDecoder().decode(ReplyMessage.self, from: data) {
            return single.error != nil
        }
        if let batch = try? JSONDecoder().decode([ReplyMessage].self, from: data) {
            return batch.contains { $0.error != nil }
        }
        return true
    }
}
