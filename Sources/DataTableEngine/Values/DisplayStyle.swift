/// How a column shows its values beyond its type's plain form (a column's `format`): for
/// numbers, grouping separators, a percent, a prefix and a suffix; for numbers and dates, a
/// locale's decimal and grouping separators and date order.
///
/// Only what is shown changes. Stored values, `export`, and the values in replies keep the
/// plain forms (so an export loads again as it was); a person may type either form.
public struct DisplayStyle: Sendable, Hashable {
    /// Numbers: separators between groups of three digits (`12,345.5`).
    public var grouping: Bool
    /// Numbers: shown multiplied by 100 with `%` after (a stored 0.25 shows `25%`).
    public var percent: Bool
    /// Numbers: text before the digits, after a minus sign (`$`: `-$5`).
    public var prefix: String
    /// Numbers: text after the digits (` kg`), before the `%` of a percent.
    public var suffix: String
    /// Separators and date order; ``DisplayLocale/plain`` keeps the plain forms.
    public var locale: DisplayLocale
    /// Datetimes: the zone they are shown in; `nil` is UTC.
    public var zone: DisplayZone?

    /// The most characters a prefix or suffix may have.
    public static let affixLimit = 8

    /// A style as given.
    public init(
        grouping: Bool = false,
        percent: Bool = false,
        prefix: String = "",
        suffix: String = "",
        locale: DisplayLocale = .plain,
        zone: DisplayZone? = nil
    ) {
        self.zone = zone
        self.grouping = grouping
        self.percent = percent
        self.prefix = prefix
        self.suffix = suffix
        self.locale = locale
    }

    /// Whether the style shows numbers differently from their plain form.
    var changesNumbers: Bool {
        grouping || percent || !prefix.isEmpty || !suffix.isEmpty || locale.decimalSeparator != "."
    }

    /// Why the style cannot be a `type` column's, or `nil` when it can.
    func problem(for type: ColumnType) -> String? {
        let numeric = grouping || percent || !prefix.isEmpty || !suffix.isEmpty
        if numeric && type != .number {
            return "grouping, percent, prefix and suffix apply to number columns only."
        }
        if locale != .plain && type != .number && type != .date {
            return "locale applies to number and date columns only."
        }
        if zone != nil && type != .datetime {
            return "zone applies to datetime columns only."
        }
        for (name, affix) in [("prefix", prefix), ("suffix", suffix)] {
            if affix.count > Self.affixLimit {
                return "\(name) may have at most \(Self.affixLimit) characters."
            }
            if affix.contains(where: { $0.isNumber || $0 == "-" || $0.isNewline }) {
                return "\(name) may not hold digits, a minus sign or a line break."
            }
        }
        return nil
    }

    // MARK: Numbers

    /// `plain`, a number's plain or fixed text (ASCII: sign, digits, point, exponent), as the
    /// style shows it.
    func number(_ plain: String) -> String {
        var text = Substring(plain)
        let negative = text.first == "-"
        if negative { text = text.dropFirst() }
        // An exponent form (1e+16) keeps its digits as they are.
        let isDecimal = !text.contains("e")
        let point = text.firstIndex(of: ".")
        var whole = String(text[..<(point ?? text.endIndex)])
        let fraction = point.map { String(text[text.index(after: $0)...]) } ?? ""
        if grouping && isDecimal && whole.count > 3 {
            var grouped = ""
            for (index, digit) in whole.enumerated() {
                if index > 0 && (whole.count - index) % 3 == 0 { grouped += locale.groupingSeparator }
                grouped.append(digit)
            }
            whole = grouped
        }
        var shown = negative ? "-" : ""
        shown += prefix + whole
        if point != nil { shown += (isDecimal ? locale.decimalSeparator : ".") + fraction }
        shown += suffix
        if percent { shown += "%" }
        return shown
    }

    /// The plain text of a number a person typed in the style's form (`-$1,234.50 kg`), or
    /// `nil` when `text` does not use the style's separators, prefix, suffix or percent sign
    /// (it is then read as plain).
    func plainNumber(_ text: String) -> (text: String, percent: Bool)? {
        var rest = Substring(text)
        var changed = false
        var negative = false
        if rest.first == "-" {
            negative = true
            rest = rest.dropFirst()
        }
        var isPercent = false
        if percent, rest.hasSuffix("%") {
            rest = rest.dropLast()
            isPercent = true
            changed = true
        }
        let trimmedSuffix = suffix.trimmingSpaces
        if !trimmedSuffix.isEmpty, rest.hasSuffix(trimmedSuffix) {
            rest = Substring(String(rest.dropLast(trimmedSuffix.count)).trimmingSpaces)
            changed = true
        }
        let trimmedPrefix = prefix.trimmingSpaces
        if !trimmedPrefix.isEmpty, rest.hasPrefix(trimmedPrefix) {
            rest = Substring(String(rest.dropFirst(trimmedPrefix.count)).trimmingSpaces)
            changed = true
        }
        if !negative, rest.first == "-" {
            negative = true
            rest = rest.dropFirst()
        }
        var plain = ""
        for character in rest {
            let piece = String(character)
            if piece == locale.groupingSeparator || (locale.groupingSeparator == "\u{202F}" && character == " ") {
                changed = true
            } else if piece == locale.decimalSeparator && locale.decimalSeparator != "." {
                plain += "."
                changed = true
            } else {
                plain.append(character)
            }
        }
        guard changed else { return nil }
        return ((negative ? "-" : "") + plain, isPercent)
    }

