import Foundation

/// The bytes of an export, appended straight to one reusable buffer: CSV fields, JSON strings
/// and numbers, and the display forms of dates, times and durations.
///
/// Every method writes exactly the bytes the export wrote when it was built on CSV.swift's
/// `CSVWriter` and Foundation's `JSONSerialization` (text already exported must not change);
/// the comments say where that takes care.
struct ExportWriter: DisplayBytes, JSONStringSink {
    /// What has been written since the last ``removeAll()``.
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    /// Empties the buffer, keeping its memory for what comes next (or, when the bytes were
    /// kept elsewhere, starting a new buffer as large).
    mutating func removeAll() {
        let capacity = bytes.capacity
        bytes.removeAll(keepingCapacity: true)
        if bytes.capacity < capacity { bytes.reserveCapacity(capacity) }
    }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func append(contentsOf raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    mutating func append(_ raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Room for `extra` more bytes, growing by doubling (an array reserved to the byte each
    /// time would copy itself for every string).
    mutating func reserve(_ extra: Int) {
        if bytes.count + extra > bytes.capacity { bytes.reserveCapacity(max(bytes.count + extra, bytes.capacity * 2)) }
    }

    mutating func append(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    /// The text's UTF-8 as it is.
    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    // MARK: CSV

    /// A CSV field as `CSVWriter` writes it: in double quotes, with each quote doubled, when it
    /// holds a quote, a comma, a carriage return or a line feed; otherwise as it is.
    mutating func appendCSVField(_ text: String) {
        var text = text
        let written = text.withUTF8 { appendCSVField(utf8: $0) }
        if !written { appendCSVFieldAsCSVWriter(text) }
    }

    /// The bytes of a field that a byte scan can settle: one with none of `"` `,` CR LF is
    /// written as it is, and an ASCII one is quoted by the bytes. Returns `false`, writing
    /// nothing, for non-ASCII text with one of those bytes (see
    /// ``appendCSVFieldAsCSVWriter(_:)``).
    ///
    /// `CSVWriter` also checks for CR LF, which in ASCII text always holds a CR.
    private mutating func appendCSVField(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var special = false
        var ascii = true
        for byte in utf8 {
            if byte >= 0x80 {
                ascii = false
            } else if byte == .quote || byte == .comma || byte == .carriageReturn || byte == .lineFeed {
                special = true
            }
        }
        if !special {
            bytes.append(contentsOf: utf8)
            return true
        }
        guard ascii else { return false }
        bytes.append(.quote)
        for byte in utf8 {
            if byte == .quote { bytes.append(.quote) }
            bytes.append(byte)
        }
        bytes.append(.quote)
        return true
    }

    /// `CSVWriter`'s own test and escaping, for non-ASCII text holding `"` `,` CR or LF.
    ///
    /// It uses Foundation's `StringProtocol.contains(_:)` and `replacingOccurrences(of:with:)`,
    /// which do not match a `"` or `,` that a following combining mark joins (`"\u{301}` holds
    /// no quote for them) but do match one after a prepended mark such as U+0600. A byte scan
    /// would quote (and double) differently there, so such fields are written through the very
    /// same calls. ASCII text never differs, so it never comes here.
    private mutating func appendCSVFieldAsCSVWriter(_ text: String) {
        let quote = "\""
        let delimiter = ","
        let needsQuotes =
            text.contains(quote) || text.contains(delimiter) || text.contains("\r") || text.contains("\n")
            || text.contains("\r\n")
        guard needsQuotes else {
            append(text)
            return
        }
        bytes.append(.quote)
        append(text.replacingOccurrences(of: quote, with: quote + quote))
        bytes.append(.quote)
    }

    // MARK: JSON

    /// A JSON string, escaped as every JSON string the daemon writes is
    /// (``JSONStringSink/appendJSONString(utf8:)``, as `JSONSerialization` escapes).
    mutating func appendJSONString(_ text: String) {
        var text = text
        text.withUTF8 { appendJSONString(utf8: $0) }
    }

    /// JSON's `null`, for an empty cell.
    mutating func appendNull() {
        bytes.append(contentsOf: "null".utf8)
    }

    /// A number as `JSONSerialization` writes a `Double`: its `description` without a
    /// trailing `.0` (`3`, `-0`, `0.1`, `1e+16`, `1e-07`). Stored numbers are finite (a store
    /// holds NaN only to mark an empty cell, and parsing refuses infinities).
    mutating func appendJSONNumber(_ number: Double) {
        // Below 2^53 a whole number's description is its digits and ".0"; write those digits
        // without making the string.
        if number == number.rounded(), abs(number) < 0x1p53 {
            if number == 0, number.sign == .minus { bytes.append(.minus) }
            appendInteger(Int64(number))
            return
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }

    // MARK: Display text (see ``DisplayBytes``)

    /// ``NumberText/fixed(_:decimals:)`` (`decimals` in 0...12) as a CSV field, with no string
    /// in between.
    mutating func appendFixedNumberField(_ number: Double, decimals: Int) {
        // The text is ASCII unless a locale with another decimal point is in force; then it
        // is quoted like any other text.
        let written = NumberText.withFixedBytes(number, decimals: decimals) { appendCSVField(utf8: $0) }
        if written != true { appendCSVField(NumberText.fixed(number, decimals: decimals)) }
    }
}

extension UInt8 {
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
    fileprivate static let lineFeed = UInt8(ascii: "\n")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let minus = UInt8(ascii: "-")
}
