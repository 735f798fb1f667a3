/// What kind of values a column holds; decides parsing, validation, display, alignment and order.
public enum ColumnType: String, Sendable, Hashable, CaseIterable, Codable {
    /// Free text (`maxLength`, `pattern`). Compared case-insensitively.
    case text
    /// A decimal number (`min`, `max`, `decimals`). Right-aligned.
    case number
    /// A calendar day, `YYYY-MM-DD` (`min`, `max`).
    case date
    /// A time of day, `HH:MM` or `HH:MM:SS` (`min`, `max`).
    case time
    /// A length of time, stored as whole seconds; accepts `PT1H30M`, `1h 30m` or seconds; shown
    /// as `1h 30m` (`min`, `max`).
    case duration
    /// One of the column's `options`.
    case picker
    /// A reference to an image (a name or URL); fixed width, never edited inline.
    case image
    /// True or false, shown as a checkbox (☑ / ☐); takes `true`/`false`, `yes`/`no`, `1`/`0`.
    case boolean
    /// An instant: ISO 8601 with an offset (`2024-03-15T14:30:00+01:00`), stored as the instant
    /// and shown in the column's zone (`format.zone`, UTC by default) (`min`, `max`).
    case datetime

    /// Whether values of this type line up on the right by default (numbers do; the Fiori data
    /// table right-aligns numeric columns).
    public var isNumeric: Bool {
        switch self {
        case .number, .duration: true
        case .text, .date, .time, .picker, .image, .boolean, .datetime: false
        }
    }
}
