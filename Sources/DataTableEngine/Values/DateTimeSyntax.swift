import Foundation

/// An instant's written forms: ISO 8601 with an offset, read as the instant it names and shown
/// in a zone (`datetime` columns), and the words a `boolean` column takes.
///
/// An instant is stored as milliseconds since 1970-01-01T00:00:00Z.
public enum DateTimeSyntax {
    /// `YYYY-MM-DDTHH:MM[:SS[.fff]]` then `Z` or an offset (`+02:00`, `+0200`, `+02`); a space
    /// may stand for the `T`. Without an offset the time is read in `zone`. A number is seconds
    /// since 1970 (Unix time).
    ///
    /// The instant must lie in ``range`` (years 0000 to 9999 in UTC), the instants whose ISO
    /// form in UTC (``isoText(_:)``, their value in replies and exports) can be typed and
    /// loaded back: any other is refused, whichever way it was written.
    public static func instant(_ input: CellInput, zone: DisplayZone) throws(ValidationFailure) -> Int64 {
        let instant: Int64
        switch input {
        case .number(let seconds):
            guard seconds.isFinite else { throw failure }
            guard (Double(range.lowerBound) / 1000...Double(range.upperBound) / 1000).contains(seconds) else {
                throw outOfRange
            }
            instant = Int64((seconds * 1000).rounded())
        case .null, .boolean: throw failure
        case .text(let typed):
            let text = typed.trimmingWhitespace
            guard let parsed = parse(text, zone: zone) else {
                throw hasLongYear(text) ? outOfRange : failure
            }
            instant = parsed
        }
        guard range.contains(instant) else { throw outOfRange }
        return instant
    }

    /// The instants a `datetime` cell holds, in milliseconds since 1970:
    /// 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.
    public static let range: ClosedRange<Int64> =
        Int64(CivilDate.days(year: 0, month: 1, day: 1)!) * 86_400_000...Int64(
            CivilDate.days(year: 9999, month: 12, day: 31)!
        ) * 86_400_000 + 86_399_999

    /// Whether `text` starts with a year of more digits than four, or a signed one
    /// (`10000-01-01T…`, `-0001-…`): a date past the range, not a typing mistake.
    private static func hasLongYear(_ text: String) -> Bool {
        let digits = text.utf8.drop { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
        let year = digits.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        let signed = digits.count != text.utf8.count
        return (year.count > 4 || (signed && year.count == 4))
            && digits.dropFirst(year.count).first == UInt8(ascii: "-")
    }

    private static let outOfRange = ValidationFailure(
        "A date and time must be from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z (as seconds since 1970: "
            + "-62167219200 to 253402300799.999)."
    )

    private static let failure = ValidationFailure(
        "Enter a date and time like 2024-03-15T14:30:00Z (with Z or an offset like +02:00)."
    )

    private static func parse(_ text: String, zone: DisplayZone) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), hour < 24, minute < 60,
            let days = CivilDate.days(year: year, month: month, day: day)
        else { return nil }
        var at = 16
        var second = 0
        var milliseconds = 0
        if at < bytes.count, bytes[at] == UInt8(ascii: ":") {
            guard let value = number(at + 1..<at + 3), value < 60 else { return nil }
            second = value
            at += 3
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") || bytes[at] == UInt8(ascii: ",") {
                at += 1
                var digits = 0
                while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
                    // Milliseconds are kept; finer digits are dropped.
                    if digits < 3 { milliseconds = milliseconds * 10 + Int(bytes[at] - UInt8(ascii: "0")) }
                    digits += 1
                    at += 1
                }
                guard digits > 0 else { return nil }
                for _ in digits..<max(digits, 3) { milliseconds *= 10 }
            }
        }
        let local = (Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000 + Int64(milliseconds)
        if at == bytes.count { return zone.instant(ofLocal: local) }
        // The offset.
        if bytes[at] == UInt8(ascii: "Z") || bytes[at] == UInt8(ascii: "z") {
            return at + 1 == bytes.count ? local : nil
        }
        guard bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") else { return nil }
        let sign: Int64 = bytes[at] == UInt8(ascii: "-") ? -1 : 1
        let rest = bytes.count - at - 1
        let offsetMinutes: Int
        switch rest {
        case 2:
            guard let hours = number(at + 1..<at + 3) else { return nil }
            offsetMinutes = hours * 60
        case 4:
            guard let hours = number(at + 1..<at + 3), let minutes = number(at + 3..<at + 5) else { return nil }
            offsetMinutes = hours * 60 + minutes
        case 5:
            guard bytes[at + 3] == UInt8(ascii: ":"), let hours = number(at + 1..<at + 3),
                let minutes = number(at + 4..<at + 6)
            else { return nil }
            offsetMinutes = hours * 60 + minutes
        default: return nil
        }
        guard offsetMinutes <= 18 * 60 else { return nil }
        return local - sign * Int64(offsetMinutes) * 60_000
    }

    /// `YYYY-MM-DD HH:MM:SS` in `zone` (with `.fff` when the instant has milliseconds).
    public static func text(_ milliseconds: Int64, zone: DisplayZone) -> String {
        let local = milliseconds + zone.offsetMilliseconds(at: milliseconds)
        return localText(local, separator: " ")
    }

    /// The instant in ISO 8601 in UTC: `2024-03-15T12:30:00Z` (with `.fff` when it has
    /// milliseconds): its value in replies and exports.
    public static func isoText(_ milliseconds: Int64) -> String {
        localText(milliseconds, separator: "T") + "Z"
    }

    private static func localText(_ local: Int64, separator: String) -> String {
        let (dayNumber, rest) = local.floorDivided(by: 86_400_000)
        let seconds = rest / 1000
        let fraction = rest % 1000
        var text = SmallText()
        text.appendDate(Int32(clamping: dayNumber))
        var out = text.string + separator
        out += twoDigits(seconds / 3600) + ":" + twoDigits(seconds / 60 % 60) + ":" + twoDigits(seconds % 60)
        if fraction != 0 {
            let digits = String(fraction)
            out += "." + String(repeating: "0", count: 3 - digits.count) + digits
        }
        return out
    }

    private static func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    // MARK: Booleans

    /// `true` or `false`: a JSON boolean, `true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0` in any case.
    public static func boolean(_ input: CellInput) throws(ValidationFailure) -> Bool {
        switch input {
        case .boolean(let value): return value
        case .number(let number) where number == 0 || number == 1: return number == 1
        case .text(let typed):
            switch typed.trimmingWhitespace.lowercased() {
            case "true", "yes", "on", "1", "✓", "☑": return true
            case "false", "no", "off", "0", "☐": return false
            default: break
            }
        default: break
        }
        throw ValidationFailure("Enter true or false.")
    }

    /// How a boolean shows: a checked or an empty box.
    public static func booleanText(_ value: Bool) -> String { value ? "☑" : "☐" }
}

