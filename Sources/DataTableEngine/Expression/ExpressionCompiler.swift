/// The columns an expression may name, and what type each reads as.
struct ExpressionScope {
    let columns: [Column]
    /// The type each column reads as; `nil` for a computed column whose type is not known yet
    /// (naming it is then refused: it is later in the order, or in a cycle).
    let types: [ExpressionType?]
    private let byKey: [String: Int]
    private let byLabel: [String: [Int]]

    init(columns: [Column], types: [ExpressionType?]) {
        self.columns = columns
        self.types = types
        var byKey: [String: Int] = [:]
        var byLabel: [String: [Int]] = [:]
        for (index, column) in columns.enumerated() {
            byKey[column.key] = index
            byLabel[column.label, default: []].append(index)
        }
        self.byKey = byKey
        self.byLabel = byLabel
    }

    /// The column `name` names, or why none does.
    func resolve(_ name: ColumnName) -> Result<Int, ExpressionError> {
        switch name {
        case .key(let key):
            guard let index = byKey[key] else {
                return .failure(ExpressionError("There is no column with the key \(key).", at: 0))
            }
            return .success(index)
        case .label(let label):
            let found = byLabel[label] ?? []
            if found.count == 1 { return .success(found[0]) }
            if found.count > 1 {
                let keys = found.map { columns[$0].key }.joined(separator: ", ")
                return .failure(
                    ExpressionError("Several columns have the label \(label) (\(keys)); name one by its key.", at: 0)
                )
            }
            // A bracketed name that is no label may still be a key ("[unit price]").
            if let index = byKey[label] { return .success(index) }
            return .failure(ExpressionError("There is no column with the label \(label).", at: 0))
        }
    }
}

/// An expression checked against a table's columns: the type of its values, the columns it
/// reads, and how to work it out for a row.
struct CompiledExpression: Sendable {
    let type: ExpressionType
    /// The columns it names, by index, each once, in ascending order.
    let reads: [Int]
    let evaluate: ExpressionEvaluation
}

/// Checks an expression's names and types and turns it into an ``ExpressionEvaluation``.
///
/// Every operator and function is given its operands' types here, once, so that working out a
/// row calls closures made for exactly those types. Empty values follow SQL's NULL: an
/// operator or function with an empty operand gives empty, except `&` and `concat` (empty
/// counts as no text), `coalesce`, `isEmpty`, `min` and `max` (which pass over empties), the
/// conditions of `if` and `case` (empty counts as not true), and `and` / `or`, which follow
/// three-valued logic (`false and empty` is false, `true or empty` is true).
struct ExpressionCompiler {
    let scope: ExpressionScope
    private(set) var reads: Set<Int> = []

    /// The compiled form of `source` against `scope`.
    static func compile(_ source: String, in scope: ExpressionScope) throws(ExpressionError) -> CompiledExpression {
        try compile(tree: ExpressionParser.parse(source).tree, in: scope)
    }

    /// The compiled form of an expression already parsed into `tree`.
    static func compile(tree: SyntaxNode, in scope: ExpressionScope) throws(ExpressionError) -> CompiledExpression {
        var compiler = ExpressionCompiler(scope: scope)
        let typed = try compiler.check(tree)
        guard typed.type != .null else {
            throw ExpressionError("The expression is null alone: it has no type; give a value of one.", at: 0)
        }
        return CompiledExpression(type: typed.type, reads: compiler.reads.sorted(), evaluate: typed.evaluate)
    }

    /// A checked part of an expression.
    struct Typed {
        var type: ExpressionType
        var evaluate: ExpressionEvaluation
        var offset: Int
    }

    static func constant(_ value: ExpressionValue, _ type: ExpressionType, at offset: Int) -> Typed {
        Typed(type: type, evaluate: { _ in value }, offset: offset)
    }

