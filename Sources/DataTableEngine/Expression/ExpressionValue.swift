/// The types an expression's values have. Text, image and picker columns read as text.
public enum ExpressionType: String, Sendable, Hashable {
    case number, text, boolean, date, time, datetime, duration
    /// The type of `null` alone, which takes the type of what it stands beside.
    case null

    /// The type a column of `type` reads as.
    init(_ type: ColumnType) {
        switch type {
        case .number: self = .number
        case .text, .image, .picker: self = .text
        case .boolean: self = .boolean
        case .date: self = .date
        case .time: self = .time
        case .datetime: self = .datetime
        case .duration: self = .duration
        }
    }

    /// The type of the column that stores values of this type; `nil` for `null`.
    var columnType: ColumnType? {
        switch self {
        case .number: .number
        case .text: .text
        case .boolean: .boolean
        case .date: .date
        case .time: .time
        case .datetime: .datetime
        case .duration: .duration
        case .null: nil
        }
    }

    /// Whether values of the type have an order (`<` and `min` apply).
    var isOrdered: Bool { self != .null }
}

/// One value while an expression is worked out for a row. Durations may be negative here (the
/// difference of two instants); a value the result column cannot hold is stored empty.
enum ExpressionValue: Sendable, Equatable {
    case empty
    case number(Double)
    case text(String)
    case boolean(Bool)
    /// Days since 1970-01-01.
    case date(Int32)
    /// Seconds since midnight.
    case time(Int32)
    /// Milliseconds since 1970-01-01T00:00:00Z.
    case datetime(Int64)
    /// Whole seconds.
    case duration(Int64)

    var isEmpty: Bool { self == .empty }

    /// The days a date cell holds: 0000-01-01 to 9999-12-31, the days whose ISO form can be
    /// typed back.
    static let days = CivilDate.days(year: 0, month: 1, day: 1)!...CivilDate.days(year: 9999, month: 12, day: 31)!

    /// The value as a cell of `type` stores it: empty when it does not fit (a number that is
    /// not finite, a duration below 0 or past the longest, a date or datetime outside years
    /// 0000 to 9999, text past the limit).
    func cellValue(of type: ColumnType) -> CellValue {
        switch (self, type) {
        case (.number(let number), .number): number.isFinite ? .number(number) : .empty
        case (.text(let text), .text): text.isEmpty ? .empty : .text(text)
        case (.boolean(let value), .boolean): .boolean(value)
        case (.date(let days), .date): Self.days.contains(days) ? .date(days: days) : .empty
        case (.time(let seconds), .time): (0..<86_400).contains(seconds) ? .time(seconds: seconds) : .empty
        case (.datetime(let milliseconds), .datetime):
            DateTimeSyntax.range.contains(milliseconds) ? .datetime(milliseconds: milliseconds) : .empty
        case (.duration(let seconds), .duration):
            (0...ValueSyntax.longestDuration).contains(seconds) ? .duration(seconds: seconds) : .empty
        default: .empty
        }
    }

    /// The value in its plain written form, as `&` joins it: numbers without exponent, dates
    /// `YYYY-MM-DD`, instants in ISO 8601 (UTC), durations like `1h 30m`, `true` or `false`;
    /// empty is empty text.
    var plainText: String {
        switch self {
        case .empty: ""
        case .number(let number): NumberText.plain(number)
        case .text(let text): text
        case .boolean(let value): value ? "true" : "false"
        case .date(let days): ValueSyntax.dateText(days)
        case .time(let seconds): ValueSyntax.timeText(seconds)
        case .datetime(let milliseconds): DateTimeSyntax.isoText(milliseconds)
        case .duration(let seconds):
            seconds < 0 ? "-" + ValueSyntax.durationText(-seconds) : ValueSyntax.durationText(seconds)
        }
    }

    /// Negative, zero or positive as `self` orders before, with or after `other` (both of one
    /// type, neither empty): text in the table's own text order.
    func compare(_ other: ExpressionValue) -> Int {
        func order<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a > b ? 1 : 0) }
        switch (self, other) {
        case (.number(let a), .number(let b)): return order(a, b)
        case (.text(let a), .text(let b)): return TextKey.compare(a, b)
        case (.boolean(let a), .boolean(let b)): return a == b ? 0 : (a ? 1 : -1)
        case (.date(let a), .date(let b)), (.time(let a), .time(let b)): return order(a, b)
        case (.datetime(let a), .datetime(let b)), (.duration(let a), .duration(let b)): return order(a, b)
        default: return 0
        }
    }
}

/// What an expression reads a row from: the table's column stores and the row's slot.
struct ExpressionRow {
    let stores: [ColumnStore]
    let slot: UInt32
}

/// An expression made ready to work out: called once per row, in time linear in the
/// expression's size (no loops, no recursion beyond its nesting, text bounded).
typealias ExpressionEvaluation = @Sendable (ExpressionRow) -> ExpressionValue
