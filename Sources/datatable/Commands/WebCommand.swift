import ArgumentParser
import DataTableWeb
import Foundation
import Logging

/// `datatable web`: the page in a browser, live, drawn in points from the daemon's layout.
struct Web: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a page that draws a table live in a browser, on 127.0.0.1, and print its URL.",
        discussion: """
            The page speaks to the daemon through this command's own connection, as you: the daemon's owners and \
            modes apply as they do to any of your commands. The URL carries a random token, which the page \
            exchanges for a cookie; a request without it is refused, and so is one that names the bridge by \
            another host or comes from another site's page. Ctrl-C stops it.

            datatable web stock
            """
    )
    @OptionGroup var connection: ConnectionOptions

    @Argument(help: "The table the page opens (default: the first table you may read).")
    var table: String?

    @Option(help: "The address to listen on (default 127.0.0.1; anything but loopback reaches other hosts).")
    var listen = "127.0.0.1"

    @Option(help: "The port (default: one the system chooses).")
    var port = 0

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535.") }
    }

    func run() async throws {
        let socketPath = try connection.socketPath
        if !BridgeAccess.isLoopback(listen) {
            FileHandle.standardError.write(
                Data(
                    "datatable web: listening on \(listen), beyond this host: anyone who learns the URL can use your tables as you.\n"
                        .utf8
                )
            )
        }
        var logger = Logger(label: "datatable-web")
        logger.logLevel = .warning
        let bridge = WebBridge(
            configuration: .init(address: listen, port: port, socketPath: socketPath, table: table),
            logger: logger
        )
        try await bridge.run { url in
            // Unbuffered, so a script that reads the first line gets the URL at once.
            FileHandle.standardOutput.write(Data((url + "\n").utf8))
        }
    }
}
