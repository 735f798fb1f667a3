/// The functions of the expression language, checked by name (in any case) and arity, each
/// made for its arguments' types.
extension ExpressionCompiler {
    /// Every function: its name as documented, and how it is called.
    static let functions: [(name: String, usage: String)] = [
        ("abs", "abs(number or duration)"), ("round", "round(number[, digits])"), ("floor", "floor(number)"),
        ("ceil", "ceil(number)"), ("min", "min(a, b, …)"), ("max", "max(a, b, …)"), ("len", "len(text)"),
        ("upper", "upper(text)"), ("lower", "lower(text)"), ("trim", "trim(text)"), ("left", "left(text, n)"),
        ("right", "right(text, n)"), ("substr", "substr(text, start[, length])"),
        ("contains", "contains(text, part)"), ("startsWith", "startsWith(text, part)"),
        ("replace", "replace(text, old, new)"), ("concat", "concat(a, b, …)"), ("text", "text(value)"),
        ("number", "number(text)"), ("year", "year(date)"), ("month", "month(date)"), ("day", "day(date)"),
        ("weekday", "weekday(date)"), ("date", "date(datetime) or date(year, month, day)"),
        ("days", "days(duration) or days(number)"), ("hours", "hours(duration) or hours(number)"),
        ("coalesce", "coalesce(a, b, …)"), ("isEmpty", "isEmpty(value)"), ("if", "if(condition, then[, else])"),
    ]

