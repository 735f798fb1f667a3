import Foundation

/// Reads the envelope of a request line in one pass over its bytes, without a JSON decoder, for
/// the lines nearly every client sends: an object whose `jsonrpc`, `id` and `method` are plain
/// strings, whole numbers, booleans or null.
///
/// It checks the whole line against the JSON grammar on the way (RFC 8259, strictly) and only
/// ever accepts: anything it does not read with certainty — an escape in an envelope member or
/// a `\u` escape anywhere, a fractional or very long id, an envelope member given twice, nesting
/// deeper than ``maximumDepth``, any syntax error — makes it return `nil`, and the caller decodes
/// the line with `JSONDecoder`, which decides. So a header it returns is the header
/// `JSONDecoder` would have read; the test suite and the fuzzer check that.
public enum EnvelopeScanner {
    /// Deeper values are left to `JSONDecoder` (and its own limit).
    public static let maximumDepth = 64

    /// The header of `line`, or `nil` when the line is not in the form read here. The line must
    /// be UTF-8 (the dispatcher refuses any other first); the scanner does not check that.
    public static func header(_ line: Data) -> RequestHeader? {
        line.withUnsafeBytes { header($0) }
    }

    /// The header of the line in `bytes`, as ``header(_:)-(Data)`` reads it.
    public static func header(_ bytes: UnsafeRawBufferPointer) -> RequestHeader? {
        var scanner = Scanner(bytes: bytes)
        return scanner.header()
    }

    /// The text of the line's `id` as the client wrote it, when it is a number: for echoing an id
    /// a `Double` would round (a whole number past 2^63, many digits after the point) exactly.
    /// `nil` when the id is not a number or the line is not read here.
    public static func idNumberText(_ line: Data) -> String? {
        line.withUnsafeBytes { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.idNumberText()
        }
    }

    /// Where each element of a batch (a top-level array) lies in `line`, so each request is
    /// answered from the bytes the client sent; `nil` when the line is not read here.
    public static func elementRanges(_ line: Data) -> [Range<Int>]? {
        line.withUnsafeBytes { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.elementRanges()
        }
    }

    private struct Scanner: JSONByteCursor {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        private enum Member {
            case jsonrpc, id, method, params, other
        }

        mutating func header() -> RequestHeader? {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var jsonrpc: JSONValue?
            var id: JSONValue?
            var hasID = false
            var method: JSONValue?
            var params = RequestHeader.ParamsShape.absent
            var paramsRange: Range<Int>?
            var seen: (jsonrpc: Bool, method: Bool, params: Bool) = (false, false, false)
            skipWhitespace()
            if !take(UInt8(ascii: "}")) {
                while true {
                    skipWhitespace()
                    guard let member = memberName() else { return nil }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return nil }
                    skipWhitespace()
                    switch member {
                    case .jsonrpc:
                        guard !seen.jsonrpc, let value = plainValue() else { return nil }
                        seen.jsonrpc = true
                        // As `decodeIfPresent` reads it, null is absent (and `JSONValue?.none`,
                        // since a bare `nil` would be JSONValue's own `.null`).
                        jsonrpc = value == .null ? JSONValue?.none : value
                    case .id:
                        guard !hasID, let value = plainValue() else { return nil }
                        hasID = true
                        id = value
                    case .method:
                        guard !seen.method, let value = plainValue() else { return nil }
                        seen.method = true
                        method = value == .null ? JSONValue?.none : value
                    case .params:
                        guard !seen.params, let first = peek() else { return nil }
                        seen.params = true
                        switch first {
                        case UInt8(ascii: "{"): params = .object
                        case UInt8(ascii: "["): params = .other("an array")
                        case UInt8(ascii: "\""): params = .other("a string")
                        case UInt8(ascii: "t"), UInt8(ascii: "f"): params = .other("a boolean")
                        case UInt8(ascii: "n"): params = .absent
                        default: params = .other("a number")
                        }
                        let start = position
                        guard skipValue(depth: 1) else { return nil }
                        if params == .object { paramsRange = start..<position }
                    case .other:
                        guard skipValue(depth: 1) else { return nil }
                    }
                    skipWhitespace()
                    if take(UInt8(ascii: ",")) { continue }
                    guard take(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            skipWhitespace()
            guard position == bytes.count else { return nil }
            return RequestHeader(
                jsonrpc: jsonrpc,
                id: id,
                hasID: hasID,
                method: method,
                params: params,
                paramsRange: paramsRange
            )
        }

        mutating func elementRanges() -> [Range<Int>]? {
            skipWhitespace()
            guard take(UInt8(ascii: "[")) else { return nil }
            var ranges: [Range<Int>] = []
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return finished(ranges) }
            while true {
                skipWhitespace()
                let start = position
                guard skipValue(depth: 1) else { return nil }
                ranges.append(start..<position)
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "]")) else { return nil }
                return finished(ranges)
            }
        }

