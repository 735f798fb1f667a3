import DataTableVocabulary

/// Rows parsed from a file, stored column by column, ready to join a table in one step.
public struct LoadedRows: Sendable {
    /// The columns the values were parsed for (given, or inferred from the data).
    public let columns: [Column]
    /// Per chunk of the input, in order: one store per column.
    var chunks: [[ColumnStore]]
    /// The line (1-based) each row started on, for problems found when the rows join a table.
    var lines: [Int]
    /// Inferred date columns whose values are written in a form other than ISO's, by key.
    public var dateForms: [String: DateForm] = [:]

    /// How many rows were read.
    public var count: Int { lines.count }
}

/// The formats `load` reads and `export` writes. (The vocabulary the engine shares with the wire.)
public typealias DataFormat = DataFileFormat
