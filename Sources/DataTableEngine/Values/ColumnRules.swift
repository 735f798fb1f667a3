import Foundation

/// A column's type and constraints, ready to check values against.
///
/// Built once per column (the pattern compiled, the bounds parsed); ``parse(_:)`` turns what a
/// client sent into a stored value or a ``ValidationFailure`` whose message a renderer can show
/// under the cell as it is.
public struct ColumnRules: Sendable {
    /// What kind of values the column holds.
    public let type: ColumnType
    /// A value must be given (an empty one is refused).
    public let required: Bool
    /// Text: the most characters (grapheme clusters) a value may have.
    public let maxLength: Int?
    /// Text: the whole value must match this regular expression.
    public let pattern: String?
    private let compiledPattern: NSRegularExpression?
    /// Number, date, time, duration: the smallest and largest value allowed, as stored values.
    public let minimum: CellValue?
    /// The largest value allowed, as a stored value; `nil` when there is no upper bound.
    public let maximum: CellValue?
    /// Number: the most digits after the decimal point.
    public let decimals: Int?
    /// Picker: the values to choose from, in order.
    public let options: [String]
    /// Number and date: how values are shown beyond their plain form; `nil` for the plain form.
    public let style: DisplayStyle?

    /// Bounds are given as a person would type them (`"2024-01-01"`, `"1h"`, `0`).
    public init(
        type: ColumnType,
        required: Bool = false,
        maxLength: Int? = nil,
        pattern: String? = nil,
        minimum: CellInput? = nil,
        maximum: CellInput? = nil,
        decimals: Int? = nil,
        options: [String] = [],
        style: DisplayStyle? = nil
    ) throws(ValidationFailure) {
        self.type = type
        self.required = required
        if let problem = style?.problem(for: type) { throw ValidationFailure(problem) }
        self.style = style == DisplayStyle() ? nil : style
        // A constraint the type does not check is refused, not kept and ignored.
        if type != .text {
            if maxLength != nil { throw ValidationFailure("maxLength applies to text columns only.") }
            if pattern != nil { throw ValidationFailure("pattern applies to text columns only.") }
        }
        if type != .number, decimals != nil { throw ValidationFailure("decimals applies to number columns only.") }
        if type != .picker, !options.isEmpty { throw ValidationFailure("options apply to picker columns only.") }
        if let maxLength, maxLength < 1 { throw ValidationFailure("maxLength must be at least 1.") }
        self.maxLength = maxLength
        self.pattern = pattern
        if let pattern {
            do {
                compiledPattern = try NSRegularExpression(pattern: "^(?:" + pattern + ")$")
            } catch {
                throw ValidationFailure("The pattern \(pattern) is not a valid regular expression.")
            }
        } else {
            compiledPattern = nil
        }
        if let decimals, !(0...12).contains(decimals) { throw ValidationFailure("decimals must be from 0 to 12.") }
        self.decimals = decimals
        if type == .picker {
            guard !options.isEmpty else { throw ValidationFailure("A picker column needs at least one option.") }
            guard Set(options).count == options.count else {
                throw ValidationFailure("A picker column's options must all differ.")
            }
        }
        self.options = options

        let unbounded = Self(type: type, options: options, style: self.style)
        func bound(_ input: CellInput?, _ name: String) throws(ValidationFailure) -> CellValue? {
            guard let input else { return nil }
            guard [.number, .date, .time, .duration, .datetime].contains(type) else {
                throw ValidationFailure("\(name) applies to number, date, time, duration and datetime columns only.")
            }
            do {
                return try unbounded.parse(input)
            } catch {
                throw ValidationFailure("\(name) is not a valid \(type.rawValue): \(error.message)")
            }
        }
        self.minimum = try bound(minimum, "min")
        self.maximum = try bound(maximum, "max")
        if let low = self.minimum, let high = self.maximum, ValueOrder.compare(low, high) > 0 {
            throw ValidationFailure("min must not be greater than max.")
        }
    }

    /// Rules with no constraints, for parsing bounds.
    private init(type: ColumnType, options: [String], style: DisplayStyle?) {
        self.type = type
        self.style = style
        required = false
        maxLength = nil
        pattern = nil
        compiledPattern = nil
        minimum = nil
        maximum = nil
        decimals = nil
        self.options = options
    }

