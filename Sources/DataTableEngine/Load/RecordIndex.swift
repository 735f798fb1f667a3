import Foundation

/// Where each CSV record starts, found with passes over the bytes that only track quotes.
///
/// ``CSVFields`` splits each record into fields; this index lets the parse run in chunks on
/// every core and gives each record the line it starts on (a quoted field may hold line breaks).
///
/// A large input is read in pieces on every core: first each piece's quotes are counted, which
/// says whether a piece starts inside a quoted field; then each piece finds its line ends and
/// which of them end records; then the records are put together in order.
struct RecordIndex {
    /// Byte ranges of the records that are not blank, in order.
    var ranges: [Range<Int>] = []
    /// The line (1-based) each record starts on.
    var lines: [Int] = []
    /// The line of a quoted field that never closes, if one does not.
    var unclosedQuoteLine: Int?

    /// Bytes per piece, about, past which the input is read in pieces.
    static let pieceSize = 1 << 22

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        let pieces = max(1, min(64, bytes.count / Self.pieceSize))
        self.init(bytes, pieces: pieces)
    }

    /// The index of `bytes` read in `pieces` pieces (the same index for any number).
    init(_ bytes: UnsafeBufferPointer<UInt8>, pieces: Int) {
        let count = bytes.count
        let pieces = max(1, min(pieces, count))
        let bounds = (0...pieces).map { $0 * count / pieces }
        let shared = UnsafeSendableBuffer(bytes)
        let startsQuoted: [Bool]
        if pieces == 1 {
            startsQuoted = [false]
        } else {
            let oddQuotes = ConcurrentPieces.map(pieces) { piece in
                Self.hasOddQuotes(shared.buffer, bounds[piece]..<bounds[piece + 1])
            }
            var quoted = false
            startsQuoted = oddQuotes.map { odd in
                defer { quoted = quoted != odd }
                return quoted
            }
        }
        let scans = ConcurrentPieces.map(pieces) { piece in
            Self.scan(shared.buffer, bounds[piece]..<bounds[piece + 1], quoted: startsQuoted[piece])
        }
        ranges.reserveCapacity(scans.reduce(0) { $0 + $1.recordEnds.count } + 1)
        lines.reserveCapacity(ranges.capacity)
        var recordStart = 0
        var recordLine = 1
        var linesBefore = 0
        func close(at end: Int) {
            var last = end
            if last > recordStart && bytes[last - 1] == UInt8(ascii: "\r") { last -= 1 }
            if last > recordStart {
                ranges.append(recordStart..<end)
                lines.append(recordLine)
            }
        }
        for scan in scans {
            for (end, linesTo) in zip(scan.recordEnds, scan.linesToRecordEnds) {
                close(at: end)
                recordStart = end + 1
                recordLine = 1 + linesBefore + linesTo
            }
            linesBefore += scan.lineEnds
        }
        if let last = scans.last, last.endsQuoted {
            unclosedQuoteLine = 1 + linesBefore - last.lineEnds + last.linesToLastOpening
            if pieces > 1, !last.opensInPiece {
                // The quote opened in an earlier piece: the whole input read as one says where.
                unclosedQuoteLine = RecordIndex(bytes, pieces: 1).unclosedQuoteLine
            }
        }
        close(at: count)
    }

    /// What one piece holds: where its records end and on which of its lines.
    private struct PieceScan: Sendable {
        /// The line ends outside quoted fields, each the end of a record.
        var recordEnds: [Int] = []
        /// For each record end, how many line ends the piece has up to and with it.
        var linesToRecordEnds: [Int] = []
        /// How many line ends the piece has.
        var lineEnds = 0
        /// Whether the piece ends inside a quoted field.
        var endsQuoted = false
        /// Whether the quoted field it ends inside opened in this piece; and how many line ends
        /// come before that quote in the piece.
        var opensInPiece = false
        var linesToLastOpening = 0
    }

    /// Whether `range` of `bytes` holds an odd number of quotes.
    private static func hasOddQuotes(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        // Each lane keeps the parity of the quotes it has seen, sixteen bytes at a time.
        let quotes = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let ones = SIMD16<UInt8>(repeating: 1)
        var parity = SIMD16<UInt8>(repeating: 0)
        var index = range.lowerBound
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while range.upperBound - index >= 16 {
                let block = base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                parity ^= SIMD16<UInt8>(repeating: 0).replacing(with: ones, where: block .== quotes)
                index += 16
            }
        }
        var odd = parity.wrappedSum() & 1 == 1
        while index < range.upperBound {
            if bytes[index] == UInt8(ascii: "\"") { odd.toggle() }
            index += 1
        }
        return odd
    }

    /// The line ends of `range`, read from a start inside a quoted field or not (`quoted`).
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, quoted: Bool) -> PieceScan {
        var result = PieceScan()
        result.recordEnds.reserveCapacity(range.count / 32)
        result.linesToRecordEnds.reserveCapacity(range.count / 32)
        var inQuotes = quoted
        var index = range.lowerBound
        let end = range.upperBound
        let count = bytes.count
        let base = UnsafeRawPointer(bytes.baseAddress)
        let quotes = SIMD16<UInt8>(repeating: UInt8(ascii: "\""))
        let lineFeeds = SIMD16<UInt8>(repeating: UInt8(ascii: "\n"))
        let returns = SIMD16<UInt8>(repeating: UInt8(ascii: "\r"))
        while index < end {
            // Sixteen bytes at a time past those that are neither quotes nor line ends (most),
            // then one at a time through a block that holds one.
            var blockEnd = end
            if let base, end - index >= 16 {
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
                    if !inQuotes {
                        result.opensInPiece = true
                        result.linesToLastOpening = result.lineEnds
                    }
                    inQuotes.toggle()
                } else if byte == UInt8(ascii: "\n")
                    || (byte == UInt8(ascii: "\r") && (index + 1 == count || bytes[index + 1] != UInt8(ascii: "\n")))
                {
                    // A line feed, or a carriage return on its own, ends a line (as CSV readers
                    // read it: old Mac text ends lines with CR alone); CR LF ends one at the LF.
                    result.lineEnds += 1
                    if !inQuotes {
                        result.recordEnds.append(index)
                        result.linesToRecordEnds.append(result.lineEnds)
                    }
                }
                index += 1
            }
        }
        result.endsQuoted = inQuotes
        return result
    }
}
