/// A position in JSON text being read byte by byte, with the pieces of the grammar that the
/// one-pass readers (``EnvelopeScanner``, ``ParamsReader``) share. Nothing here reads out of
/// bounds, whatever the bytes.
protocol JSONByteCursor {
    var bytes: UnsafeRawBufferPointer { get }
    var position: Int { get set }
}

extension JSONByteCursor {
    func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    /// Consumes `byte` when it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Consumes `word` (`true`, `false`, `null`) when it is next.
    mutating func literal(_ word: StaticString) -> Bool {
        let matched = word.withUTF8Buffer { word in
            guard bytes.count - position >= word.count else { return false }
            for index in 0..<word.count where bytes[position + index] != word[index] { return false }
            return true
        }
        if matched { position += word.utf8CodeUnitCount }
        return matched
    }

    /// Skips a number, checking the JSON grammar.
    mutating func skipNumber() -> Bool {
        _ = take(UInt8(ascii: "-"))
        guard let first = peek() else { return false }
        if first == UInt8(ascii: "0") {
            position += 1
        } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first) {
            skipDigits()
        } else {
            return false
        }
        if take(UInt8(ascii: ".")) {
            guard skipDigits() else { return false }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard skipDigits() else { return false }
        }
        return true
    }

    /// Skips digits; whether there was at least one.
    @discardableResult
    mutating func skipDigits() -> Bool {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            position += 1
        }
        return position > start
    }
}
