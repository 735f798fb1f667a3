/// Where each CSV record starts, found with one pass over the bytes that only tracks quotes.
///
/// ``CSVFields`` splits each record into fields; this index lets the parse run in chunks on
/// every core and gives each record the line it starts on (a quoted field may hold line breaks).
struct RecordIndex {
    /// Byte ranges of the records that are not blank, in order.
    var ranges: [Range<Int>] = []
    /// The line (1-based) each record starts on.
    var lines: [Int] = []
    /// The line of a quoted field that never closes, if one does not.
    var unclosedQuoteLine: Int?

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var inQuotes = false
        var recordStart = 0
        var recordLine = 1
        var line = 1
        var quoteLine = 1
        var index = 0
        let count = bytes.count
        func close(at end: Int) {
            var last = end
            if last > recordStart && bytes[last - 1] == UInt8(ascii: "\r") { last -= 1 }
            if last > recordStart {
                ranges.append(recordStart..<end)
                lines.append(recordLine)
            }
        }
        let base = UnsafeRawPointer(bytes.baseAddress)
        let quotes = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let lineFeeds = SIMD16<UInt8>(repeating: UInt8(ascii: "\n"))
        let returns = SIMD16<UInt8>(repeating: UInt8(ascii: "\r"))
        while index < count {
            // Sixteen bytes at a time past those that are neither quotes nor line ends (most),
            // then one at a time through a block that holds one.
            var blockEnd = count
            if let base, count - index >= 16 {
                let block = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                if !any((block .== quotes) .| (block .== lineFeeds) .| (block .== returns)) {
                    index += 16
                    continue
                }
                blockEnd = index + 16
            }
            while index < blockEnd {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    if !inQuotes { quoteLine = line }
                    inQuotes.toggle()
                } else if byte == UInt8(ascii: "\n")
                    || (byte == UInt8(ascii: "\r") && (index + 1 == count || bytes[index + 1] != UInt8(ascii: "\n")))
                {
                    // A line feed, or a carriage return on its own, ends a line (as CSV readers
                    // read it: old Mac text ends lines with CR alone); CR LF ends one at the LF.
                    line += 1
                    if !inQuotes {
                        close(at: index)
                        recordStart = index + 1
                        recordLine = line
                    }
                }
                index += 1
            }
        }
        if inQuotes { unclosedQuoteLine = quoteLine }
        close(at: count)
    }
}
