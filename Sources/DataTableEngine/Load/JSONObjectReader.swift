/// Reads one JSON object from bytes in a single pass, keeping its members in the order they
/// are written (a person's column order), and each number as the text it is written in (so a
/// 19-digit id or `1.50` is not changed by going through a double). Nested arrays and objects
/// are checked and reported as unsupported, not read.
struct JSONObjectReader {
    /// One member's value.
    enum Member: Equatable {
        case value(CellInput)
        /// A number, as the text it is written in.
        case number(String)
        case unsupported(String)
    }

    /// Why the bytes are not one JSON object.
    enum Failure: Error, Equatable {
        /// Not JSON at all.
        case invalid
        /// JSON, but not an object (an array, a string, a number, …).
        case notAnObject
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    /// Arrays and objects open around the value being read: past ``deepest`` the bytes are
    /// refused rather than read deeper (each level is a call).
    private var depth = 0
    static let deepest = 256

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = 0
    }

    /// The members of the object that is the whole of `slice` (whitespace around it allowed),
    /// in the order written; a key written twice keeps its last value, in its first place.
    static func members(of slice: ArraySlice<UInt8>) throws(Failure) -> [(key: String, value: Member)] {
        let result: Result<[(key: String, value: Member)], Failure> = slice.withUnsafeBufferPointer { buffer in
            var reader = JSONObjectReader(buffer)
            do throws(Failure) {
                return .success(try reader.wholeObject())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private mutating func wholeObject() throws(Failure) -> [(key: String, value: Member)] {
        skipWhitespace()
        guard let first = peek() else { throw .invalid }
        guard first == UInt8(ascii: "{") else {
            try skipValue()
            skipWhitespace()
            throw position == bytes.count ? .notAnObject : .invalid
        }
        position += 1
        var members: [(key: String, value: Member)] = []
        var places: [String: Int] = [:]
        skipWhitespace()
        if take(UInt8(ascii: "}")) {
            return try finished(members)
        }
        while true {
            skipWhitespace()
            let key = try string()
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { throw .invalid }
            skipWhitespace()
            let value = try memberValue()
            if let place = places[key] {
                members[place].value = value
            } else {
                places[key] = members.count
                members.append((key, value))
            }
            skipWhitespace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { throw .invalid }
            return try finished(members)
        }
    }

    private mutating func finished(
        _ members: [(key: String, value: Member)]
    ) throws(Failure) -> [(key: String, value: Member)] {
        skipWhitespace()
        guard position == bytes.count else { throw .invalid }
        return members
    }

    /// A member's value: text, a number's text as written, a boolean, null; an array or an
    /// object is skipped (checked) and named.
    private mutating func memberValue() throws(Failure) -> Member {
        guard let byte = peek() else { throw .invalid }
        switch byte {
        case UInt8(ascii: "\""): return .value(.text(try string()))
        case UInt8(ascii: "{"):
            try skipValue()
            return .unsupported("an object")
        case UInt8(ascii: "["):
            try skipValue()
            return .unsupported("an array")
        case UInt8(ascii: "t"):
            try literal("true")
            return .value(.boolean(true))
        case UInt8(ascii: "f"):
            try literal("false")
            return .value(.boolean(false))
        case UInt8(ascii: "n"):
            try literal("null")
            return .value(.null)
        default:
            let start = position
            try skipNumber()
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
        }
    }

    /// Any value, checked and passed over.
    private mutating func skipValue() throws(Failure) {
        guard let byte = peek() else { throw .invalid }
        switch byte {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.deepest else { throw .invalid }
            position += 1
            skipWhitespace()
            if take(close) { return }
            while true {
                skipWhitespace()
                if close == UInt8(ascii: "}") {
                    _ = try string()
                    skipWhitespace()
                    guard take(UInt8(ascii: ":")) else { throw .invalid }
                    skipWhitespace()
                }
                try skipValue()
                skipWhitespace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(close) else { throw .invalid }
                return
            }
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try skipNumber()
        }
    }

    /// A string, its escapes decoded (a `\u` pair of surrogates is one character; a lone
    /// surrogate is not valid).
    private mutating func string() throws(Failure) -> String {
        guard take(UInt8(ascii: "\"")) else { throw .invalid }
        let start = position
        // Most strings have no escape: their bytes are the text.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                guard let text else { throw .invalid }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw .invalid }
            position += 1
        }
        var decoded = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: decoded, as: UTF8.self) else { throw .invalid }
                return text
            case UInt8(ascii: "\\"):
                guard let escape = peek() else { throw .invalid }
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hexQuad()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")) else { throw .invalid }
                        let low = try hexQuad()
                        guard (0xDC00..<0xE000).contains(low) else { throw .invalid }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let character = Unicode.Scalar(scalar) else { throw .invalid }
                    decoded.append(contentsOf: String(Character(character)).utf8)
                default: throw .invalid
                }
            default:
                guard byte >= 0x20 else { throw .invalid }
                decoded.append(byte)
            }
        }
        throw .invalid
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard bytes.count - position >= 4 else { throw .invalid }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            position += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalid
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func skipNumber() throws(Failure) {
        _ = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            // No leading zeros.
        } else {
            guard skipDigits() else { throw .invalid }
        }
        if take(UInt8(ascii: ".")) {
            guard skipDigits() else { throw .invalid }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard skipDigits() else { throw .invalid }
        }
    }

    private mutating func skipDigits() -> Bool {
        let start = position
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        return position > start
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let matched = word.withUTF8Buffer { word in
            guard bytes.count - position >= word.count else { return false }
            for index in 0..<word.count where bytes[position + index] != word[index] { return false }
            return true
        }
        guard matched else { throw .invalid }
        position += word.utf8CodeUnitCount
    }

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }
}