    mutating func call(_ name: String, _ arguments: [Typed], at offset: Int) throws(ExpressionError) -> Typed {
        let lowered = name.lowercased()
        if let refusal = ViewOrderFunction.notWhole(name, at: offset) { throw refusal }
        guard let known = Self.functions.first(where: { $0.name.lowercased() == lowered }) else {
            throw ExpressionError("There is no function \(name).", at: offset)
        }
        func arity(_ counts: ClosedRange<Int>) throws(ExpressionError) {
            guard counts.contains(arguments.count) else {
                throw ExpressionError(
                    "\(known.usage) takes \(Self.count(counts)); it was given \(arguments.count).",
                    at: offset
                )
            }
        }
        func argument(_ index: Int, _ type: ExpressionType) throws(ExpressionError) -> ExpressionEvaluation {
            try expect(arguments[index], type, known.name)
            return arguments[index].evaluate
        }
        func typed(_ type: ExpressionType, _ evaluate: @escaping ExpressionEvaluation) -> Typed {
            Typed(type: type, evaluate: evaluate, offset: offset)
        }
        switch lowered {
        case "abs":
            try arity(1...1)
            let inner = arguments[0].evaluate
            if arguments[0].type == .duration {
                return typed(.duration) { row in
                    if case .duration(let seconds) = inner(row), seconds != .min { return .duration(abs(seconds)) }
                    return .empty
                }
            }
            _ = try argument(0, .number)
            return typed(.number) { row in
                if case .number(let value) = inner(row) { return .number(abs(value)) }
                return .empty
            }
        case "round":
            try arity(1...2)
            let value = try argument(0, .number)
            let digits = arguments.count > 1 ? try argument(1, .number) : nil
            return typed(.number) { row in
                guard case .number(let number) = value(row) else { return .empty }
                var places = 0
                if let digits {
                    guard case .number(let given) = digits(row), given.isFinite else { return .empty }
                    places = Int(max(-20, min(20, given.rounded(.towardZero))))
                }
                return .number(ExpressionMath.round(number, places: places))
            }
        case "floor", "ceil":
            try arity(1...1)
            let value = try argument(0, .number)
            let rule: FloatingPointRoundingRule = lowered == "floor" ? .down : .up
            return typed(.number) { row in
                if case .number(let number) = value(row) { return .number(number.rounded(rule)) }
                return .empty
            }
        case "min", "max":
            try arity(1...Int.max)
            let type = try Self.common(arguments, known.name)
            let parts = arguments.map(\.evaluate)
            let wantsLess = lowered == "min"
            return typed(type) { row in
                var best = ExpressionValue.empty
                for part in parts {
                    let value = part(row)
                    if value.isEmpty { continue }
                    if best.isEmpty || (value.compare(best) < 0) == wantsLess && value.compare(best) != 0 {
                        best = value
                    }
                }
                return best
            }
        case "len":
            try arity(1...1)
            let text = try argument(0, .text)
            return typed(.number) { row in
                if case .text(let value) = text(row) { return .number(Double(value.count)) }
                return .empty
            }
        case "upper", "lower", "trim":
            try arity(1...1)
            let text = try argument(0, .text)
            let change: @Sendable (String) -> String =
                switch lowered {
                case "upper": { $0.uppercased() }
                case "lower": { $0.lowercased() }
                default: { ExpressionMath.trimmed($0) }
                }
            return typed(.text) { row in
                guard case .text(let value) = text(row) else { return .empty }
                let changed = change(value)
                return changed.isEmpty || changed.utf8.count > ExpressionLimits.maximumTextBytes
                    ? .empty : .text(changed)
            }
        case "left", "right":
            try arity(2...2)
            let text = try argument(0, .text)
            let count = try argument(1, .number)
            let fromLeft = lowered == "left"
            return typed(.text) { row in
                guard case .text(let value) = text(row), case .number(let number) = count(row), number.isFinite else {
                    return .empty
                }
                let take = Int(max(0, min(Double(Int32.max), number.rounded(.towardZero))))
                let part = fromLeft ? String(value.prefix(take)) : String(value.suffix(take))
                return part.isEmpty ? .empty : .text(part)
            }
        case "substr":
            try arity(2...3)
            let text = try argument(0, .text)
            let start = try argument(1, .number)
            let length = arguments.count > 2 ? try argument(2, .number) : nil
            return typed(.text) { row in
                guard case .text(let value) = text(row), case .number(let first) = start(row), first.isFinite else {
                    return .empty
                }
                var count: Double?
                if let length {
                    guard case .number(let given) = length(row), given.isFinite else { return .empty }
                    count = given
                }
                return ExpressionMath.substring(value, start: first, length: count)
            }
        case "contains", "startswith":
            try arity(2...2)
            let text = try argument(0, .text)
            let part = try argument(1, .text)
            let prefixOnly = lowered == "startswith"
            return typed(.boolean) { row in
                guard case .text(let value) = text(row), case .text(let sought) = part(row) else { return .empty }
                return .boolean(prefixOnly ? value.hasPrefix(sought) : value.contains(sought))
            }
        case "replace":
            try arity(3...3)
            let text = try argument(0, .text)
            let old = try argument(1, .text)
            let new = try argument(2, .text)
            return typed(.text) { row in
                guard case .text(let value) = text(row) else { return .empty }
                guard case .text(let sought) = old(row) else { return .text(value) }
                // An empty replacement takes the old text out.
                let replacement = if case .text(let given) = new(row) { given } else { "" }
                return ExpressionMath.replacing(sought, with: replacement, in: value)
            }
        case "concat":
            try arity(1...Int.max)
            return Self.join(arguments.map(\.evaluate), at: offset)
        case "text":
            try arity(1...1)
            let inner = arguments[0].evaluate
            return typed(.text) { row in
                let text = inner(row).plainText
                return text.isEmpty ? .empty : .text(text)
            }
        case "number":
            try arity(1...1)
            let text = try argument(0, .text)
            return typed(.number) { row in
                guard case .text(let value) = text(row), let number = NumberText.parse(ExpressionMath.trimmed(value))
                else { return .empty }
                return .number(number)
            }
        case "year", "month", "day", "weekday":
            try arity(1...1)
            let inner = try Self.day(of: arguments[0], known.name)
            let part: @Sendable (Int32) -> Int =
                switch lowered {
                case "year": { CivilDate.components(days: $0).year }
                case "month": { CivilDate.components(days: $0).month }
                case "day": { CivilDate.components(days: $0).day }
                // 1970-01-01 was a Thursday (4); Monday is 1.
                default: { Int((Int64($0) + 3) %% 7) + 1 }
                }
            return typed(.number) { row in inner(row).map { .number(Double(part($0))) } ?? .empty }
        case "date":
            if arguments.count == 1 {
                let inner = try Self.day(of: arguments[0], known.name)
                return typed(.date) { row in inner(row).map { .date($0) } ?? .empty }
            }
            try arity(3...3)
            let parts = [try argument(0, .number), try argument(1, .number), try argument(2, .number)]
            return typed(.date) { row in
                var numbers: [Int] = []
                for part in parts {
                    guard case .number(let value) = part(row), value.isFinite, abs(value) < 1e7 else { return .empty }
                    numbers.append(Int(value.rounded(.towardZero)))
                }
                return CivilDate.days(year: numbers[0], month: numbers[1], day: numbers[2]).map { .date($0) } ?? .empty
            }
        case "days", "hours":
            try arity(1...1)
            let unit: Double = lowered == "days" ? 86_400 : 3_600
            let inner = arguments[0].evaluate
            if arguments[0].type == .duration {
                return typed(.number) { row in
                    if case .duration(let seconds) = inner(row) { return .number(Double(seconds) / unit) }
                    return .empty
                }
            }
            guard arguments[0].type == .number || arguments[0].type == .null else {
                throw ExpressionError(
                    "\(known.name) takes a duration or a number, not \(Self.article(arguments[0].type)).",
                    at: arguments[0].offset
                )
            }
            return typed(.duration) { row in
                if case .number(let count) = inner(row) { return Self.duration(count * unit) }
                return .empty
            }
        case "coalesce":
            try arity(1...Int.max)
            let type = try Self.common(arguments, known.name)
            let parts = arguments.map(\.evaluate)
            return typed(type) { row in
                for part in parts {
                    let value = part(row)
                    if !value.isEmpty { return value }
                }
                return .empty
            }
        case "isempty":
            try arity(1...1)
            let inner = arguments[0].evaluate
            return typed(.boolean) { row in .boolean(inner(row).isEmpty) }
        default:  // "if"
            try arity(2...3)
            let condition = try argument(0, .boolean)
            let type = try Self.common(Array(arguments.dropFirst()), known.name)
            let then = arguments[1].evaluate
            let otherwise = arguments.count > 2 ? arguments[2].evaluate : nil
            return typed(type) { row in
                condition(row) == .boolean(true) ? then(row) : (otherwise?(row) ?? .empty)
            }
        }
    }