    mutating func check(_ node: SyntaxNode) throws(ExpressionError) -> Typed {
        switch node.kind {
        case .number(let value): return Self.constant(.number(value), .number, at: node.offset)
        case .text(let text):
            guard text.utf8.count <= ExpressionLimits.maximumTextBytes else {
                throw ExpressionError("This text is too long.", at: node.offset)
            }
            return Self.constant(text.isEmpty ? .empty : .text(text), .text, at: node.offset)
        case .boolean(let value): return Self.constant(.boolean(value), .boolean, at: node.offset)
        case .null: return Self.constant(.empty, .null, at: node.offset)
        case .column(let name): return try column(name, at: node.offset)
        case .negate(let operand): return try negate(try check(operand), at: node.offset)
        case .not(let operand):
            let typed = try check(operand)
            try expect(typed, .boolean, "not")
            let inner = typed.evaluate
            return Typed(
                type: .boolean,
                evaluate: { row in
                    if case .boolean(let value) = inner(row) { return .boolean(!value) }
                    return .empty
                },
                offset: node.offset
            )
        case .chain(let first, let rest): return try chain(first, rest)
        case .compare(let symbol, let left, let right):
            return try compare(symbol, try check(left), try check(right), at: node.offset)
        case .call(let name, let arguments):
            var typed: [Typed] = []
            for argument in arguments { typed.append(try check(argument)) }
            return try call(name, typed, at: node.offset)
        case .choice(let subject, let branches, let otherwise):
            return try choice(subject, branches, otherwise, at: node.offset)
        }
    }

    // MARK: Columns

    private mutating func column(_ name: ColumnName, at offset: Int) throws(ExpressionError) -> Typed {
        let index: Int
        switch scope.resolve(name) {
        case .success(let found): index = found
        case .failure(let error): throw ExpressionError(error.message, at: offset)
        }
        guard let type = scope.types[index] else {
            throw ExpressionError(
                "\(scope.columns[index].key) is computed from this one, directly or through others: a cycle.",
                at: offset
            )
        }
        reads.insert(index)
        let column = index
        switch scope.columns[index].type {
        case .text, .image:
            return Typed(
                type: type,
                evaluate: { row in
                    let text = row.stores[column].text(at: row.slot)
                    return text.isEmpty ? .empty : .text(text)
                },
                offset: offset
            )
        case .picker:
            let options = scope.columns[index].rules.options
            return Typed(
                type: type,
                evaluate: { row in
                    let option = Int(row.stores[column].smallIntegers[Int(row.slot)])
                    return options.indices.contains(option) ? .text(options[option]) : .empty
                },
                offset: offset
            )
        case .number:
            return Typed(
                type: type,
                evaluate: { row in
                    let number = row.stores[column].numbers[Int(row.slot)]
                    return number.isNaN ? .empty : .number(number)
                },
                offset: offset
            )
        case .boolean, .date, .time:
            let make: @Sendable (Int32) -> ExpressionValue =
                switch scope.columns[index].type {
                case .boolean: { .boolean($0 != 0) }
                case .date: { .date($0) }
                default: { .time($0) }
                }
            return Typed(
                type: type,
                evaluate: { row in
                    let value = row.stores[column].smallIntegers[Int(row.slot)]
                    return value == .min ? .empty : make(value)
                },
                offset: offset
            )
        case .duration, .datetime:
            let isDuration = scope.columns[index].type == .duration
            return Typed(
                type: type,
                evaluate: { row in
                    let value = row.stores[column].largeIntegers[Int(row.slot)]
                    return value == .min ? .empty : isDuration ? .duration(value) : .datetime(value)
                },
                offset: offset
            )
        }
    }

    // MARK: Checking types

    /// Refuses `typed` unless it is of `type` (or `null`).
    func expect(_ typed: Typed, _ type: ExpressionType, _ what: String) throws(ExpressionError) {
        guard typed.type == type || typed.type == .null else {
            throw ExpressionError(
                "\(what) takes \(Self.article(type)), not \(Self.article(typed.type)).",
                at: typed.offset
            )
        }
    }

    /// The one type `parts` share (`null` takes the others'), or a refusal at the first that
    /// differs.
    static func common(_ parts: [Typed], _ what: String) throws(ExpressionError) -> ExpressionType {
        var type = ExpressionType.null
        for part in parts where part.type != .null {
            if type == .null {
                type = part.type
            } else if part.type != type {
                throw ExpressionError(
                    "The values of \(what) must be of one type: \(article(type)) and \(article(part.type)) here.",
                    at: part.offset
                )
            }
        }
        return type
    }

