/// An expression as written, before its names are looked up: a tree of ``SyntaxNode``s.
struct SyntaxNode: Sendable {
    indirect enum Kind: Sendable {
        case number(Double)
        case text(String)
        case boolean(Bool)
        /// `null`: no value.
        case null
        /// A column: by key (bare or in backquotes) or by label (in brackets).
        case column(ColumnName)
        /// `-x`.
        case negate(SyntaxNode)
        /// `not x`.
        case not(SyntaxNode)
        /// Operands joined by operators of one precedence, left to right: `a + b - c`,
        /// `a and b and c`. (Kept flat, so a long sum nests no deeper than one term.)
        case chain(first: SyntaxNode, rest: [(symbol: String, operand: SyntaxNode, offset: Int)])
        /// `a < b` and the other comparisons (which do not chain).
        case compare(symbol: String, SyntaxNode, SyntaxNode)
        /// `name(arguments)`.
        case call(name: String, arguments: [SyntaxNode])
        /// `case [subject] when … then … [else …] end`.
        case choice(subject: SyntaxNode?, branches: [(when: SyntaxNode, then: SyntaxNode)], otherwise: SyntaxNode?)
    }

    var kind: Kind
    /// Where the node's text starts (Unicode scalars from the start).
    var offset: Int
}

/// How an expression names a column.
enum ColumnName: Sendable, Hashable {
    /// By key: a bare name, or in backquotes.
    case key(String)
    /// By label, in brackets.
    case label(String)
}

/// A column name as written in an expression: what it says and the span of text it covers,
/// so that a rename can write the new name in its place.
struct WrittenReference: Sendable {
    var name: ColumnName
    var offset: Int
    var length: Int
}

/// A recursive-descent parser of the expression language, bounded by ``ExpressionLimits``:
/// text past the size limit or nesting past the depth limit is refused before any of it is
/// looked at further.
struct ExpressionParser {
    private let tokens: [ExpressionToken]
    private var index = 0
    private var depth = 0
    /// Every column name met, in order of the text.
    private(set) var references: [WrittenReference] = []

    /// Words of the language; a column with one of these keys is written in backquotes.
    static let keywords: Set<String> = [
        "and", "or", "not", "true", "false", "null", "case", "when", "then", "else", "end",
    ]

    /// The tree of `source`, and the column names it uses; or why it is not an expression.
    static func parse(_ source: String) throws(ExpressionError) -> (tree: SyntaxNode, references: [WrittenReference]) {
        guard source.utf8.count <= ExpressionLimits.maximumBytes else {
            throw ExpressionError(
                "An expression may be at most \(ExpressionLimits.maximumBytes) bytes; this one is \(source.utf8.count).",
                at: Self.scalarOffset(ofByte: ExpressionLimits.maximumBytes, in: source)
            )
        }
        var parser = ExpressionParser(tokens: try ExpressionLexer.tokens(of: source))
        guard parser.current.kind != .end else { throw ExpressionError("The expression is empty.", at: 0) }
        let tree = try parser.expression()
        guard parser.current.kind == .end else {
            throw ExpressionError("Expected an operator or the end of the expression here.", at: parser.current.offset)
        }
        return (tree, parser.references)
    }