    /// The stored value for `input`, or why it is not acceptable.
    public func parse(_ input: CellInput) throws(ValidationFailure) -> CellValue {
        // Spaces alone are kept as written in a text column that may be empty.
        if Self.isBlank(input), !(type == .text && !required && input.isNonEmptyText) {
            if required { throw ValidationFailure("A value is required.") }
            return .empty
        }
        let value = try parseValue(input, checked: true)
        try checkBounds(value)
        return value
    }

    /// Checks a stored value against these rules (a column's new constraints, say): what
    /// ``parse(_:)`` would refuse in it, or nothing. A picker value must name one of the options.
    public func check(_ value: CellValue) throws(ValidationFailure) {
        switch value {
        case .empty:
            if required { throw ValidationFailure("A value is required.") }
            return
        case .text(let text):
            _ = try parseText(.text(text))
        case .number(let number):
            if let decimals, NumberText.fractionDigits(of: NumberText.plain(number)) > decimals {
                throw ValidationFailure(
                    decimals == 0 ? "Enter a whole number." : "Use at most \(decimals) decimal places."
                )
            }
        case .picker(let option):
            guard option >= 0, Int(option) < options.count else {
                throw ValidationFailure("Choose one of: \(options.joined(separator: ", ")).")
            }
        default: break
        }
        try checkBounds(value)
    }

    /// `input` read as a value of the column's type, without the checks a stored value must
    /// pass (required, bounds, length): a value to compare cells with, as a filter does.
    public func parseComparand(_ input: CellInput) throws(ValidationFailure) -> CellValue {
        if Self.isBlank(input) { return .empty }
        return try parseValue(input, checked: false)
    }

    /// `checked`: text must fit the length and pattern, a number the decimals.
    private func parseValue(_ input: CellInput, checked: Bool) throws(ValidationFailure) -> CellValue {
        if case .boolean = input, type != .boolean {
            throw ValidationFailure("true and false go in boolean columns; this one is \(type.rawValue).")
        }
        let value: CellValue
        switch type {
        case .text: value = checked ? try parseText(input) : .text(input.draftText)
        case .number: value = try parseNumber(input, checked: checked)
        case .date:
            // A date in the column's locale order (`24.11.2026`) reads as its ISO form.
            if case .text(let text) = input, let iso = style?.plainDate(text.trimmingWhitespace) {
                value = .date(days: try ValueSyntax.date(.text(iso)))
            } else {
                value = .date(days: try ValueSyntax.date(input))
            }
        case .time: value = .time(seconds: try ValueSyntax.time(input))
        case .duration: value = .duration(seconds: try ValueSyntax.duration(input))
        case .picker: value = try parsePicker(input)
        case .image: value = .image(input.draftText)
        case .boolean: value = .boolean(try DateTimeSyntax.boolean(input))
        case .datetime: value = .datetime(milliseconds: try DateTimeSyntax.instant(input, zone: style?.zone ?? .utc))
        }
        return value
    }

    /// The text a renderer shows for a stored value.
    public func displayText(_ value: CellValue) -> String {
        switch value {
        case .empty: ""
        case .text(let text), .image(let text): text
        case .number(let number): numberText(number)
        case .date(let days): dateText(days)
        case .time(let seconds): ValueSyntax.timeText(seconds)
        case .duration(let seconds): ValueSyntax.durationText(seconds)
        case .picker(let option): options.indices.contains(Int(option)) ? options[Int(option)] : ""
        case .boolean(let value): DateTimeSyntax.booleanText(value)
        case .datetime(let milliseconds): DateTimeSyntax.text(milliseconds, zone: style?.zone ?? .utc)
        }
    }

    /// What showing a value of the column takes (see ``DisplayFormat``).
    var displayFormat: DisplayFormat { DisplayFormat(decimals: decimals, options: options, style: style) }

    /// A number as the column shows it: its decimals, then its style.
    func numberText(_ number: Double) -> String {
        Self.numberText(number, decimals: decimals, style: style)
    }

    /// A number shown with `decimals` (else its plain form), then `style`.
    static func numberText(_ number: Double, decimals: Int?, style: DisplayStyle?) -> String {
        guard let style else {
            return decimals.map { NumberText.fixed(number, decimals: $0) } ?? NumberText.plain(number)
        }
        let shown = style.percent ? Self.percentage(number) : number
        return style.number(decimals.map { NumberText.fixed(shown, decimals: $0) } ?? NumberText.plain(shown))
    }