    /// "a number", "an instant", … for messages.
    static func article(_ type: ExpressionType) -> String {
        switch type {
        case .number: "a number"
        case .text: "text"
        case .boolean: "true or false"
        case .date: "a date"
        case .time: "a time"
        case .datetime: "a datetime"
        case .duration: "a duration"
        case .null: "null"
        }
    }

    // MARK: Operators

    private func negate(_ operand: Typed, at offset: Int) throws(ExpressionError) -> Typed {
        let inner = operand.evaluate
        switch operand.type {
        case .number, .null:
            return Typed(
                type: .number,
                evaluate: { row in
                    if case .number(let value) = inner(row) { return .number(-value) }
                    return .empty
                },
                offset: offset
            )
        case .duration:
            return Typed(
                type: .duration,
                evaluate: { row in
                    if case .duration(let value) = inner(row) { return .duration(-value) }
                    return .empty
                },
                offset: offset
            )
        default:
            throw ExpressionError("- takes a number or a duration, not \(Self.article(operand.type)).", at: offset)
        }
    }

    private mutating func chain(
        _ first: SyntaxNode,
        _ rest: [(symbol: String, operand: SyntaxNode, offset: Int)]
    ) throws(ExpressionError) -> Typed {
        var left = try check(first)
        var steps:
            [(apply: @Sendable (ExpressionValue, ExpressionValue) -> ExpressionValue, operand: ExpressionEvaluation)] =
                []
        let symbol = rest[0].symbol
        if symbol == "and" || symbol == "or" {
            var parts = [left]
            for part in rest { parts.append(try check(part.operand)) }
            for part in parts { try expect(part, .boolean, symbol) }
            return Self.logic(symbol == "and", parts.map(\.evaluate), at: left.offset)
        }
        if symbol == "&" {
            var parts = [left]
            for part in rest { parts.append(try check(part.operand)) }
            return Self.join(parts.map(\.evaluate), at: left.offset)
        }
        let start = left.offset
        for part in rest {
            let right = try check(part.operand)
            let (type, apply) = try Self.arithmetic(part.symbol, left, right, at: part.offset)
            steps.append((apply, right.evaluate))
            left = Typed(type: type, evaluate: left.evaluate, offset: start)
        }
        let head = left.evaluate
        let chained = steps
        if steps.count == 1 {
            let (apply, operand) = steps[0]
            return Typed(type: left.type, evaluate: { row in apply(head(row), operand(row)) }, offset: start)
        }
        return Typed(
            type: left.type,
            evaluate: { row in
                var value = head(row)
                for step in chained { value = step.apply(value, step.operand(row)) }
                return value
            },
            offset: start
        )
    }

    /// `and` (or `or`) of every part, in three-valued logic.
    private static func logic(_ isAnd: Bool, _ parts: [ExpressionEvaluation], at offset: Int) -> Typed {
        Typed(
            type: .boolean,
            evaluate: { row in
                var unknown = false
                for part in parts {
                    guard case .boolean(let value) = part(row) else {
                        unknown = true
                        continue
                    }
                    // false decides an `and`, true an `or`.
                    if value != isAnd { return .boolean(value) }
                }
                return unknown ? .empty : .boolean(isAnd)
            },
            offset: offset
        )
    }

    /// The parts' plain texts joined (empty counts as no text).
    static func join(_ parts: [ExpressionEvaluation], at offset: Int) -> Typed {
        Typed(
            type: .text,
            evaluate: { row in
                var text = ""
                for part in parts {
                    text += part(row).plainText
                    if text.utf8.count > ExpressionLimits.maximumTextBytes { return .empty }
                }
                return text.isEmpty ? .empty : .text(text)
            },
            offset: offset
        )
    }

