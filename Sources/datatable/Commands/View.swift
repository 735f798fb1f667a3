import ArgumentParser
import DataTableProtocol
import Foundation

/// `datatable view TABLE`: the interactive terminal viewer.
struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Browse a table full-screen: scroll, select, edit, add, sort; live as others change it.",
        discussion: """
            Arrows, PgUp/PgDn, Home/End move; space selects the row, a selects all (or none);
            e edits the cell under the cursor, + adds a row, s sorts by the column (again: the
            other way, then not at all); q quits. Narrower than 60 columns it shows the list report.
            """
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
