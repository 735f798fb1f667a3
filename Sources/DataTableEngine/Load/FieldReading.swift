import Foundation

/// How a loader reads one column's fields: straight from their bytes into the column's store, in
/// the forms that are read the same way whatever else the column's rules say, or through
/// ``ColumnRules/parse(_:)`` with a string for everything else.
///
/// Each direct reading gives exactly what the general one would for the bytes it takes, and
/// declines anything it is not sure of (`nil`), which then goes the general way.
enum FieldReading: Sendable {
    /// Text without a length, pattern or bounds: any field that starts with a visible ASCII
    /// character is the value as written.
    case text
    /// A number column without a display style or bounds: a number in the one form
    /// ``NumberText/isWrittenExactly(_:)`` accepts, with no more decimals than the column allows.
    case number(decimals: Int?)
    /// A date column without a display style or bounds: `YYYY-MM-DD`, a day of the calendar.
    case isoDate
    /// A duration column without bounds: a duration written as the column shows it (`1h 30m`),
    /// and when `seconds`, a whole number of seconds too (`5400`), which the general reading
    /// takes to the same value but an inferred column would not write back as it came.
    case duration(seconds: Bool)
    /// Every field goes through the column's rules.
    case general

    /// The reading for a column of `rules`; `inferred` when the column's type was inferred
    /// from the values, which must then each be in the form the column writes back.
    init(_ rules: ColumnRules, inferred: Bool) {
        guard rules.minimum == nil, rules.maximum == nil else {
            self = .general
            return
        }
        switch rules.type {
        case .text where rules.maxLength == nil && rules.pattern == nil: self = .text
        case .number where rules.style == nil: self = .number(decimals: rules.decimals)
        case .date where rules.style == nil: self = .isoDate
        case .duration: self = .duration(seconds: !inferred)
        default: self = .general
        }
    }
}

/// Values read from a field's UTF-8 bytes without a string in between.
enum FieldBytes {
    /// The number `bytes` write when they are in the form ``NumberText/isWrittenExactly(_:)``
    /// accepts (`-?(0|[1-9][0-9]*)(\.[0-9]+)?`, at most 15 significant digits, not a negative
    /// zero), with its decimal places; `nil` for any other text.
    ///
    /// The digits make an integer below 10^15, exact in a double, and dividing it by an exact
    /// power of ten (10^22 at most) rounds once, to the same double as reading the text does.
    static func exactNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> (value: Double, places: Int)? {
        let count = bytes.count
        var index = 0
        let negative = count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        let wholeStart = index
        var mantissa: UInt64 = 0
        var significant = 0
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            if mantissa != 0 { significant += 1 }
            index += 1
        }
        let wholeDigits = index - wholeStart
        // One whole digit at least, and no leading zero before another digit.
        guard wholeDigits > 0, wholeDigits == 1 || bytes[wholeStart] != UInt8(ascii: "0") else { return nil }
        var places = 0
        if index < count {
            guard bytes[index] == UInt8(ascii: ".") else { return nil }
            index += 1
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if mantissa != 0 { significant += 1 }
                places += 1
                index += 1
            }
            guard places > 0 else { return nil }
        }
        guard significant <= 15, places < powersOfTen.count else { return nil }
        if negative && mantissa == 0 { return nil }
        let magnitude = Double(mantissa) / powersOfTen[places]
        return (negative ? -magnitude : magnitude, places)
    }

    /// Whether `bytes` (valid UTF-8) start with a visible ASCII character or with a character
    /// beyond ASCII that is not whitespace: a text that is not blank, which a text column
    /// keeps as written whatever its `required`.
    static func startsVisible(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        if first < 0x80 { return first > 0x20 && first < 0x7F }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return false }
        return !scalar.properties.isWhitespace
    }

    /// The day `bytes` name when they are exactly `DDDD-DD-DD`, a day of the calendar.
    static func isoDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        return CivilDate.days(year: year, month: month, day: day)
    }

    /// The seconds `bytes` write when they are a duration exactly as a duration column shows it
    /// (``ValueSyntax/durationText(_:)``: `1h 30m`, `45s`, `0m`); `nil` for any other text.
    /// Those are the texts the general reading takes to the same seconds and writes back as
    /// they came.
    static func duration(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        shownDuration(bytes)
    }

    /// ``duration(_:)``, or whole seconds: 1 to 16 ASCII digits (`5400`), as the general
    /// reading takes them, within the longest duration.
    static func durationOrSeconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !bytes.isEmpty, bytes.count <= 16, bytes.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else {
            return shownDuration(bytes)
        }
        let seconds = bytes.reduce(Int64(0)) { $0 &* 10 &+ Int64($1 &- UInt8(ascii: "0")) }
        return seconds <= ValueSyntax.longestDuration ? seconds : nil
    }

    private static func shownDuration(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard bytes.count >= 2, bytes.count <= SmallText.capacity else { return nil }
        var total: Int64 = 0
        var index = 0
        while true {
            var value: Int64 = 0
            let start = index
            while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                value = value &* 10 &+ Int64(digit)
                index += 1
            }
            // At most 16 digits: no overflow before the check below.
            guard index > start, index - start <= 16, index < bytes.count else { return nil }
            let unit: Int64
            switch bytes[index] {
            case UInt8(ascii: "h"): unit = 3600
            case UInt8(ascii: "m"): unit = 60
            case UInt8(ascii: "s"): unit = 1
            default: return nil
            }
            let (seconds, overflow) = value.multipliedReportingOverflow(by: unit)
            guard !overflow, seconds <= ValueSyntax.longestDuration - total else { return nil }
            total += seconds
            index += 1
            if index == bytes.count { break }
            guard bytes[index] == UInt8(ascii: " ") else { return nil }
            index += 1
        }
        var shown = SmallText()
        shown.appendDuration(total)
        let same = shown.withBytes {
            $0.count == bytes.count && memcmp($0.baseAddress!, bytes.baseAddress!, $0.count) == 0
        }
        return same ? total : nil
    }

    /// 10^0 to 10^22, each exact in a double.
    private static let powersOfTen: [Double] = {
        var powers: [Double] = [1]
        for _ in 1...22 { powers.append(powers[powers.count - 1] * 10) }
        return powers
    }()
}
