/// One stored cell value, typed.
///
/// Dates are days since 1970-01-01, times seconds since midnight, durations whole seconds,
/// pickers the index of the chosen option: compact, and ordered by plain comparison.
public enum CellValue: Sendable, Hashable {
    /// No value (allowed unless the column is `required`).
    case empty
    case text(String)
    case number(Double)
    case date(days: Int32)
    case time(seconds: Int32)
    case duration(seconds: Int64)
    case picker(option: Int32)
    case image(String)

    public var isEmpty: Bool {
        if case .empty = self { return true }
        return false
    }
}

/// What a client sent for a cell, before it is parsed for the column's type.
public enum CellInput: Sendable, Hashable {
    case null
    case text(String)
    case number(Double)

    /// The input as the text a person typed, kept as a draft when it is rejected.
    public var draftText: String {
        switch self {
        case .null: ""
        case .text(let text): text
        case .number(let number): NumberText.plain(number)
        }
    }
}

/// Why an input is not an acceptable value for a column, in words for the person who typed it.
public struct ValidationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
