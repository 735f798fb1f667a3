/// The written forms of dates a load recognises besides ISO's `YYYY-MM-DD`: a column whose
/// every value is written in one of them, zero-padded, becomes a date column shown (and typed)
/// in that form, by the locale whose form it is.
public enum DateForm: String, Sendable, CaseIterable {
    /// `2012/01/31`, as ja-JP and zh-CN write dates.
    case yearMonthDaySlashes = "YYYY/MM/DD"
    /// `31.01.2012`, as de-DE writes them.
    case dayMonthYearDots = "DD.MM.YYYY"
    /// `31/01/2012`, as en-GB, fr-FR, es-ES and it-IT write them.
    case dayMonthYearSlashes = "DD/MM/YYYY"
    /// `01/31/2012`, as en-US writes them.
    case monthDayYearSlashes = "MM/DD/YYYY"

    /// The locale a column in this form is shown in.
    var locale: DisplayLocale {
        switch self {
        case .yearMonthDaySlashes: .jaJP
        case .dayMonthYearDots: .deDE
        case .dayMonthYearSlashes: .enGB
        case .monthDayYearSlashes: .enUS
        }
    }

    /// The form every one of `values` is written in, or `nil` for none (or a mix). Day first
    /// and month first are told apart by a value whose day is past 12; when none is, `locale`
    /// (a load's) decides, and without one the values stay text.
    static func common(to values: [String], locale: DisplayLocale?) -> DateForm? {
        guard !values.isEmpty else { return nil }
        var candidates = Set(allCases)
        for value in values {
            guard let parts = parts(of: value) else { return nil }
            candidates = candidates.filter { $0.fits(parts) }
            if candidates.isEmpty { return nil }
        }
        if candidates.count == 1 { return candidates.first }
        // Only 01/02/2024 and the like are left: both orders fit every value.
        guard let order = locale?.dateOrder else { return nil }
        return candidates.first { $0.locale.dateOrder == order && $0.locale.dateSeparator == "/" }
    }

    /// `value` cut into its three numbers and separator, when it is digits in the shape
    /// `NN?NN?NNNN` or `NNNN?NN?NN`.
    private static func parts(of value: String) -> (
        first: Int, second: Int, third: Int, widths: [Int], separator: UInt8
    )? {
        let bytes = Array(value.utf8)
        guard bytes.count == 10 else { return nil }
        let separator: UInt8
        let widths: [Int]
        if bytes[4] == bytes[7], bytes[4] == UInt8(ascii: "/") {
            separator = bytes[4]
            widths = [4, 2, 2]
        } else if bytes[2] == bytes[5], bytes[2] == UInt8(ascii: "/") || bytes[2] == UInt8(ascii: ".") {
            separator = bytes[2]
            widths = [2, 2, 4]
        } else {
            return nil
        }
        var numbers: [Int] = []
        var position = 0
        for width in widths {
            var number = 0
            for byte in bytes[position..<position + width] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                number = number * 10 + Int(byte - UInt8(ascii: "0"))
            }
            numbers.append(number)
            position += width + 1
        }
        return (numbers[0], numbers[1], numbers[2], widths, separator)
    }

    /// Whether values cut into `parts` are days of the calendar written in this form.
    private func fits(_ parts: (first: Int, second: Int, third: Int, widths: [Int], separator: UInt8)) -> Bool {
        let yearFirst = self == .yearMonthDaySlashes
        let separator = self == .dayMonthYearDots ? UInt8(ascii: ".") : UInt8(ascii: "/")
        guard parts.widths[0] == (yearFirst ? 4 : 2), parts.separator == separator else { return false }
        let (year, month, day) =
            switch self {
            case .yearMonthDaySlashes: (parts.first, parts.second, parts.third)
            case .dayMonthYearDots, .dayMonthYearSlashes: (parts.third, parts.second, parts.first)
            case .monthDayYearSlashes: (parts.third, parts.first, parts.second)
            }
        return CivilDate.days(year: year, month: month, day: day) != nil
    }
}
