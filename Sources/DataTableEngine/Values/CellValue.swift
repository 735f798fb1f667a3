/// One stored cell value, typed.
///
/// Dates are days since 1970-01-01, times seconds since midnight, durations whole seconds,
/// pickers the index of the chosen option: compact, and ordered by plain comparison.
public enum CellValue: Sendable, Hashable {
    /// No value (allowed unless the column is `required`).
    case empty
    /// Text, as given (a text column).
    case text(String)
    /// A number (a number column).
    case number(Double)
    /// A calendar day: days since 1970-01-01, negative before it.
    case date(days: Int32)
    /// A time of day: seconds since midnight, 0 to 86 399.
    case time(seconds: Int32)
    /// A length of time in whole seconds, 0 or more.
    case duration(seconds: Int64)
    /// The chosen option: its 0-based index in the column's ``ColumnRules/options``.
    case picker(option: Int32)
    /// A reference to an image (a name or URL), as given.
    case image(String)
    /// True or false (a boolean column).
    case boolean(Bool)
    /// An instant: milliseconds since 1970-01-01T00:00:00Z (a datetime column).
    case datetime(milliseconds: Int64)

    /// Whether this is ``empty``.
    public var isEmpty: Bool {
        if case .empty = self { return true }
        return false
    }
}

/// What a client sent for a cell, before it is parsed for the column's type.
public enum CellInput: Sendable, Hashable {
    /// No value: JSON `null`, or the column left out of a row.
    case null
    /// A JSON string: what was typed.
    case text(String)
    /// A JSON number.
    case number(Double)
    /// A JSON boolean.
    case boolean(Bool)

    /// The input as the text a person typed, kept as a draft when it is rejected.
    public var draftText: String {
        switch self {
        case .null: ""
        case .text(let text): text
        case .number(let number): NumberText.plain(number)
        case .boolean(let value): value ? "true" : "false"
        }
    }

    /// Whether this is text with at least one character (spaces count).
    var isNonEmptyText: Bool {
        if case .text(let text) = self { !text.isEmpty } else { false }
    }
}

/// Why an input is not an acceptable value for a column, in words for the person who typed it.
public struct ValidationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, one sentence for the person who typed the value.
    public var message: String

    /// A failure with `message`.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