    /// The scalar offset at which byte `byte` of `source` falls.
    private static func scalarOffset(ofByte byte: Int, in source: String) -> Int {
        var bytes = 0
        var scalars = 0
        for scalar in source.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > byte { break }
            scalars += 1
        }
        return scalars
    }

    private init(tokens: [ExpressionToken]) { self.tokens = tokens }

    private var current: ExpressionToken { tokens[index] }

    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    /// Whether the current token is the keyword `word` (in any case).
    private func atKeyword(_ word: String) -> Bool {
        if case .name(let name) = current.kind { return name.lowercased() == word }
        return false
    }

    private func atSymbol(_ symbols: Set<String>) -> String? {
        if case .symbol(let symbol) = current.kind, symbols.contains(symbol) { return symbol }
        return nil
    }

    private mutating func expect(symbol: String, _ message: String) throws(ExpressionError) {
        guard atSymbol([symbol]) != nil else { throw ExpressionError(message, at: current.offset) }
        advance()
    }

    private mutating func expectKeyword(_ word: String, _ message: String) throws(ExpressionError) {
        guard atKeyword(word) else { throw ExpressionError(message, at: current.offset) }
        advance()
    }

    /// Goes one level deeper, refusing past the limit.
    private mutating func deeper(at offset: Int) throws(ExpressionError) {
        depth += 1
        guard depth <= ExpressionLimits.maximumDepth else {
            throw ExpressionError(
                "The expression nests deeper than \(ExpressionLimits.maximumDepth) levels here.",
                at: offset
            )
        }
    }

    private mutating func expression() throws(ExpressionError) -> SyntaxNode {
        try deeper(at: current.offset)
        defer { depth -= 1 }
        return try keywordChain("or") { parser throws(ExpressionError) in
            try parser.keywordChain("and") { parser throws(ExpressionError) in try parser.negation() }
        }
    }

    /// Operands joined by the keyword `word` (`and`, `or`).
    private mutating func keywordChain(
        _ word: String,
        operand: (inout ExpressionParser) throws(ExpressionError) -> SyntaxNode
    ) throws(ExpressionError) -> SyntaxNode {
        let first = try operand(&self)
        var rest: [(symbol: String, operand: SyntaxNode, offset: Int)] = []
        while atKeyword(word) {
            let offset = current.offset
            advance()
            rest.append((word, try operand(&self), offset))
        }
        return rest.isEmpty ? first : SyntaxNode(kind: .chain(first: first, rest: rest), offset: first.offset)
    }

    private mutating func negation() throws(ExpressionError) -> SyntaxNode {
        guard atKeyword("not") else { return try comparison() }
        let offset = current.offset
        advance()
        try deeper(at: offset)
        defer { depth -= 1 }
        return SyntaxNode(kind: .not(try negation()), offset: offset)
    }

    private mutating func comparison() throws(ExpressionError) -> SyntaxNode {
        let left = try symbolChain(["&"]) { parser throws(ExpressionError) in
            try parser.symbolChain(["+", "-"]) { parser throws(ExpressionError) in
                try parser.symbolChain(["*", "/", "%"]) { parser throws(ExpressionError) in try parser.unary() }
            }
        }
        guard let symbol = atSymbol(["=", "==", "!=", "<>", "<", "<=", ">", ">="]) else { return left }
        advance()
        let right = try symbolChain(["&"]) { parser throws(ExpressionError) in
            try parser.symbolChain(["+", "-"]) { parser throws(ExpressionError) in
                try parser.symbolChain(["*", "/", "%"]) { parser throws(ExpressionError) in try parser.unary() }
            }
        }
        if atSymbol(["=", "==", "!=", "<>", "<", "<=", ">", ">="]) != nil {
            throw ExpressionError("Comparisons do not chain; join them with and.", at: current.offset)
        }
        let canonical = symbol == "==" ? "=" : symbol == "<>" ? "!=" : symbol
        return SyntaxNode(kind: .compare(symbol: canonical, left, right), offset: left.offset)
    }

    private mutating func symbolChain(
        _ symbols: Set<String>,
        operand: (inout ExpressionParser) throws(ExpressionError) -> SyntaxNode
    ) throws(ExpressionError) -> SyntaxNode {
        let first = try operand(&self)
        var rest: [(symbol: String, operand: SyntaxNode, offset: Int)] = []
        while let symbol = atSymbol(symbols) {
            let offset = current.offset
            advance()
            rest.append((symbol, try operand(&self), offset))
        }
        return rest.isEmpty ? first : SyntaxNode(kind: .chain(first: first, rest: rest), offset: first.offset)
    }

    private mutating func unary() throws(ExpressionError) -> SyntaxNode {
        guard let sign = atSymbol(["-", "+"]) else { return try primary() }
        let offset = current.offset
        advance()
        try deeper(at: offset)
        defer { depth -= 1 }
        let operand = try unary()
        return sign == "+" ? operand : SyntaxNode(kind: .negate(operand), offset: offset)
    }

    private mutating func primary() throws(ExpressionError) -> SyntaxNode {
        let token = current
        switch token.kind {
        case .number(let value):
            advance()
            return SyntaxNode(kind: .number(value), offset: token.offset)
        case .text(let text):
            advance()
            return SyntaxNode(kind: .text(text), offset: token.offset)
        case .quotedKey(let key):
            advance()
            return reference(.key(key), token)
        case .label(let label):
            advance()
            return reference(.label(label), token)
        case .symbol("("):
            advance()
            let inner = try expression()
            try expect(symbol: ")", "Expected ) to close the ( at \(token.offset).")
            return inner
        case .name(let name):
            advance()
            switch name.lowercased() {
            case "true": return SyntaxNode(kind: .boolean(true), offset: token.offset)
            case "false": return SyntaxNode(kind: .boolean(false), offset: token.offset)
            case "null": return SyntaxNode(kind: .null, offset: token.offset)
            case "case": return try choice(at: token.offset)
            case let word where Self.keywords.contains(word):
                throw ExpressionError("\(name) cannot start a value here.", at: token.offset)
            default: break
            }
            guard atSymbol(["("]) != nil else { return reference(.key(name), token) }
            advance()
            try deeper(at: token.offset)
            defer { depth -= 1 }
            var arguments: [SyntaxNode] = []
            if atSymbol([")"]) == nil {
                repeat {
                    if !arguments.isEmpty { advance() }
                    arguments.append(try expression())
                } while atSymbol([","]) != nil
            }
            try expect(symbol: ")", "Expected , or ) in the arguments of \(name).")
            return SyntaxNode(kind: .call(name: name, arguments: arguments), offset: token.offset)
        case .end:
            throw ExpressionError("The expression ends where a value was expected.", at: token.offset)
        case .symbol(let symbol):
            throw ExpressionError("Expected a value, not \(symbol).", at: token.offset)
        }
    }

    private mutating func reference(_ name: ColumnName, _ token: ExpressionToken) -> SyntaxNode {
        references.append(WrittenReference(name: name, offset: token.offset, length: token.length))
        return SyntaxNode(kind: .column(name), offset: token.offset)
    }

    /// `case [subject] when a then b … [else c] end`, after `case`.
    private mutating func choice(at offset: Int) throws(ExpressionError) -> SyntaxNode {
        try deeper(at: offset)
        defer { depth -= 1 }
        let subject = atKeyword("when") ? nil : try expression()
        var branches: [(when: SyntaxNode, then: SyntaxNode)] = []
        while atKeyword("when") {
            advance()
            let condition = try expression()
            try expectKeyword("then", "Expected then after the when at \(condition.offset).")
            branches.append((condition, try expression()))
        }
        guard !branches.isEmpty else { throw ExpressionError("A case needs at least one when.", at: current.offset) }
        var otherwise: SyntaxNode?
        if atKeyword("else") {
            advance()
            otherwise = try expression()
        }
        try expectKeyword("end", "Expected when, else or end in the case at \(offset).")
        return SyntaxNode(kind: .choice(subject: subject, branches: branches, otherwise: otherwise), offset: offset)
    }
}

/// The bounds every expression keeps, so that no expression a client types can take more
/// than time linear in its length to check or to work out for a row.
public enum ExpressionLimits {
    /// The longest expression, in UTF-8 bytes.
    public static let maximumBytes = 4096
    /// The deepest nesting of parentheses, calls, `case`, `not` and signs.
    public static let maximumDepth = 32
    /// The longest text a step of an expression makes (longer results are empty), so that
    /// nested `replace` or `&` cannot grow a value without bound.
    public static let maximumTextBytes = 65_536
}
