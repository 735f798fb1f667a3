import ArgumentParser
import DataTableProtocol
import Foundation

/// `datatable attach TABLE --source NAME (--relation R | --query SQL)`.
struct Attach: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a table of a relation (or read-only query) of one of the daemon's sources, kept current.",
        discussion: """
            The daemon's administrator names its sources (datatabled --source NAME=URL); `datatable hello` lists \
            them. Edits, adds and deletes of the table are made in the source first. Rows others change there \
            reach the table once the relation has the change trigger (datatable source trigger).

            datatable attach parts --source pg --relation public.parts
            """
    )
    @OptionGroup var common: CommonOptions
    @Argument(help: "The new table.") var table: String
    @Option(help: "The source's name.") var source: String
    @Option(help: "The relation, schema.table or table.") var relation: String?
    @Option(help: "A query run read-only (the table is read-only).") var query: String?
    @Option(help: "The key column (default: the relation's primary key).") var key: String?
    @Option(name: .customLong("column"), help: "A column to take (repeat; default: all).") var columns: [String] = []

    func validate() throws {
        guard (relation == nil) != (query == nil) else { throw ValidationError("Give --relation or --query.") }
    }

    func run() throws {
        try common.withSession { session in
            let reply = try session.send(
                AttachRequest(
                    table: table,
                    source: source,
                    relation: relation,
                    query: query,
                    key: key,
                    columns: columns.isEmpty ? nil : columns
                )
            )
            if !common.json {
                print(
                    "attached \(reply.table) to \(reply.source) (\(Output.count(reply.rows, "row")), key \(reply.key))"
                )
            }
        }
    }
}

/// `datatable source trigger RELATION --key K`: the SQL that makes a relation tell daemons of
/// its changes.
struct SourceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "source",
        abstract: "What a source's relations need for attached tables.",
        subcommands: [Trigger.self]
    )

    /// Prints the change trigger's SQL.
    struct Trigger: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the SQL of the trigger that tells daemons which rows of a relation changed.",
            discussion: """
                Run it in the database as the relation's owner, once:

                datatable source trigger public.parts --key id | psql -d stock
                """
        )
        @Argument(help: "The relation, schema.table.") var relation: String
        @Option(help: "Its key column.") var key: String

        func run() {
            print(ChangeTrigger.sql(relation: relation, key: key), terminator: "")
        }
    }
}
