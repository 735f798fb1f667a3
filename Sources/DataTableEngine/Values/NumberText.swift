import Foundation

/// Numbers to and from the text a person reads and types.
public enum NumberText {
    /// A plain decimal number: optional sign, digits with an optional fraction, optional
    /// exponent. No thousands separators, no `inf`, `nan` or hexadecimal.
    public static func parse(_ text: String) -> Double? {
        var sawDigit = false
        var index = text.utf8.startIndex
        let bytes = text.utf8
        func peek() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }
        if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index = bytes.index(after: index) }
        while let byte = peek(), isDigit(byte) {
            sawDigit = true
            index = bytes.index(after: index)
        }
        if peek() == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            while let byte = peek(), isDigit(byte) {
                sawDigit = true
                index = bytes.index(after: index)
            }
        }
        guard sawDigit else { return nil }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index = bytes.index(after: index) }
            var exponentDigits = false
            while let byte = peek(), isDigit(byte) {
                exponentDigits = true
                index = bytes.index(after: index)
            }
            guard exponentDigits else { return nil }
        }
        guard index == bytes.endIndex, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// How many decimal places the number written as `text` has (`"1.50"` → 2, `"1.5e1"` → 0).
    public static func fractionDigits(of text: String) -> Int {
        let lowered = text.lowercased()
        let parts = lowered.split(separator: "e", maxSplits: 1)
        let mantissa = parts.first.map(String.init) ?? lowered
        // An exponent past ±1,000,000 is clamped: the count only ever meets `decimals` (0 to 12),
        // and the arithmetic below must not overflow.
        let limit = 1_000_000
        let exponent =
            parts.count > 1
            ? min(max(Int(parts[1]) ?? (parts[1].hasPrefix("-") ? -limit : limit), -limit), limit) : 0
        guard let dot = mantissa.firstIndex(of: ".") else { return max(0, -exponent) }
        let digits = mantissa[mantissa.index(after: dot)...].count
        return max(0, digits - exponent)
    }

    /// The shortest text that reads back as the number, never in exponent form: whole numbers
    /// without a fraction (`12`, not `12.0`), very large and very small ones with all their
    /// zeros (`3992579991854942000`, `0.0000001`).
    public static func plain(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 1e15 {
            var text = SmallText()
            text.appendInteger(Int64(number))
            return text.string
        }
        return positional(number.description)
    }

    /// A number's text (`1.5e-07`, `3.99e+18`, `12.5`) with its exponent written out as zeros.
    static func positional(_ text: String) -> String {
        guard let marker = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(text[text.index(after: marker)...])
        else { return text }
        var mantissa = text[..<marker]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let dot = mantissa.firstIndex(of: ".")
        let whole = dot.map { mantissa[..<$0] } ?? mantissa
        var digits = String(whole) + (dot.map { String(mantissa[mantissa.index(after: $0)...]) } ?? "")
        var point = whole.count + exponent
        // Leading zeros of the mantissa move the point, not the value.
        while digits.count > 1, digits.hasPrefix("0") {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1, digits.hasSuffix("0"), digits.count > max(point, 1) { digits.removeLast() }
        let body: String
        if point <= 0 {
            body = "0." + String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            body = digits + String(repeating: "0", count: point - digits.count)
        } else {
            body = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
        }
        return (negative ? "-" : "") + body
    }

    /// Whether `text` is a number written the one way ``plain(_:)`` or fixed decimals write it
    /// back: `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, with no more than 15 significant digits (what a
    /// double holds exactly), and not a negative zero. `007`, `+5`, ` 5`, `1e3` and
    /// `3992579991854942347` are not: read as numbers, they would not come back as written.
    public static func isWrittenExactly(_ text: String) -> Bool {
        var significant = 0
        var leadingZeros = true
        var sawDot = false
        var digitsBeforeDot = 0
        var nonZero = false
        let bytes = text.utf8
        guard let first = bytes.first else { return false }
        var index = bytes.startIndex
        if first == UInt8(ascii: "-") { index = bytes.index(after: index) }
        let start = index
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard !sawDot, digitsBeforeDot > 0 else { return false }
                sawDot = true
            } else if isDigit(byte) {
                if !sawDot {
                    // A whole part of more than one digit starts with 1-9.
                    if digitsBeforeDot == 1, bytes[start] == UInt8(ascii: "0") { return false }
                    digitsBeforeDot += 1
                }
                if byte != UInt8(ascii: "0") { nonZero = true }
                if byte != UInt8(ascii: "0") || !leadingZeros {
                    leadingZeros = false
                    significant += 1
                }
            } else {
                return false
            }
            index = bytes.index(after: index)
        }
        guard digitsBeforeDot > 0, bytes.last != UInt8(ascii: ".") else { return false }
        if first == UInt8(ascii: "-"), !nonZero { return false }
        return significant <= 15
    }

    /// The number with exactly `decimals` digits after the point, as C's `printf("%.Nf")`
    /// writes it (the binary value rounded to the nearest, ties to even).
    public static func fixed(_ number: Double, decimals: Int) -> String {
        withFixedBytes(number, decimals: decimals) { String(decoding: $0, as: UTF8.self) }
            ?? String(format: "%.\(decimals)f", number)
    }

    /// Calls `body` with the bytes of ``fixed(_:decimals:)`` (`decimals` in 0...12), written by
    /// `vsnprintf` into a buffer on the stack with no string in between; `nil` when it cannot
    /// (the caller then uses ``fixed(_:decimals:)``'s string).
    static func withFixedBytes<Result>(
        _ number: Double,
        decimals: Int,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        guard fixedFormats.indices.contains(decimals) else { return nil }
        // A double has at most 309 integer digits; with a sign, a point and 12 decimals that
        // is 323 bytes.
        let capacity = 400
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer -> Result? in
            var length = buffer.withMemoryRebound(to: UInt8.self) { writeFixed(number, decimals: decimals, into: $0) }
            if length == nil {
                let written = withVaList([number]) {
                    vsnprintf(buffer.baseAddress!, capacity, fixedFormats[decimals], $0)
                }
                length = written >= 0 && written < capacity ? Int(written) : nil
            }
            guard let length else { return nil }
            return buffer.withMemoryRebound(to: UInt8.self) { body(UnsafeBufferPointer(rebasing: $0[..<length])) }
        }
    }

    /// Writes what `printf("%.Nf")` writes for `number` into `buffer` with integer arithmetic,
    /// and returns its length; `nil` when that might differ from `printf` (the caller asks it):
    /// a number of 10^12 or more once scaled, or one that lies within a thousandth of halfway
    /// between two results, where the scaling's rounding error could tip it. Otherwise the
    /// scaled number's error (under 2^-13) cannot change which whole number is nearest.
    private static func writeFixed(_ number: Double, decimals: Int, into buffer: UnsafeMutableBufferPointer<UInt8>)
        -> Int?
    {
        let scaled = abs(number) * powersOfTen[decimals]
        guard scaled < 1e12 else { return nil }
        let whole = scaled.rounded(.down)
        guard abs(scaled - whole - 0.5) > 1e-3 else { return nil }
        var digits = UInt64(scaled.rounded())
        // Digits from the end: the fraction, the point, the whole part (at least "0").
        var end = buffer.count
        func put(_ byte: UInt8) {
            end -= 1
            buffer[end] = byte
        }
        for _ in 0..<decimals {
            put(UInt8(ascii: "0") + UInt8(digits % 10))
            digits /= 10
        }
        if decimals > 0 { put(UInt8(ascii: ".")) }
        repeat {
            put(UInt8(ascii: "0") + UInt8(digits % 10))
            digits /= 10
        } while digits > 0
        // printf writes the sign of any negative number, -0.0 and -0.001 (as "-0.00") too.
        if number.sign == .minus { put(UInt8(ascii: "-")) }
        let length = buffer.count - end
        for index in 0..<length { buffer[index] = buffer[end + index] }
        return length
    }

    /// 10^0 to 10^12, each exact in a double.
    private static let powersOfTen: [Double] = (0...12).map { pow(10, Double($0)) }

    /// `printf` formats for 0 to 12 decimals.
    private static let fixedFormats = (0...12).map { "%.\($0)f" }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
