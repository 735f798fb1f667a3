/// Splits one CSV record (as ``RecordIndex`` cut it: no line break at its end) into its fields,
/// as byte ranges, without building a string for any of them.
///
/// The rules are RFC 4180's, read leniently:
/// - fields are separated by commas; a record's last carriage return is its line break's;
/// - a field that starts with a double quote runs to the next lone double quote, with `""`
///   standing for one quote, and may hold commas and line breaks;
/// - anything after that closing quote, up to the next comma, is kept as written (`"ab"cd` is
///   `abcd`), as is a double quote inside a field that does not start with one (`5" nail`).
///
/// A field with an escaped quote, or with text after its closing quote, is copied into
/// ``scratch`` with the escapes undone; the others are read in place.
struct CSVFields {
    /// Where one field's bytes are: in the record's own buffer, or in ``scratch``.
    struct Field {
        var start: Int
        var end: Int
        var inScratch: Bool

        var count: Int { end - start }
    }

    /// The fields of the records split since ``clear()``, in order.
    private(set) var fields: [Field] = []
    /// Unescaped copies of the fields that needed one.
    private(set) var scratch: [UInt8] = []

    /// Splits `bytes[range]` into ``fields``, in place of those of earlier records.
    mutating func split(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        clear()
        splitMore(bytes, range)
    }

    /// Forgets the fields split so far.
    mutating func clear() {
        fields.removeAll(keepingCapacity: true)
        scratch.removeAll(keepingCapacity: true)
    }

    /// Splits `bytes[range]`, adding its fields after those already in ``fields``.
    mutating func splitMore(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var end = range.upperBound
        if end > range.lowerBound, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var position = range.lowerBound
        while true {
            if position < end, bytes[position] == UInt8(ascii: "\"") {
                position = quoted(bytes, from: position + 1, to: end)
            } else {
                let stop = Self.comma(in: bytes, from: position, to: end)
                fields.append(Field(start: position, end: stop, inScratch: false))
                position = stop
            }
            // `position` is at a comma or the record's end.
            guard position < end else { return }
            position += 1
        }
    }

    /// Where the first comma from `start` is, or `end`: eight bytes at a time while eight are
    /// left (``PlainBytes/zeroBytes(in:)`` of the word XORed with commas), then one at a time.
    @inline(__always)
    static func comma(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var position = start
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            let commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C
            while position + 8 <= end {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                let zeros = PlainBytes.zeroBytes(in: word ^ commas)
                if zeros != 0 { return position + zeros.trailingZeroBitCount / 8 }
                position += 8
            }
        }
        while position < end, bytes[position] != UInt8(ascii: ",") { position += 1 }
        return position
    }

    /// Reads the quoted field whose text starts at `start` (after its opening quote); returns
    /// where it ends (a comma or `end`).
    private mutating func quoted(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var position = start
        // The common case: no escaped quote, nothing after the closing quote.
        while position < end, bytes[position] != UInt8(ascii: "\"") { position += 1 }
        let after = position + 1
        if position == end || after == end || bytes[after] == UInt8(ascii: ",") {
            fields.append(Field(start: start, end: position, inScratch: false))
            return min(after, end)
        }
        // Undo the escapes into scratch, then keep what follows the closing quote as written.
        let first = scratch.count
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        var inQuotes = true
        position = after
        if bytes[after] == UInt8(ascii: "\"") {
            scratch.append(UInt8(ascii: "\""))
            position += 1
        } else {
            inQuotes = false
        }
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") && inQuotes {
                if position + 1 < end, bytes[position + 1] == UInt8(ascii: "\"") {
                    scratch.append(byte)
                    position += 2
                    continue
                }
                inQuotes = false
            } else if byte == UInt8(ascii: ","), !inQuotes {
                break
            } else {
                scratch.append(byte)
            }
            position += 1
        }
        fields.append(Field(start: first, end: scratch.count, inScratch: true))
        return position
    }

    /// The bytes of `field`, which lives in `bytes` or in ``scratch``, for `body`.
    func withBytes<Result>(
        of field: Field,
        in bytes: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if field.inScratch {
            return scratch.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[field.start..<field.end])) }
        }
        return body(UnsafeBufferPointer(rebasing: bytes[field.start..<field.end]))
    }

    /// The fields of every record in `ranges` as strings: the header and the rows sampled to
    /// infer types.
    static func strings(_ bytes: UnsafeBufferPointer<UInt8>, _ ranges: some Sequence<Range<Int>>) -> [[String]] {
        var splitter = CSVFields()
        return ranges.map { range in
            splitter.split(bytes, range)
            return splitter.fields.map { field in
                splitter.withBytes(of: field, in: bytes) { String(decoding: $0, as: UTF8.self) }
            }
        }
    }
}