        private mutating func finished(_ ranges: [Range<Int>]) -> [Range<Int>]? {
            skipWhitespace()
            return position == bytes.count ? ranges : nil
        }

        mutating func idNumberText() -> String? {
            skipWhitespace()
            guard take(UInt8(ascii: "{")) else { return nil }
            while true {
                skipWhitespace()
                guard let member = memberName() else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                if member == .id, let first = peek(), first == UInt8(ascii: "-") || (0x30...0x39).contains(first) {
                    let start = position
                    guard skipNumber() else { return nil }
                    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                }
                guard skipValue(depth: 1) else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ",")) else { return nil }
            }
        }

        // MARK: Pieces

        /// A member name, as one of the envelope's or `.other`.
        private mutating func memberName() -> Member? {
            guard let range = string(), let plain = range.plain else { return nil }
            guard plain else { return .other }
            switch range.count {
            case 2 where matches(range.start, "id"): return .id
            case 6 where matches(range.start, "method"): return .method
            case 6 where matches(range.start, "params"): return .params
            case 7 where matches(range.start, "jsonrpc"): return .jsonrpc
            default: return .other
            }
        }

        private func matches(_ start: Int, _ name: StaticString) -> Bool {
            name.withUTF8Buffer { name in
                for index in 0..<name.count where bytes[start + index] != name[index] { return false }
                return true
            }
        }

        /// A value of the envelope: a string without escapes, a whole number of at most 18
        /// digits, `true`, `false` or `null`.
        private mutating func plainValue() -> JSONValue? {
            guard let first = peek() else { return nil }
            switch first {
            case UInt8(ascii: "\""):
                let start = position + 1
                guard let range = string(), range.plain == true else { return nil }
                return .string(
                    String(
                        decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<start + range.count]),
                        as: UTF8.self
                    )
                )
            case UInt8(ascii: "t"):
                return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"):
                return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"):
                return literal("null") ? .null : nil
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = position
                guard skipNumber(), position - start <= 18 else { return nil }
                var value: Int64 = 0
                var negative = false
                for byte in bytes[start..<position] {
                    switch byte {
                    case UInt8(ascii: "-"): negative = true
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                    default: return nil  // a fraction or an exponent
                    }
                }
                // "-0" reads as 0 either way, but leave that oddity to the decoder.
                guard !(negative && value == 0) else { return nil }
                return .integer(negative ? -value : value)
            default:
                return nil
            }
        }

        /// Skips a string starting at the quote. Returns where its content starts, how many
        /// bytes it has, and whether it is plain (no escapes); `plain` is `nil` when the string
        /// has an escape this scanner leaves to the decoder (`\u`). `nil` when it is not a string.
        private mutating func string() -> (start: Int, count: Int, plain: Bool?)? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = position
            var plain: Bool? = true
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return (start, position - 1 - start, plain)
                case UInt8(ascii: "\\"):
                    guard position + 1 < bytes.count else { return nil }
                    switch bytes[position + 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        if plain == true { plain = false }
                    case UInt8(ascii: "u"):
                        plain = nil
                    default:
                        return nil
                    }
                    position += 2
                case 0x00..<0x20:
                    return nil
                default:
                    position += 1
                }
            }
            return nil
        }

        /// Skips any value, checking the JSON grammar; `false` on an error or anything left to
        /// the decoder.
        private mutating func skipValue(depth: Int) -> Bool {
            guard depth <= EnvelopeScanner.maximumDepth, let first = peek() else { return false }
            switch first {
            case UInt8(ascii: "{"):
                position += 1
                skipWhitespace()
                if take(UInt8(ascii: "}")) { return true }
                while true {
                    skipWhitespace()
                    guard let key = string(), key.plain != nil else { return false }
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { return false }
                    skipWhitespace()
                    guard skipValue(depth: depth + 1) else { return false }
                    skipWhitespace()
                    if take(UInt8(ascii: ",")) { continue }
                    return take(UInt8(ascii: "}"))
                }
            case UInt8(ascii: "["):
                position += 1
                skipWhitespace()
                if take(UInt8(ascii: "]")) { return true }
                while true {
                    skipWhitespace()
                    guard skipValue(depth: depth + 1) else { return false }
                    skipWhitespace()
                    if take(UInt8(ascii: ",")) { continue }
                    return take(UInt8(ascii: "]"))
                }
            case UInt8(ascii: "\""):
                guard let text = string() else { return false }
                return text.plain != nil
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return skipNumber()
            }
        }
    }
}