extension Int64 {
    /// The quotient rounded down and a remainder of the divisor's sign (0 ..< divisor).
    fileprivate func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let quotient = self / divisor
        let remainder = self % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}

/// The zone a `datetime` column shows its instants in (its `format.zone`): UTC, a fixed offset
/// (`+02:00`), or a named zone of the system's time zone database (`Europe/Berlin`), whose
/// offset follows daylight saving time.
public enum DisplayZone: Sendable, Hashable {
    /// Coordinated Universal Time: the default.
    case utc
    /// A fixed offset from UTC, in minutes.
    case offset(minutes: Int)
    /// A named zone.
    case named(String)

    /// The zone `name` names (`UTC`, `Z`, `+02:00`, `-0530`, `Europe/Berlin`), or `nil`.
    public init?(named name: String) {
        if name == "UTC" || name == "Z" || name == "GMT" {
            self = .utc
            return
        }
        if let first = name.first, first == "+" || first == "-" {
            let digits = name.dropFirst().filter { $0 != ":" }
            guard digits.count == 2 || digits.count == 4, digits.allSatisfy(\.isASCII),
                let hours = Int(digits.prefix(2)), let minutes = Int(digits.count == 4 ? digits.suffix(2) : "00"),
                hours <= 18, minutes < 60
            else { return nil }
            self = .offset(minutes: (first == "-" ? -1 : 1) * (hours * 60 + minutes))
            return
        }
        guard TimeZone(identifier: name) != nil else { return nil }
        self = .named(name)
    }

    /// The zone as a `format.zone` gives it.
    public var name: String {
        switch self {
        case .utc: "UTC"
        case .offset(let minutes):
            (minutes < 0 ? "-" : "+") + String(format: "%02d:%02d", abs(minutes) / 60, abs(minutes) % 60)
        case .named(let name): name
        }
    }

    /// The zone's offset from UTC at the instant `milliseconds`, in milliseconds.
    func offsetMilliseconds(at milliseconds: Int64) -> Int64 {
        switch self {
        case .utc: 0
        case .offset(let minutes): Int64(minutes) * 60_000
        case .named(let name):
            Int64(
                TimeZone(identifier: name)?.secondsFromGMT(
                    for: Date(timeIntervalSince1970: Double(milliseconds) / 1000)
                )
                    ?? 0
            ) * 1000
        }
    }

    /// The instant whose local time in this zone is `local` (milliseconds since 1970 on the
    /// zone's clock); in a gap or overlap of daylight saving time, the offset before it.
    func instant(ofLocal local: Int64) -> Int64 {
        let guess = local - offsetMilliseconds(at: local)
        return local - offsetMilliseconds(at: guess)
    }
}

extension Table {
    /// The display text of `value` in column `column`, a datetime shown in `zone` when one is
    /// given (a view's zone) and in its column's otherwise.
    func displayText(_ value: CellValue, column: Int, zone: DisplayZone?) -> String {
        if let zone, case .datetime(let milliseconds) = value { return DateTimeSyntax.text(milliseconds, zone: zone) }
        return columns[column].rules.displayText(value)
    }
}
