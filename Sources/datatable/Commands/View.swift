import ArgumentParser
import DataTableProtocol
import Foundation

/// `datatable view TABLE`: the interactive terminal viewer.
struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Browse a table full-screen: scroll, select, edit, add, sort; live as others change it.",
        discussion: """
            Narrower than 60 columns it shows the list report. The keys (? lists them in the viewer):

            """
                + Viewer.keys.map { "  \($0.key.padding(toLength: 11, withPad: " ", startingAt: 0))\($0.does)" }
                .joined(separator: "\n")
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The table.", completion: .custom(Completions.tables)) var table: String

    func run() throws {
        // Reach the daemon (and find the table) before taking over the screen.
        try common.withSession { session in try session.send(DescribeRequest(table: table)) }
        let terminal: Terminal
        do {
            terminal = try Terminal()
        } catch {
            Output.error("The viewer needs a terminal (standard input is not one).")
            throw ExitCode(64)
        }
        defer { terminal.close() }
        try common.withSession { _ in
            try Viewer(table: table, socketPath: try common.socketPath, terminal: terminal).run()
        }
    }
}
