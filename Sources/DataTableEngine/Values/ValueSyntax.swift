/// The written forms of dates, times and durations: parsing what a person types, and the text
/// shown back.
public enum ValueSyntax {
    // MARK: Dates

    /// `YYYY-MM-DD`, a day that exists: from 0000-01-01 to 9999-12-31, the days whose ISO form
    /// (their value in replies and exports) can be typed back.
    public static func date(_ input: CellInput) throws(ValidationFailure) -> Int32 {
        if case .text(let typed) = input, let days = isoDate(typed) { return days }
        let text = input.draftText.trimmingWhitespace
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count > 4, digits(parts[0]) != nil {
            throw ValidationFailure("A date must be from 0000-01-01 to 9999-12-31.")
        }
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = digits(parts[0]), let month = digits(parts[1]), let day = digits(parts[2])
        else {
            throw ValidationFailure("Enter a date as YYYY-MM-DD, like 2024-03-15.")
        }
        guard let days = CivilDate.days(year: year, month: month, day: day) else {
            throw ValidationFailure("\(text) is not a day of the calendar.")
        }
        return days
    }

    /// The common case without building substrings: exactly `DDDD-DD-DD` in ASCII, a real day
    /// (``FieldBytes/isoDate(_:)``, which a load reads fields with).
    private static func isoDate(_ text: String) -> Int32? {
        guard text.utf8.count == 10 else { return nil }
        var text = text
        return text.withUTF8 { FieldBytes.isoDate($0) }
    }

    /// `YYYY-MM-DD` for a day number (days since 1970-01-01).
    public static func dateText(_ days: Int32) -> String {
        var text = SmallText()
        text.appendDate(days)
        return text.string
    }

    // MARK: Times

    /// `HH:MM` or `HH:MM:SS` on a 24-hour clock (a one-digit hour is fine).
    public static func time(_ input: CellInput) throws(ValidationFailure) -> Int32 {
        let text = input.draftText.trimmingWhitespace
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), (1...2).contains(parts[0].count),
            parts.dropFirst().allSatisfy({ $0.count == 2 }),
            let hour = digits(parts[0]), let minute = digits(parts[1])
        else {
            throw ValidationFailure("Enter a time as HH:MM or HH:MM:SS, like 09:30.")
        }
        let second = parts.count == 3 ? digits(parts[2]) : 0
        guard let second, hour < 24, minute < 60, second < 60 else {
            throw ValidationFailure("\(text) is not a time of day (00:00 to 23:59:59).")
        }
        return Int32(hour * 3600 + minute * 60 + second)
    }

    /// `HH:MM`, with `:SS` only when there are seconds.
    public static func timeText(_ seconds: Int32) -> String {
        var text = SmallText()
        text.appendTime(seconds)
        return text.string
    }

    // MARK: Durations

    /// The longest duration, in seconds: 2^53 − 1 (about 285 million years), the most a JSON
    /// number carries exactly, so every duration stored is exported as a number that loads
    /// back as itself.
    public static let longestDuration: Int64 = (1 << 53) - 1

    /// Whole seconds from ISO 8601 (`PT1H30M`, `P1DT2H`), the short form (`1h 30m`, `90m`,
    /// `2h15m10s`, `1d 4h`), or a plain number of seconds; at most ``longestDuration``.
    public static func duration(_ input: CellInput) throws(ValidationFailure) -> Int64 {
        let seconds = try anyDuration(input)
        guard seconds <= longestDuration else {
            throw ValidationFailure(
                "A duration must be from 0 to \(longestDuration) seconds (about 285 million years)."
            )
        }
        return seconds
    }

    /// ``duration(_:)`` without its upper bound.
    private static func anyDuration(_ input: CellInput) throws(ValidationFailure) -> Int64 {
        let failure = ValidationFailure("Enter a duration like 1h 30m, PT1H30M or a number of seconds.")
        if case .number(let number) = input {
            guard number >= 0, number == number.rounded() else {
                throw ValidationFailure("A duration in seconds must be a whole number, 0 or more.")
            }
            // Past the longest, refused by ``duration(_:)`` with the range.
            guard let seconds = Int64(exactly: number) else { return .max }
            return seconds
        }
        let text = input.draftText.trimmingWhitespace.lowercased()
        if let seconds = Int64(text), text.allSatisfy(\.isASCII) {
            guard seconds >= 0 else { throw failure }
            return seconds
        }
        if text.hasPrefix("p") {
            guard let seconds = isoDuration(text) else { throw failure }
            return seconds
        }
        guard let seconds = shortDuration(text) else { throw failure }
        return seconds
    }

    /// `1h 30m`: hours, minutes and seconds, leaving out the parts that are zero; `0m` for none.
    public static func durationText(_ seconds: Int64) -> String {
        var text = SmallText()
        text.appendDuration(seconds)
        return text.string
    }

    private static let unitSeconds: [Character: Int64] = ["d": 86_400, "h": 3600, "m": 60, "s": 1]

    /// `p[nd][t[nh][nm][ns]]`, lower-cased, at least one part.
    private static func isoDuration(_ text: String) -> Int64? {
        var total: Int64 = 0
        var number = ""
        var inTime = false
        var parts = 0
        var seen = Set<String>()
        for character in text.dropFirst() {
            if character.isASCII, character.isNumber {
                number.append(character)
            } else if character == "t", !inTime, number.isEmpty {
                inTime = true
            } else if let unit = unitSeconds[character], let value = Int64(number),
                inTime ? character != "d" : character == "d",
                seen.insert("\(inTime)\(character)").inserted
            {
                let (product, overflow) = value.multipliedReportingOverflow(by: unit)
                guard !overflow else { return nil }
                let (sum, tooLong) = total.addingReportingOverflow(product)
                guard !tooLong else { return nil }
                total = sum
                number = ""
                parts += 1
            } else {
                return nil
            }
        }
        return number.isEmpty && parts > 0 ? total : nil
    }

    /// Unit words of the short form, by the unit they stand for.
    private static let unitAliases: [String: Character] = [
        "d": "d", "day": "d", "days": "d", "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
        "m": "m", "min": "m", "mins": "m", "minute": "m", "minutes": "m",
        "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
    ]

    /// `1h 30m`, `1h30m`, `90 m`, `1d 2h`: numbers each followed by a unit, each unit once.
    private static func shortDuration(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var total: Int64 = 0
        var seen: Set<Character> = []
        var index = 0
        var parts = 0
        func skipSpaces() { while index < bytes.count, bytes[index] == 0x20 { index += 1 } }
        while true {
            skipSpaces()
            guard index < bytes.count else { break }
            var value: Int64 = 0
            let numberStart = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                let (next, tooLong) = shifted.addingReportingOverflow(Int64(bytes[index] - 0x30))
                guard !tooLong else { return nil }
                value = next
                index += 1
            }
            guard index > numberStart else { return nil }
            skipSpaces()
            let unitStart = index
            while index < bytes.count, bytes[index] >= 0x61, bytes[index] <= 0x7A { index += 1 }
            let word = String(decoding: bytes[unitStart..<index], as: UTF8.self)
            guard let unit = unitAliases[word], seen.insert(unit).inserted else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: unitSeconds[unit]!)
            guard !overflow else { return nil }
            let (sum, tooLong) = total.addingReportingOverflow(product)
            guard !tooLong else { return nil }
            total = sum
            parts += 1
        }
        return parts > 0 ? total : nil
    }

    // MARK: Helpers

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}
