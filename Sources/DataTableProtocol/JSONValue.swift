/// Any JSON value, for the parts of the protocol whose shape is open: request ids, error details,
/// feature lists, and replies a client has not typed.
public enum JSONValue: Hashable, Sendable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number that is a whole number and fits in 64 bits; kept apart so `7` comes back as `7`.
    case integer(Int64)
    /// A number kept as a `Double`: one with a fraction, or one too large for ``integer(_:)``.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, its elements in order.
    case array([JSONValue])
    /// An object, by member name; member order is not kept.
    case object([String: JSONValue])

    /// The value's JSON type name as a person reads it in an error message.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The member `key` when this is an object, else `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The text when this is a string, else `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number when this is a whole number that fits in `Int` (`3.0` included), else `nil`.
    public var intValue: Int? {
        switch self {
        case .integer(let value): Int(exactly: value)
        case .number(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The number as a `Double` when this is a number (a large integer rounded), else `nil`.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// The boolean when this is `true` or `false`, else `nil`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements when this is an array, else `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value: a number as `.integer` when the decoder reads it as an `Int64`, else
    /// as `.number`; a number too large for a `Double` throws.
    public init(from decoder: any Decoder) throws {
        // Each type is tried in turn and every miss throws, which costs far more than a hit:
        // strings (ids, cell values) come first, then numbers, then the rarer kinds.
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try Self.number(container) {
            self = .number(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The number in `container`; `nil` when it holds something else. A number too large for a
    /// `Double` is an error of its own, not "something else".
    private static func number(_ container: any SingleValueDecodingContainer) throws -> Double? {
        do {
            return try container.decode(Double.self)
        } catch is DecodingError {
            return nil
        } catch {
            // The decoder's own error for digits no Double holds (1e309).
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription: "the number is too large to read."
                )
            )
        }
    }

    /// Encodes the JSON the value stands for; `.integer` is written without a fraction.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `nil` as `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal as `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal as `.integer`.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A floating-point literal as `.number`.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string literal as `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal as `.array`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal as `.object`; of a key given twice, the last value is kept.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