    // MARK: Dates

    /// A date's text in the locale's order; `nil` for the plain (ISO) form.
    func date(year: Int, month: Int, day: Int) -> String? {
        guard let order = locale.dateOrder else { return nil }
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let separator = locale.dateSeparator
        switch order {
        case .dayMonthYear: return padded(day, 2) + separator + padded(month, 2) + separator + padded(year, 4)
        case .monthDayYear: return padded(month, 2) + separator + padded(day, 2) + separator + padded(year, 4)
        case .yearMonthDay: return padded(year, 4) + separator + padded(month, 2) + separator + padded(day, 2)
        }
    }

    /// The ISO text of a date a person typed in the locale's order (`24.11.2026` →
    /// `2026-11-24`), or `nil` when `text` is not in that form.
    func plainDate(_ text: String) -> String? {
        guard let order = locale.dateOrder else { return nil }
        let parts = text.split(separator: Character(locale.dateSeparator), omittingEmptySubsequences: false)
        guard parts.count == 3,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let (year, month, day): (Substring, Substring, Substring) =
            switch order {
            case .dayMonthYear: (parts[2], parts[1], parts[0])
            case .monthDayYear: (parts[2], parts[0], parts[1])
            case .yearMonthDay: (parts[0], parts[1], parts[2])
            }
        guard year.count == 4, month.count <= 2, day.count <= 2 else { return nil }
        func two(_ part: Substring) -> String { part.count == 1 ? "0" + part : String(part) }
        return "\(year)-\(two(month))-\(two(day))"
    }
}

/// The separators and date order of a locale a column may show its values in: the project's
/// own table for the locales below (no locale data is loaded at run time, so showing a value
/// costs what the plain form costs, plus the separators).
public enum DisplayLocale: String, Sendable, Hashable, CaseIterable {
    /// Plain forms: `1234.5`, `2026-11-24`.
    case plain
    /// `1,234.5`; `11/24/2026`.
    case enUS = "en-US"
    /// `1,234.5`; `24/11/2026`.
    case enGB = "en-GB"
    /// `1.234,5`; `24.11.2026`.
    case deDE = "de-DE"
    /// `1 234,5` (a narrow no-break space); `24/11/2026`.
    case frFR = "fr-FR"
    /// `1.234,5`; `24/11/2026`.
    case esES = "es-ES"
    /// `1.234,5`; `24/11/2026`.
    case itIT = "it-IT"
    /// `1,234.5`; `2026/11/24`.
    case jaJP = "ja-JP"
    /// `1,234.5`; `2026/11/24`.
    case zhCN = "zh-CN"

    /// The locale a client named: a tag above, or its language alone (`de`), in any case.
    public init?(named name: String) {
        let lowered = name.lowercased().replacingOccurrences(of: "_", with: "-")
        if let exact = Self.allCases.first(where: { $0.rawValue.lowercased() == lowered }) {
            self = exact
        } else if let language = Self.allCases.first(where: {
            $0 != .plain && $0.rawValue.lowercased().hasPrefix(lowered + "-")
        }) {
            self = language
        } else {
            return nil
        }
    }

    /// The separator between a number's whole part and its fraction.
    var decimalSeparator: String {
        switch self {
        case .deDE, .frFR, .esES, .itIT: ","
        default: "."
        }
    }

    /// The separator between groups of three digits.
    var groupingSeparator: String {
        switch self {
        case .deDE, .esES, .itIT: "."
        case .frFR: "\u{202F}"
        default: ","
        }
    }

    /// The order of a date's parts; `nil` for the plain ISO form.
    var dateOrder: DateOrder? {
        switch self {
        case .plain: nil
        case .enUS: .monthDayYear
        case .enGB, .deDE, .frFR, .esES, .itIT: .dayMonthYear
        case .jaJP, .zhCN: .yearMonthDay
        }
    }

    /// The separator between a date's parts.
    var dateSeparator: String {
        switch self {
        case .plain: "-"
        case .deDE: "."
        default: "/"
        }
    }

    /// The order of a date's parts.
    enum DateOrder { case dayMonthYear, monthDayYear, yearMonthDay }
}

extension StringProtocol {
    /// The text without spaces at either end.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
