/// Where the display forms of numbers, dates, times and durations are written byte by byte:
/// an export's buffer, or a ``SmallText`` that becomes a `String` with no heap allocation.
///
/// The forms are those of ``ValueSyntax`` and ``NumberText``; both build their strings from
/// these, so an export, a `get` and a `scroll` show a value the same way.
protocol DisplayBytes {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
}

extension DisplayBytes {
    /// The text's UTF-8 as it is.
    mutating func append(string: String) {
        var text = string
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// The decimal digits of `value`, with `-` in front when it is negative.
    mutating func appendInteger(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        // Digits come out last first: fill a small stack buffer from its end.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            var rest = value.magnitude
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// ``NumberText/plain(_:)``: the digits of a whole number below 10^15, else the number's
    /// `description`.
    mutating func appendPlainNumber(_ number: Double) {
        if number == number.rounded(), abs(number) < 1e15 {
            appendInteger(Int64(number))
        } else {
            var text = NumberText.positional(number.description)
            text.withUTF8 { append(contentsOf: $0) }
        }
    }

    /// ``ValueSyntax/dateText(_:)``: `YYYY-MM-DD`.
    mutating func appendDate(_ days: Int32) {
        let (year, month, day) = CivilDate.components(days: days)
        appendPadded(year, width: 4)
        append(UInt8(ascii: "-"))
        appendPadded(month, width: 2)
        append(UInt8(ascii: "-"))
        appendPadded(day, width: 2)
    }

    /// ``ValueSyntax/timeText(_:)``: `HH:MM`, and `:SS` when there are seconds.
    mutating func appendTime(_ seconds: Int32) {
        let value = Int(seconds)
        appendPadded(value / 3600, width: 2)
        append(UInt8(ascii: ":"))
        appendPadded(value / 60 % 60, width: 2)
        guard value % 60 != 0 else { return }
        append(UInt8(ascii: ":"))
        appendPadded(value % 60, width: 2)
    }

    /// ``ValueSyntax/durationText(_:)``: `1h 30m`, leaving out parts that are zero; `0m` for
    /// none.
    mutating func appendDuration(_ seconds: Int64) {
        guard seconds > 0 else {
            append(UInt8(ascii: "0"))
            append(UInt8(ascii: "m"))
            return
        }
        var first = true
        func part(_ value: Int64, _ unit: Unicode.Scalar) {
            if !first { append(UInt8(ascii: " ")) }
            first = false
            appendInteger(value)
            append(UInt8(ascii: unit))
        }
        if seconds >= 3600 { part(seconds / 3600, "h") }
        if seconds / 60 % 60 > 0 { part(seconds / 60 % 60, "m") }
        if seconds % 60 > 0 { part(seconds % 60, "s") }
    }

    /// `value` as `String(value)` with zeros in front up to `width` characters, the way the
    /// display forms pad (`-5` to width 4 is `00-5`: the zeros go before the sign).
    private mutating func appendPadded(_ value: Int, width: Int) {
        var length = value < 0 ? 2 : 1
        var rest = value.magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        for _ in length..<max(length, width) { append(UInt8(ascii: "0")) }
        appendInteger(Int64(value))
    }
}

/// Up to 32 bytes of display text kept inline, made into a `String` at the end: the display
/// forms of dates, times, durations and numbers (all shorter than that, see ``DisplayBytes``)
/// without a heap allocation for the bytes, and none for the string when it fits Swift's small
/// string (15 bytes).
struct SmallText: DisplayBytes {
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count = 0
    static let capacity = 32

    /// The longest display form: a duration of `Int64.max` seconds,
    /// `2562047788015215h 30m 7s`, is 24 bytes; a `Double`'s description at most 24; a date
    /// of an `Int32` day count 14. Bytes past the capacity are dropped, which these never need.
    mutating func append(_ byte: UInt8) {
        guard count < Self.capacity else { return }
        withUnsafeMutableBytes(of: &storage) { $0[count] = byte }
        count += 1
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { append(byte) }
    }

    var string: String {
        withUnsafeBytes(of: storage) { String(decoding: $0[..<count], as: UTF8.self) }
    }

    /// Empties it for the next text.
    mutating func removeAll() { count = 0 }

    /// Calls `body` with the bytes appended.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeBytes(of: storage) { body(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[..<count])) }
    }
}

/// What showing a column's values takes, apart from the rest of its rules: small to copy, for
/// loops that show many cells (a scroll's window).
struct DisplayFormat: Sendable {
    var decimals: Int?
    /// A picker's options.
    var options: [String]
    /// The column's style, when it has one (its numbers and dates are then built as strings).
    var style: DisplayStyle? = nil

    /// Appends ``ColumnRules/displayText(_:)`` of `value` to `sink`, building no string where
    /// the value's bytes can be written directly.
    func append(_ value: CellValue, to sink: inout some DisplayBytes) {
        if let style {
            switch value {
            case .number(let number):
                sink.append(string: ColumnRules.numberText(number, decimals: decimals, style: style))
                return
            case .date(let days):
                let (year, month, day) = CivilDate.components(days: days)
                if let text = style.date(year: year, month: month, day: day) {
                    sink.append(string: text)
                    return
                }
            case .datetime(let milliseconds):
                sink.append(string: DateTimeSyntax.text(milliseconds, zone: style.zone ?? .utc))
                return
            default: break
            }
        }
        Self.append(value, decimals: decimals, options: options, to: &sink)
    }

    /// ``append(_:to:)`` with the format's parts given apart, for a caller that keeps them
    /// where they are.
    static func append(
        _ value: CellValue,
        decimals: Int?,
        options: [String],
        to sink: inout some DisplayBytes
    ) {
        switch value {
        case .empty: break
        case .text(let text), .image(let text): sink.append(string: text)
        case .number(let number):
            if let decimals {
                let written: Void? = NumberText.withFixedBytes(number, decimals: decimals) {
                    sink.append(contentsOf: $0)
                }
                if written == nil { sink.append(string: NumberText.fixed(number, decimals: decimals)) }
            } else {
                sink.appendPlainNumber(number)
            }
        case .date(let days): sink.appendDate(days)
        case .time(let seconds): sink.appendTime(seconds)
        case .duration(let seconds): sink.appendDuration(seconds)
        case .picker(let option):
            if options.indices.contains(Int(option)) { sink.append(string: options[Int(option)]) }
        case .boolean(let value): sink.append(string: DateTimeSyntax.booleanText(value))
        case .datetime(let milliseconds): sink.append(string: DateTimeSyntax.text(milliseconds, zone: .utc))
        }
    }
}