    /// The result type of `left symbol right` and the step that works it out.
    private static func arithmetic(
        _ symbol: String,
        _ left: Typed,
        _ right: Typed,
        at offset: Int
    ) throws(ExpressionError) -> (ExpressionType, @Sendable (ExpressionValue, ExpressionValue) -> ExpressionValue) {
        // null stands for a value of the other side's type.
        let leftType = left.type == .null ? (right.type == .null ? .number : right.type) : left.type
        let rightType = right.type == .null ? leftType : right.type
        let refusal = ExpressionError(
            "\(symbol) cannot take \(article(leftType)) and \(article(rightType)).",
            at: offset
        )
        switch (symbol, leftType, rightType) {
        case ("+", .number, .number):
            return (
                .number, { if case .number(let a) = $0, case .number(let b) = $1 { .number(a + b) } else { .empty } }
            )
        case ("-", .number, .number):
            return (
                .number, { if case .number(let a) = $0, case .number(let b) = $1 { .number(a - b) } else { .empty } }
            )
        case ("*", .number, .number):
            return (
                .number, { if case .number(let a) = $0, case .number(let b) = $1 { .number(a * b) } else { .empty } }
            )
        case ("/", .number, .number):
            return (
                .number,
                { if case .number(let a) = $0, case .number(let b) = $1, b != 0 { .number(a / b) } else { .empty } }
            )
        case ("%", .number, .number):
            return (
                .number,
                {
                    if case .number(let a) = $0, case .number(let b) = $1, b != 0 {
                        .number(a.truncatingRemainder(dividingBy: b))
                    } else {
                        .empty
                    }
                }
            )
        case ("+", .duration, .duration), ("-", .duration, .duration):
            let sign: Int64 = symbol == "+" ? 1 : -1
            return (
                .duration,
                {
                    if case .duration(let a) = $0, case .duration(let b) = $1 {
                        let (sum, overflow) = a.addingReportingOverflow(sign * b)
                        return overflow ? .empty : .duration(sum)
                    }
                    return .empty
                }
            )
        case ("+", .date, .duration), ("-", .date, .duration):
            let sign: Int64 = symbol == "+" ? 1 : -1
            return (
                .date,
                {
                    if case .date(let day) = $0, case .duration(let seconds) = $1 {
                        return Int32(exactly: Int64(day) + sign * (seconds / 86_400)).map { .date($0) } ?? .empty
                    }
                    return .empty
                }
            )
        case ("+", .duration, .date):
            return (
                .date,
                {
                    if case .duration(let seconds) = $0, case .date(let day) = $1 {
                        return Int32(exactly: Int64(day) + seconds / 86_400).map { .date($0) } ?? .empty
                    }
                    return .empty
                }
            )
        case ("+", .datetime, .duration), ("-", .datetime, .duration):
            let sign: Int64 = symbol == "+" ? 1 : -1
            return (
                .datetime,
                {
                    if case .datetime(let instant) = $0, case .duration(let seconds) = $1 {
                        return Self.shifted(instant, by: sign, seconds)
                    }
                    return .empty
                }
            )
        case ("+", .duration, .datetime):
            return (
                .datetime,
                {
                    if case .duration(let seconds) = $0, case .datetime(let instant) = $1 {
                        return Self.shifted(instant, by: 1, seconds)
                    }
                    return .empty
                }
            )
        case ("-", .date, .date):
            return (
                .number,
                {
                    if case .date(let a) = $0, case .date(let b) = $1 {
                        .number(Double(Int64(a) - Int64(b)))
                    } else {
                        .empty
                    }
                }
            )
        case ("-", .datetime, .datetime):
            return (
                .duration,
                {
                    if case .datetime(let a) = $0, case .datetime(let b) = $1 {
                        let (difference, overflow) = a.subtractingReportingOverflow(b)
                        return overflow ? .empty : .duration(difference / 1000)
                    }
                    return .empty
                }
            )
        case ("*", .duration, .number), ("*", .number, .duration):
            let durationFirst = leftType == .duration
            return (
                .duration,
                {
                    let (duration, number) = durationFirst ? ($0, $1) : ($1, $0)
                    if case .duration(let seconds) = duration, case .number(let factor) = number {
                        return Self.duration(Double(seconds) * factor)
                    }
                    return .empty
                }
            )
        case ("/", .duration, .number):
            return (
                .duration,
                {
                    if case .duration(let seconds) = $0, case .number(let divisor) = $1, divisor != 0 {
                        return Self.duration(Double(seconds) / divisor)
                    }
                    return .empty
                }
            )
        case ("/", .duration, .duration):
            return (
                .number,
                {
                    if case .duration(let a) = $0, case .duration(let b) = $1, b != 0 {
                        .number(Double(a) / Double(b))
                    } else {
                        .empty
                    }
                }
            )
        case ("+", .text, .text):
            throw ExpressionError("+ adds numbers; join text with & or concat.", at: offset)
        default:
            throw refusal
        }
    }

