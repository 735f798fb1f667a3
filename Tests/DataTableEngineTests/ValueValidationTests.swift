import DataTableEngine
import Testing

/// Every type's accepted and refused inputs, with the stored value, its display text, and the
/// message a person sees.
@Suite struct ValueValidationTests {
    private func rules(_ type: ColumnType, _ configure: (inout Options) -> Void = { _ in }) throws -> ColumnRules {
        var options = Options()
        configure(&options)
        return try ColumnRules(
            type: type,
            required: options.required,
            maxLength: options.maxLength,
            pattern: options.pattern,
            minimum: options.minimum,
            maximum: options.maximum,
            decimals: options.decimals,
            options: options.options
        )
    }

    struct Options {
        var required = false
        var maxLength: Int?
        var pattern: String?
        var minimum: CellInput?
        var maximum: CellInput?
        var decimals: Int?
        var options: [String] = []
    }

    @Test(arguments: [
        ("2024-03-15", "2024-03-15"),
        (" 2024-02-29 ", "2024-02-29"),
        ("2000-02-29", "2000-02-29"),
        ("1970-01-01", "1970-01-01"),
        ("1969-12-31", "1969-12-31"),
        ("0001-01-01", "0001-01-01"),
        ("9999-12-31", "9999-12-31"),
    ])
    func validDates(input: String, display: String) throws {
        let date = try rules(.date)
        let value = try date.parse(.text(input))
        #expect(date.displayText(value) == display)
    }

    @Test(arguments: [
        ("2023-02-29", "2023-02-29 is not a day of the calendar."),
        ("1900-02-29", "1900-02-29 is not a day of the calendar."),
        ("2024-04-31", "2024-04-31 is not a day of the calendar."),
        ("2024-13-01", "2024-13-01 is not a day of the calendar."),
        ("2024-00-10", "2024-00-10 is not a day of the calendar."),
        ("2024-3-15", "Enter a date as YYYY-MM-DD, like 2024-03-15."),
        ("15.03.2024", "Enter a date as YYYY-MM-DD, like 2024-03-15."),
        ("2024-03-15T10:00", "Enter a date as YYYY-MM-DD, like 2024-03-15."),
        ("yesterday", "Enter a date as YYYY-MM-DD, like 2024-03-15."),
        ("２０２４-03-15", "Enter a date as YYYY-MM-DD, like 2024-03-15."),
        ("10000-01-01", "A date must be from 0000-01-01 to 9999-12-31."),
    ])
    func invalidDates(input: String, message: String) throws {
        #expect(throws: ValidationFailure(message)) { try self.rules(.date).parse(.text(input)) }
    }

    @Test func dayNumbersRoundTripAcrossCenturies() {
        for days in stride(from: Int32(-800_000), through: 2_000_000, by: 997) {
            let (year, month, day) = CivilDate.components(days: days)
            #expect(CivilDate.days(year: year, month: month, day: day) == days)
        }
        #expect(CivilDate.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilDate.days(year: 2000, month: 3, day: 1) == 11_017)
    }

    @Test(arguments: [
        ("09:30", "09:30"), ("9:30", "09:30"), ("23:59:59", "23:59:59"), ("00:00", "00:00"), ("12:00:00", "12:00"),
    ])
    func validTimes(input: String, display: String) throws {
        let time = try rules(.time)
        #expect(time.displayText(try time.parse(.text(input))) == display)
    }

    @Test(arguments: [
        ("24:00", "24:00 is not a time of day (00:00 to 23:59:59)."),
        ("12:60", "12:60 is not a time of day (00:00 to 23:59:59)."),
        ("12:30:60", "12:30:60 is not a time of day (00:00 to 23:59:59)."),
        ("1230", "Enter a time as HH:MM or HH:MM:SS, like 09:30."),
        ("12:3", "Enter a time as HH:MM or HH:MM:SS, like 09:30."),
        ("noon", "Enter a time as HH:MM or HH:MM:SS, like 09:30."),
    ])
    func invalidTimes(input: String, message: String) throws {
        #expect(throws: ValidationFailure(message)) { try self.rules(.time).parse(.text(input)) }
    }

