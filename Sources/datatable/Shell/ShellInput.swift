import DataTableProtocol
import Foundation

/// What one line typed at `datatable shell` asks for.
enum ShellInput: Equatable {
    /// Nothing (a blank line or a comment).
    case nothing
    /// `quit` or `exit` (or the end of input).
    case quit
    /// `help`, or `help METHOD`.
    case help(String?)
    /// `clear` alone: the screen (with params, `clear` is the method).
    case clearScreen
    /// A request: the method and its params (`nil` for none), or a whole JSON request line.
    case request(method: String, params: JSONValue?)
    case line(String)

    /// A typed line: `METHOD`, `METHOD {"json":"params"}`, `METHOD key=value …` (a dotted key
    /// nests: `viewport.height=20`; a value that reads as JSON is that JSON, anything else text),
    /// or a whole JSON request (object or batch array).
    static func parse(_ typed: String) throws(ShellInputError) -> ShellInput {
        let text = typed.trimmingCharacters(in: .whitespaces)
        if text.isEmpty || text.hasPrefix("#") { return .nothing }
        if text.hasPrefix("{") || text.hasPrefix("[") { return .line(text) }
        let words = try words(of: text)
        let method = words[0]
        switch method.lowercased() {
        case "quit", "exit": return .quit
        case "clear" where words.count == 1: return .clearScreen
        case "help", "?":
            guard words.count <= 2 else { throw ShellInputError("help takes one method name at most.") }
            return .help(words.count == 2 ? words[1] : nil)
        default: break
        }
        let rest = Array(words.dropFirst())
        if rest.count == 1, rest[0].hasPrefix("{") {
            guard let params = json(rest[0]), params.objectValue != nil else {
                throw ShellInputError("The params are not a JSON object: \(rest[0])")
            }
            return .request(method: method, params: params)
        }
        var params: [String: JSONValue] = [:]
        for word in rest {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw ShellInputError("Give params as name=value (or one JSON object), not \(word).")
            }
            let path = word[..<equals].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.contains(where: \.isEmpty) else {
                throw ShellInputError("\(word[..<equals]) is not a param name.")
            }
            let raw = String(word[word.index(after: equals)...])
            try set(value(of: raw), at: path, in: &params)
        }
        return .request(method: method, params: params.isEmpty ? nil : .object(params))
    }

    /// `text` cut at spaces outside quotes and brackets; a word in single quotes loses them.
    static func words(of text: String) throws(ShellInputError) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        var quote: Character?
        var escaped = false
        var hasWord = false
        for character in text {
            if let open = quote {
                if escaped {
                    escaped = false
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else if character == open {
                    quote = nil
                    if open == "'" { continue }
                }
                current.append(character)
                continue
            }
            switch character {
            case " " where depth == 0, "\t" where depth == 0:
                if hasWord { words.append(current) }
                current = ""
                hasWord = false
                continue
            case "'" where depth == 0:
                quote = "'"
                hasWord = true
                continue
            case "\"": quote = "\""
            case "[", "{": depth += 1
            case "]", "}": depth -= 1
            default: break
            }
            current.append(character)
            hasWord = true
        }
        guard quote == nil else { throw ShellInputError("A quote is not closed.") }
        guard depth == 0 else { throw ShellInputError("A bracket is not closed.") }
        if hasWord { words.append(current) }
        return words
    }

    /// A param's value as typed: JSON when it reads as JSON (`5`, `true`, `["A1"]`, `"text"`),
    /// else the text itself.
    static func value(of raw: String) -> JSONValue {
        json(raw) ?? .string(raw)
    }

    private static func json(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    private static func set(
        _ value: JSONValue,
        at path: [String],
        in object: inout [String: JSONValue]
    ) throws(ShellInputError) {
        guard path.count > 1 else {
            guard object[path[0]] == nil else { throw ShellInputError("\(path[0]) is given twice.") }
            object[path[0]] = value
            return
        }
        var inner: [String: JSONValue]
        switch object[path[0]] {
        case nil: inner = [:]
        case .object(let members)?: inner = members
        default: throw ShellInputError("\(path[0]) is given twice.")
        }
        try set(value, at: Array(path.dropFirst()), in: &inner)
        object[path[0]] = .object(inner)
    }
}

/// A line `datatable shell` cannot make a request of, and why.
struct ShellInputError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