    /// `instant` moved by `sign` × `seconds`, or empty past the range.
    static func shifted(_ instant: Int64, by sign: Int64, _ seconds: Int64) -> ExpressionValue {
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return .empty }
        let (moved, past) = instant.addingReportingOverflow(sign * milliseconds)
        return past ? .empty : .datetime(moved)
    }

    /// A duration of `seconds`, rounded to whole seconds (half away from zero); empty when not
    /// finite or past the range.
    static func duration(_ seconds: Double) -> ExpressionValue {
        let rounded = seconds.rounded(.toNearestOrAwayFromZero)
        guard rounded.isFinite, abs(rounded) <= Double(ValueSyntax.longestDuration) else { return .empty }
        return .duration(Int64(rounded))
    }

    private func compare(_ symbol: String, _ left: Typed, _ right: Typed, at offset: Int) throws(ExpressionError)
        -> Typed
    {
        let type = try Self.common([left, right], symbol)
        guard type != .null else {
            throw ExpressionError("\(symbol) between two nulls has no meaning; use isEmpty.", at: offset)
        }
        let (a, b) = (left.evaluate, right.evaluate)
        let test: @Sendable (Int) -> Bool =
            switch symbol {
            case "=": { $0 == 0 }
            case "!=": { $0 != 0 }
            case "<": { $0 < 0 }
            case "<=": { $0 <= 0 }
            case ">": { $0 > 0 }
            default: { $0 >= 0 }
            }
        if type == .text && (symbol == "=" || symbol == "!=") {
            // Equal text is the same text, character for character.
            let equal = symbol == "="
            return Typed(
                type: .boolean,
                evaluate: { row in
                    guard case .text(let x) = a(row), case .text(let y) = b(row) else { return .empty }
                    return .boolean((x == y) == equal)
                },
                offset: offset
            )
        }
        return Typed(
            type: .boolean,
            evaluate: { row in
                let x = a(row)
                if x.isEmpty { return .empty }
                let y = b(row)
                if y.isEmpty { return .empty }
                return .boolean(test(x.compare(y)))
            },
            offset: offset
        )
    }

    // MARK: case

    private mutating func choice(
        _ subject: SyntaxNode?,
        _ branches: [(when: SyntaxNode, then: SyntaxNode)],
        _ otherwise: SyntaxNode?,
        at offset: Int
    ) throws(ExpressionError) -> Typed {
        let subjectTyped = try subject.map { node throws(ExpressionError) in try check(node) }
        var conditions: [ExpressionEvaluation] = []
        var results: [Typed] = []
        for branch in branches {
            let condition = try check(branch.when)
            if let subjectTyped {
                conditions.append(try compare("=", subjectTyped, condition, at: condition.offset).evaluate)
            } else {
                try expect(condition, .boolean, "when")
                conditions.append(condition.evaluate)
            }
            results.append(try check(branch.then))
        }
        let fallback = try otherwise.map { node throws(ExpressionError) in try check(node) }
        let type = try Self.common(results + (fallback.map { [$0] } ?? []), "case")
        let values = results.map(\.evaluate)
        let tests = conditions
        let other = fallback?.evaluate
        return Typed(
            type: type,
            evaluate: { row in
                for (condition, value) in zip(tests, values) where condition(row) == .boolean(true) {
                    return value(row)
                }
                return other?(row) ?? .empty
            },
            offset: offset
        )
    }
}
