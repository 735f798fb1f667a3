/// Reads a request's params object straight into typed values in one pass over its bytes, for
/// the small requests clients send by the thousand (`get`, `edit`, `add`, `select`, `scroll`):
/// `JSONDecoder` costs several times the work behind them.
///
/// Like ``EnvelopeScanner`` it only ever accepts: anything it does not read with certainty — a
/// member it does not know, a member given twice, a value of an unexpected type, a number with a
/// fraction or exponent that a decoder might read as a whole number, a number of more than 18
/// digits, an escape it does not unescape — makes the reading method return `nil`, and the caller
/// decodes the params with `JSONDecoder`, which decides and words any error. So a value read
/// here is the value `JSONDecoder` would have read; the test suite and the fuzzer check that.
///
/// It reads bytes the envelope scanner has already checked against the JSON grammar (the params
/// member of a line it accepted), and stays safe on any bytes: it never reads out of bounds.
public struct ParamsReader: JSONByteCursor {
    let bytes: UnsafeRawBufferPointer
    var position = 0
    /// Whether a member was seen, by the bit the request type gives it.
    private var seen: UInt64 = 0

    /// A reader at the start of `bytes`, which it reads in place and must not outlive.
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// A member name, matched against names written as string literals (`case "table":`).
    public struct Key {
        let bytes: UnsafeRawBufferPointer

        /// Whether the member name is exactly `pattern`, byte for byte.
        public static func ~= (pattern: StaticString, key: Key) -> Bool {
            pattern.withUTF8Buffer { name in
                guard name.count == key.bytes.count else { return false }
                for index in 0..<name.count where name[index] != key.bytes[index] { return false }
                return true
            }
        }
    }

    // MARK: Objects