    /// "one argument", "2 or 3 arguments", "at least 1 argument".
    private static func count(_ counts: ClosedRange<Int>) -> String {
        if counts.upperBound == .max {
            return "at least \(counts.lowerBound) argument\(counts.lowerBound == 1 ? "" : "s")"
        }
        if counts.count == 1 { return "\(counts.lowerBound) argument\(counts.lowerBound == 1 ? "" : "s")" }
        return "\(counts.lowerBound) to \(counts.upperBound) arguments"
    }

    /// The day (days since 1970-01-01) of a date or of a datetime in UTC.
    private static func day(of argument: Typed, _ name: String) throws(ExpressionError)
        -> @Sendable (ExpressionRow) -> Int32?
    {
        let inner = argument.evaluate
        switch argument.type {
        case .date, .null:
            return { row in if case .date(let days) = inner(row) { days } else { nil } }
        case .datetime:
            return { row in
                guard case .datetime(let milliseconds) = inner(row) else { return nil }
                return Int32(exactly: milliseconds.floorDivided(by: 86_400_000))
            }
        default:
            throw ExpressionError(
                "\(name) takes a date or a datetime, not \(article(argument.type)).",
                at: argument.offset
            )
        }
    }
}

infix operator %% : MultiplicationPrecedence

extension Int64 {
    /// The remainder of a division rounded down: never negative for a positive divisor.
    static func %% (left: Int64, right: Int64) -> Int64 {
        let remainder = left % right
        return remainder < 0 ? remainder + right : remainder
    }

    /// The quotient rounded down.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

/// The arithmetic and text work of the functions, kept apart so that each is tested alone.
enum ExpressionMath {
    /// `number` rounded to `places` decimal places (negative: to tens, hundreds, …), half away
    /// from zero, on the number as written (its shortest text): `round(2.675, 2)` is 2.68.
    static func round(_ number: Double, places: Int) -> Double {
        guard number.isFinite, number != 0 else { return number }
        let written = NumberText.plain(abs(number)).split(separator: ".", omittingEmptySubsequences: false)
        let whole = written[0].utf8.map { Int($0) - 48 }
        let fraction = written.count > 1 ? written[1].utf8.map { Int($0) - 48 } : []
        let all = whole + fraction
        // The digits kept, read as a whole number, are the result times 10^places.
        let kept = whole.count + places
        guard kept < all.count else { return number }
        guard kept >= 0 else { return 0 }
        var digits = Array(all[..<kept])
        if all[kept] >= 5 {
            var index = digits.count - 1
            while index >= 0 && digits[index] == 9 {
                digits[index] = 0
                index -= 1
            }
            if index >= 0 { digits[index] += 1 } else { digits.insert(1, at: 0) }
        }
        let text = (digits.isEmpty ? "0" : digits.map(String.init).joined()) + "e\(-places)"
        let magnitude = Double(text) ?? 0
        return number < 0 ? -magnitude : magnitude
    }

    /// `text` without white space at either end.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }

    /// Characters `start` (counting from 1) on, `length` of them (all when `nil`), as SQL's
    /// `substring` counts: a start before 1 shortens what is taken.
    static func substring(_ text: String, start: Double, length: Double?) -> ExpressionValue {
        let first = max(-1e15, min(1e15, start.rounded(.towardZero)))
        var end = Double.infinity  // the first character not taken
        if let length {
            guard length >= 0 else { return .empty }
            end = first + min(1e15, length.rounded(.towardZero))
        }
        let from = max(1, first)
        guard end > from else { return .empty }
        let taken = end == .infinity ? Int.max : Int(end - from)
        let part = String(text.dropFirst(Int(min(from - 1, Double(Int32.max)))).prefix(taken))
        return part.isEmpty ? .empty : .text(part)
    }

    /// `text` with every `old` (not empty) replaced by `new`; empty past the text limit.
    static func replacing(_ old: String, with new: String, in text: String) -> ExpressionValue {
        var result = ""
        var rest = text[...]
        // Built a piece at a time, so that a long result stops at the limit, not after it.
        while let found = rest.firstRange(of: old) {
            result += rest[..<found.lowerBound]
            result += new
            guard result.utf8.count <= ExpressionLimits.maximumTextBytes else { return .empty }
            rest = rest[found.upperBound...]
        }
        result += rest
        guard result.utf8.count <= ExpressionLimits.maximumTextBytes else { return .empty }
        return result.isEmpty ? .empty : .text(result)
    }
}