    @Test(arguments: [
        (CellInput.text("PT1H30M"), Int64(5400), "1h 30m"),
        (.text("1h 30m"), 5400, "1h 30m"),
        (.text("1h30m"), 5400, "1h 30m"),
        (.text("90 min"), 5400, "1h 30m"),
        (.text("P1DT2H"), 93_600, "26h"),
        (.text("1d 2h"), 93_600, "26h"),
        (.text("PT45S"), 45, "45s"),
        (.text("2h 0m 5s"), 7205, "2h 5s"),
        (.text("5400"), 5400, "1h 30m"),
        (.number(5400), 5400, "1h 30m"),
        (.text("pt0s"), 0, "0m"),
    ])
    func validDurations(input: CellInput, seconds: Int64, display: String) throws {
        let duration = try rules(.duration)
        let value = try duration.parse(input)
        #expect(value == .duration(seconds: seconds))
        #expect(duration.displayText(value) == display)
    }

    @Test(arguments: [
        CellInput.text("P"), .text("PT"), .text("PT1H1H"), .text("1h 1h"), .text("1x"), .text("h"), .text("-5"),
        .text("1.5h"), .text("PT1D"), .text("P1H"),
        // Too long for 64 bits: refused, not a crash.
        .text("9223372036854775807s 1m"), .text("9223372036854775808s"), .text("P106751991167300DT99999S"),
        .text("99999999999999999999h"),
    ])
    func invalidDurations(input: CellInput) throws {
        #expect(throws: ValidationFailure("Enter a duration like 1h 30m, PT1H30M or a number of seconds.")) {
            try self.rules(.duration).parse(input)
        }
    }

    @Test func fractionalOrNegativeSecondsAreRefused() throws {
        let message = ValidationFailure("A duration in seconds must be a whole number, 0 or more.")
        #expect(throws: message) { try self.rules(.duration).parse(.number(1.5)) }
        #expect(throws: message) { try self.rules(.duration).parse(.number(-3)) }
    }

    @Test(arguments: [
        (CellInput.number(42), 42.0, "42"),
        (.text("3.75"), 3.75, "3.75"),
        (.text(" -0.5 "), -0.5, "-0.5"),
        (.text("1e3"), 1000, "1000"),
        (.text(".5"), 0.5, "0.5"),
        (.number(12.0), 12, "12"),
    ])
    func validNumbers(input: CellInput, value: Double, display: String) throws {
        let number = try rules(.number)
        let parsed = try number.parse(input)
        #expect(parsed == .number(value))
        #expect(number.displayText(parsed) == display)
    }

    @Test(arguments: ["abc", "1,5", "1.2.3", "inf", "nan", "0x10", "1e", "--1", "12 kg"])
    func invalidNumbers(input: String) throws {
        #expect(throws: ValidationFailure("Enter a number, like 42 or 3.75.")) {
            try self.rules(.number).parse(.text(input))
        }
    }

    @Test func numberConstraints() throws {
        let price = try rules(.number) {
            $0.minimum = .number(0)
            $0.maximum = .number(1000)
            $0.decimals = 2
        }
        #expect(price.displayText(try price.parse(.text("19.9"))) == "19.90")
        #expect(throws: ValidationFailure("Use at most 2 decimal places.")) { try price.parse(.text("1.999")) }
        #expect(throws: ValidationFailure("Use at most 2 decimal places.")) { try price.parse(.number(0.125)) }
        #expect(throws: ValidationFailure("The value must be 0.00 or more.")) { try price.parse(.number(-1)) }
        #expect(throws: ValidationFailure("The value must be 1000.00 or less.")) { try price.parse(.text("1000.01")) }
        let count = try rules(.number) { $0.decimals = 0 }
        #expect(throws: ValidationFailure("Enter a whole number.")) { try count.parse(.text("2.5")) }
        #expect(try count.parse(.text("2.0e1")) == .number(20))
    }

    @Test func dateAndDurationBounds() throws {
        let due = try rules(.date) {
            $0.minimum = .text("2024-01-01")
            $0.maximum = .text("2024-12-31")
        }
        #expect(throws: ValidationFailure("The value must be 2024-01-01 or more.")) {
            try due.parse(.text("2023-12-31"))
        }
        #expect(try due.parse(.text("2024-06-30")) == .date(days: CivilDate.days(year: 2024, month: 6, day: 30)!))
        let shift = try rules(.duration) { $0.maximum = .text("8h") }
        #expect(throws: ValidationFailure("The value must be 8h or less.")) { try shift.parse(.text("8h 1m")) }
    }

    @Test func textConstraints() throws {
        let code = try rules(.text) {
            $0.maxLength = 5
            $0.pattern = "[A-Z]+[0-9]*"
        }
        #expect(try code.parse(.text("AB12")) == .text("AB12"))
        #expect(throws: ValidationFailure("Use at most 5 characters (this has 6).")) { try code.parse(.text("ABC123")) }
        #expect(throws: ValidationFailure("The value must match the pattern [A-Z]+[0-9]*.")) {
            try code.parse(.text("ab1"))
        }
        // Characters, not bytes: five Korean syllables and an emoji family fit in five.
        let short = try rules(.text) { $0.maxLength = 5 }
        #expect(try short.parse(.text("테이블입니")) == .text("테이블입니"))
        #expect(try short.parse(.text("👨‍👩‍👧‍👦")) == .text("👨‍👩‍👧‍👦"))
        #expect(try rules(.text).parse(.number(7)) == .text("7"))
    }

    @Test func pickerValuesMustBeAnOption() throws {
        let status = try rules(.picker) { $0.options = ["Open", "In progress", "Done"] }
        #expect(try status.parse(.text("Done")) == .picker(option: 2))
        #expect(try status.parse(.text("in progress")) == .picker(option: 1))
        #expect(status.displayText(.picker(option: 1)) == "In progress")
        #expect(throws: ValidationFailure("Choose one of: Open, In progress, Done.")) {
            try status.parse(.text("Closed"))
        }
    }

    @Test func requiredRefusesEmptyAndOptionalStoresEmpty() throws {
        let name = try rules(.text) { $0.required = true }
        #expect(throws: ValidationFailure("A value is required.")) { try name.parse(.null) }
        #expect(throws: ValidationFailure("A value is required.")) { try name.parse(.text("   ")) }
        #expect(try rules(.number).parse(.null) == .empty)
        #expect(try rules(.date).parse(.text("")) == .empty)
    }

    @Test func badColumnDefinitionsAreRefused() {
        #expect(throws: ValidationFailure("A picker column needs at least one option.")) {
            try ColumnRules(type: .picker)
        }
        #expect(throws: ValidationFailure("A picker column's options must all differ.")) {
            try ColumnRules(type: .picker, options: ["A", "A"])
        }
        #expect(throws: ValidationFailure("The pattern [a- is not a valid regular expression.")) {
            try ColumnRules(type: .text, pattern: "[a-")
        }
        #expect(throws: ValidationFailure("min must not be greater than max.")) {
            try ColumnRules(type: .number, minimum: .number(5), maximum: .number(1))
        }
        #expect(throws: ValidationFailure("min applies to number, date, time, duration and datetime columns only.")) {
            try ColumnRules(type: .text, minimum: .number(1))
        }
        #expect(throws: ValidationFailure("max is not a valid date: Enter a date as YYYY-MM-DD, like 2024-03-15.")) {
            try ColumnRules(type: .date, maximum: .text("soon"))
        }
    }

    @Test func typedOrder() {
        #expect(ValueOrder.compare(.number(9), .number(10)) < 0)
        #expect(ValueOrder.compare(.text("apple"), .text("Banana")) < 0)
        #expect(ValueOrder.compare(.text("Apple"), .text("apple")) < 0)
        #expect(ValueOrder.compare(.text("a"), .text("a")) == 0)
        #expect(ValueOrder.compare(.empty, .number(-1e300)) < 0)
        #expect(ValueOrder.compare(.date(days: -1), .date(days: 0)) < 0)
        #expect(ValueOrder.compare(.duration(seconds: 5400), .duration(seconds: 600)) > 0)
    }
}