    /// Reads an object, each member's value by `body` (which gets the member's name and returns
    /// `false` when it cannot read the value). Members marked with ``first(_:)`` inside `body`
    /// belong to this object.
    public mutating func object(_ body: (inout ParamsReader, Key) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        let outer = seen
        seen = 0
        defer { seen = outer }
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return true }
        while true {
            skipWhitespace()
            guard let name = plainString() else { return false }
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            guard body(&self, Key(bytes: UnsafeRawBufferPointer(rebasing: bytes[name]))) else { return false }
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}"))
        }
    }

    /// Marks member number `bit` (0–63) as seen; `false` when it was seen already (a decoder
    /// decides what a duplicate member means).
    public mutating func first(_ bit: Int) -> Bool {
        let mask: UInt64 = 1 << UInt64(bit)
        guard seen & mask == 0 else { return false }
        seen |= mask
        return true
    }

    // MARK: Values

    /// `null`, consumed when it is next.
    public mutating func null() -> Bool {
        literal("null")
    }

    /// Reads an optional member's value into `target`: `null` leaves it `nil` (as
    /// `decodeIfPresent` does), else `read` must read it.
    public mutating func optional<Value>(_ target: inout Value?, _ read: (inout ParamsReader) -> Value?) -> Bool {
        if null() {
            target = nil
            return true
        }
        guard let value = read(&self) else { return false }
        target = value
        return true
    }

    /// Reads a member's value into `target` with `read`, which also reads a `null` (a present
    /// `null` that means something, as `edit`'s `value` does).
    public mutating func assign<Value>(_ target: inout Value?, _ read: (inout ParamsReader) -> Value?) -> Bool {
        guard let value = read(&self) else { return false }
        target = value
        return true
    }

    /// A string, its two-character escapes unescaped; `nil` when the next value is not a string or
    /// holds a `\u` escape.
    public mutating func string() -> String? {
        guard let first = peek(), first == UInt8(ascii: "\"") else { return nil }
        if let plain = plainString() {
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[plain]), as: UTF8.self)
        }
        return escapedString()
    }

    /// `true` or `false`; `nil` when the next value is neither.
    public mutating func bool() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// A whole number written without fraction or exponent, of at most 18 digits (so it fits any
    /// integer type a decoder would read it as).
    public mutating func int() -> Int? {
        guard let number = number(), case .integer(let value) = number else { return nil }
        return Int(value)
    }

    /// Any number, as `Double` reads it.
    public mutating func double() -> Double? {
        let start = position
        guard skipNumber() else { return nil }
        guard position - start <= 32,
            let value = Double(
                String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            ),
            value.isFinite
        else { return nil }
        return value
    }

    /// An array of strings.
    public mutating func strings() -> [String]? {
        array { $0.string() }
    }

    /// An array whose elements `read` reads.
    public mutating func array<Element>(_ read: (inout ParamsReader) -> Element?) -> [Element]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return elements }
        while true {
            skipWhitespace()
            guard let element = read(&self) else { return nil }
            elements.append(element)
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "]")) else { return nil }
            return elements
        }
    }

    /// Any value, as ``JSONValue``'s decoding reads it.
    public mutating func value(depth: Int = 0) -> JSONValue? {
        guard depth < EnvelopeScanner.maximumDepth, let first = peek() else { return nil }
        switch first {
        case UInt8(ascii: "\""):
            return string().map(JSONValue.string)
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return bool().map(JSONValue.bool)
        case UInt8(ascii: "n"):
            return null() ? .null : nil
        case UInt8(ascii: "["):
            return array { $0.value(depth: depth + 1) }.map(JSONValue.array)
        case UInt8(ascii: "{"):
            position += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return .object(members) }
            while true {
                skipWhitespace()
                guard let name = string() else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = value(depth: depth + 1), members.updateValue(value, forKey: name) == nil else {
                    return nil
                }
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                return .object(members)
            }
        default:
            return number()
        }
    }

    // MARK: Pieces

    /// A string without escapes: the range of its content, the quotes consumed. `nil` (nothing
    /// consumed) when the next value is not such a string.
    private mutating func plainString() -> Range<Int>? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        var end = position + 1
        while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "\""):
                let content = position + 1..<end
                position = end + 1
                return content
            case UInt8(ascii: "\\"), 0x00..<0x20:
                return nil
            default:
                end += 1
            }
        }
        return nil
    }

    /// A string with the two-character escapes; `\u` and anything odd give `nil`.
    private mutating func escapedString() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var text: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { return nil }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                default: return nil
                }
            case 0x00..<0x20:
                return nil
            default:
                text.append(byte)
            }
        }
        return nil
    }

    /// A number as ``JSONValue`` reads it: `.integer` for a whole number written plainly,
    /// `.number` for one with a fraction or exponent whose value is not whole (a whole one, like
    /// `2.0` or `1e3`, a decoder may read as an integer: `nil`).
    private mutating func number() -> JSONValue? {
        let start = position
        guard skipNumber() else { return nil }
        let digits = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
        guard digits.count <= 18 else { return nil }
        var value: Int64 = 0
        var negative = false
        for byte in digits {
            switch byte {
            case UInt8(ascii: "-"):
                negative = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            default:
                guard let number = Double(String(decoding: digits, as: UTF8.self)), number.isFinite,
                    number.rounded(.towardZero) != number
                else { return nil }
                return .number(number)
            }
        }
        // "-0" is left to the decoder.
        guard !(negative && value == 0) else { return nil }
        return .integer(negative ? -value : value)
    }

}

/// Params that can be read by a ``ParamsReader``.
public protocol ReadableParams: DataTableRequest {
    /// The params in `reader` (at the params object, read with ``ParamsReader/object(_:)``), or `nil` when they must be decoded with
    /// `JSONDecoder` instead: anything not read with certainty gives `nil`.
    init?(reading reader: inout ParamsReader)
}

extension ReadableParams {
    /// The params in `bytes` (exactly the params object), or `nil` as ``init(reading:)`` says.
    public static func read(_ bytes: UnsafeRawBufferPointer) -> Self? {
        var reader = ParamsReader(bytes)
        reader.skipWhitespace()
        guard let params = Self(reading: &reader) else { return nil }
        reader.skipWhitespace()
        return reader.position == bytes.count ? params : nil
    }

    /// The params read by ``read(_:)``; `nil` leaves them to `JSONDecoder`.
    public static func readParams(_ bytes: UnsafeRawBufferPointer) -> Self? { read(bytes) }
}
