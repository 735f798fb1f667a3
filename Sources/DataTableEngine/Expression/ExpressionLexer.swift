/// The words of an expression: numbers, quoted text, names, column references and operators,
/// each with the place it starts at (a 0-based count of Unicode scalars, the `offset` errors give).
struct ExpressionToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A number as written: digits, an optional fraction and exponent.
        case number(Double)
        /// Text in single or double quotes (a quote doubled stands for itself).
        case text(String)
        /// A name: a function, a keyword, or a column's key.
        case name(String)
        /// A column named by its key in backquotes (`` `unit price` ``).
        case quotedKey(String)
        /// A column named by its label in brackets (`[Lead time]`).
        case label(String)
        /// An operator or punctuation: `+ - * / % & = == != <> < <= > >= ( ) ,`.
        case symbol(String)
        /// The end of the text.
        case end
    }

    var kind: Kind
    /// Where the token starts, in Unicode scalars from the start of the text.
    var offset: Int
    /// How many Unicode scalars it spans.
    var length: Int
}

/// Why an expression was refused: one sentence, and the place in its text (Unicode scalars
/// from the start) where the trouble is.
public struct ExpressionError: Error, Sendable, Equatable {
    /// What is wrong, for the person who wrote the expression.
    public var message: String
    /// Where, in Unicode scalars from the start of the expression.
    public var offset: Int

    init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }
}

/// Splits an expression's text into ``ExpressionToken``s, in one pass.
struct ExpressionLexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(_ source: String) { scalars = Array(source.unicodeScalars) }

    /// Every token of the text, the last one ``ExpressionToken/Kind/end``.
    static func tokens(of source: String) throws(ExpressionError) -> [ExpressionToken] {
        var lexer = ExpressionLexer(source)
        var tokens: [ExpressionToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    private static func isNamePart(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || scalar.properties.numericType != nil
    }

    private static func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return scalar >= "0" && scalar <= "9"
    }

    /// Whether `text` can be written as a bare name (no quoting) and is not a word of the
    /// language.
    static func isBareName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isNameStart(first),
            text.unicodeScalars.allSatisfy(isNamePart)
        else { return false }
        return !ExpressionParser.keywords.contains(text.lowercased())
    }

    private mutating func next() throws(ExpressionError) -> ExpressionToken {
        while let scalar = peek(), scalar.properties.isWhitespace { position += 1 }
        let start = position
        func token(_ kind: ExpressionToken.Kind) -> ExpressionToken {
            ExpressionToken(kind: kind, offset: start, length: position - start)
        }
        guard let scalar = peek() else { return token(.end) }
        if Self.isDigit(scalar) || (scalar == "." && Self.isDigit(peek(1))) {
            return token(.number(try number()))
        }
        if Self.isNameStart(scalar) {
            var name = String.UnicodeScalarView()
            while let part = peek(), Self.isNamePart(part) {
                name.append(part)
                position += 1
            }
            return token(.name(String(name)))
        }
        switch scalar {
        case "'", "\"":
            return token(.text(try quoted(until: scalar, what: "text")))
        case "`":
            return token(.quotedKey(try quoted(until: "`", what: "column key")))
        case "[":
            return token(.label(try quoted(until: "]", what: "column label")))
        default:
            break
        }
        position += 1
        let two = peek().map { String(scalar) + String($0) }
        if let two, ["==", "!=", "<>", "<=", ">="].contains(two) {
            position += 1
            return token(.symbol(two))
        }
        let one = String(scalar)
        guard ["+", "-", "*", "/", "%", "&", "=", "<", ">", "(", ")", ","].contains(one) else {
            throw ExpressionError("\(one) is not part of the expression language.", at: start)
        }
        return token(.symbol(one))
    }

    /// Text up to the closing `close` (the opening one is at the current place); a closing
    /// character written twice stands for itself.
    private mutating func quoted(until close: Unicode.Scalar, what: String) throws(ExpressionError) -> String {
        let start = position
        position += 1
        var text = String.UnicodeScalarView()
        while let scalar = peek() {
            position += 1
            if scalar == close {
                guard peek() == close else { return String(text) }
                position += 1
            }
            text.append(scalar)
        }
        throw ExpressionError("This \(what) has no closing \(close).", at: start)
    }

    /// A number: digits, an optional fraction, an optional exponent.
    private mutating func number() throws(ExpressionError) -> Double {
        let start = position
        var text = ""
        while Self.isDigit(peek()) {
            text.unicodeScalars.append(peek()!)
            position += 1
        }
        if peek() == ".", Self.isDigit(peek(1)) || !text.isEmpty {
            text += "."
            position += 1
            while Self.isDigit(peek()) {
                text.unicodeScalars.append(peek()!)
                position += 1
            }
        }
        if peek() == "e" || peek() == "E" {
            let sign = peek(1) == "+" || peek(1) == "-"
            if Self.isDigit(peek(sign ? 2 : 1)) {
                text += "e"
                if sign { text.unicodeScalars.append(peek(1)!) }
                position += sign ? 2 : 1
                while Self.isDigit(peek()) {
                    text.unicodeScalars.append(peek()!)
                    position += 1
                }
            }
        }
        if let after = peek(), Self.isNameStart(after) {
            throw ExpressionError("A number must not run into a name; put an operator between them.", at: start)
        }
        guard let value = Double(text), value.isFinite else {
            throw ExpressionError("\(text) is not a number this language can hold.", at: start)
        }
        return value
    }
}