    /// A date as the column shows it: in its locale's order, else ISO.
    func dateText(_ days: Int32) -> String {
        guard let style, style.locale.dateOrder != nil else { return ValueSyntax.dateText(days) }
        let (year, month, day) = CivilDate.components(days: days)
        return style.date(year: year, month: month, day: day) ?? ValueSyntax.dateText(days)
    }

    /// `fraction` × 100, without the binary fraction's noise (0.07 × 100 is 7, not
    /// 7.000000000000001): rounded to nine places.
    static func percentage(_ fraction: Double) -> Double {
        let scaled = fraction * 100
        guard abs(scaled) < 1e6 else { return scaled }
        return (scaled * 1e9).rounded() / 1e9
    }

    private static func isBlank(_ input: CellInput) -> Bool {
        switch input {
        case .null: true
        case .text(let text):
            // Most values start with a visible ASCII character; only look closer when not.
            if let first = text.utf8.first, first > 0x20, first < 0x80 {
                false
            } else {
                text.allSatisfy(\.isWhitespace)
            }
        case .number, .boolean: false
        }
    }

    private func parseText(_ input: CellInput) throws(ValidationFailure) -> CellValue {
        let text = input.draftText
        if let maxLength, text.count > maxLength {
            throw ValidationFailure("Use at most \(maxLength) characters (this has \(text.count)).")
        }
        if let compiledPattern,
            compiledPattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil
        {
            throw ValidationFailure("The value must match the pattern \(pattern ?? "").")
        }
        return .text(text)
    }

    private func parseNumber(_ input: CellInput, checked: Bool = true) throws(ValidationFailure) -> CellValue {
        let number: Double
        let fractionDigits: Int
        switch input {
        case .number(let value):
            guard value.isFinite else { throw ValidationFailure("Enter a number.") }
            number = value
            fractionDigits = NumberText.fractionDigits(
                of: NumberText.plain(style?.percent == true ? Self.percentage(value) : value)
            )
        case .text(let text):
            var trimmed = text.trimmingWhitespace
            // The column's own form (`$1,234.50`, `12,5 %`) reads as the plain one.
            let typed = style?.plainNumber(trimmed)
            if let typed { trimmed = typed.text }
            guard let value = NumberText.parse(trimmed) else {
                throw ValidationFailure(
                    style?.changesNumbers == true
                        ? "Enter a number, like \(numberText(1234.5)) or 42."
                        : "Enter a number, like 42 or 3.75."
                )
            }
            number = typed?.percent == true ? value / 100 : value
            fractionDigits =
                style?.percent == true && typed?.percent != true
                ? NumberText.fractionDigits(of: NumberText.plain(Self.percentage(value)))
                : NumberText.fractionDigits(of: trimmed)
        case .null:
            return .empty
        case .boolean:
            throw ValidationFailure("Enter a number.")
        }
        if checked, let decimals, fractionDigits > decimals {
            throw ValidationFailure(
                decimals == 0 ? "Enter a whole number." : "Use at most \(decimals) decimal places."
            )
        }
        return .number(number)
    }

    private func parsePicker(_ input: CellInput) throws(ValidationFailure) -> CellValue {
        let text = input.draftText.trimmingWhitespace
        if let exact = options.firstIndex(of: text) {
            return .picker(option: Int32(exact))
        }
        // A different case still means the same option.
        if let loose = options.firstIndex(where: { $0.lowercased() == text.lowercased() }) {
            return .picker(option: Int32(loose))
        }
        throw ValidationFailure("Choose one of: \(options.joined(separator: ", ")).")
    }

    private func checkBounds(_ value: CellValue) throws(ValidationFailure) {
        if let minimum, ValueOrder.compare(value, minimum) < 0 {
            throw ValidationFailure("The value must be \(displayText(minimum)) or more.")
        }
        if let maximum, ValueOrder.compare(value, maximum) > 0 {
            throw ValidationFailure("The value must be \(displayText(maximum)) or less.")
        }
    }
}

extension String {
    /// The string without leading and trailing white space.
    var trimmingWhitespace: String {
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return self
        }
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }
}
