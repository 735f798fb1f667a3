import DataTableProtocol
import Foundation
import Testing

/// `datatable` for scripts: listings as CSV or TSV with nothing else on stdout, plain rules when
/// stdout is not a terminal, negative numbers as values, and usage errors with the subcommand's
/// own usage.
@Suite struct CommandLineOutputTests {
    /// stdout alone (stderr dropped), and the exit status.
    static func stdout(_ arguments: [String], socket: String) throws -> (status: Int32, output: String) {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " "
        )
        return try run("/bin/sh", ["-c", "'\(BuiltProducts.client)' \(quoted) --socket '\(socket)' 2>/dev/null"])
    }

    @Test func listingsComeAsCSVOrTSVWithNothingElseOnStdout() throws {
        let daemon = try TestDaemon(arguments: ["--demo"])
        let csv = try Self.stdout(
            ["get", "stock", "--count", "2", "--column", "item", "--column", "qty", "--csv"],
            socket: daemon.socketPath
        )
        #expect(csv.status == 0)
        #expect(
            csv.output == "id,#,Item,Qty\n5,0,Servo Motor SM-400,3\n8,1,Copper Pipe 15 mm × 3 m,120\n",
            "\(csv.output)"
        )
        let tsv = try Self.stdout(["tables", "--tsv"], socket: daemon.socketPath)
        #expect(tsv.output.hasPrefix("table\trows\tcolumns\t"), "\(tsv.output)")
        #expect(tsv.output.split(separator: "\n").count == 2)
        let aligned = try Self.stdout(["tables"], socket: daemon.socketPath)
        #expect(aligned.output.split(separator: "\n")[1].allSatisfy { $0 == "-" || $0 == " " }, "\(aligned.output)")
        #expect(!aligned.output.contains("─"))
    }

    @Test func aNegativeNumberIsAValueAndAMisspeltOptionIsAUsageError() throws {
        let daemon = try TestDaemon()
        try daemon.connect().send(
            CreateRequest(table: "t", columns: [ColumnDefinition(key: "n", type: .number)], rows: [["n": 1]])
        )
        let edited = try run(BuiltProducts.client, ["edit", "t", "1", "n", "-5", "--socket", daemon.socketPath])
        #expect(edited.status == 0, "\(edited.output)")
        let row = try daemon.connect().send(GetRequest(table: "t")).rows.first
        #expect(row?.values["n"] == -5)

        let misspelt = try run(
            BuiltProducts.client,
            ["edit", "t", "1", "n", "7", "--jsn", "--socket", daemon.socketPath]
        )
        #expect(misspelt.status == 64)
        #expect(misspelt.output.contains("Unknown option --jsn."), "\(misspelt.output)")
        #expect(misspelt.output.contains("Usage: datatable edit "), "\(misspelt.output)")
        let sideways = try run(BuiltProducts.client, ["sort", "t", "n:sideways", "--socket", daemon.socketPath])
        #expect(sideways.status == 64)
        #expect(sideways.output.contains("Usage: datatable sort "), "\(sideways.output)")
    }
}
