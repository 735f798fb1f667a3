import Foundation

/// How deeply a JSON text nests arrays and objects, found in one pass over its bytes without
/// parsing it.
///
/// `JSONDecoder` reads nested values by recursion, so a line of a few thousand `[` can run a
/// thread out of stack before the decoder's own limit stops it. The daemon asks this first, and
/// never hands the decoder a line that nests deeper than ``maximumDepth``. Brackets inside
/// strings do not count; a text that is not JSON is measured all the same (the decoder then
/// says what is wrong with it).
public enum JSONNesting {
    /// The deepest a line may nest arrays and objects: the request object and the envelope
    /// scanner's limit within it, well beyond what any request needs (a batch of rows with a
    /// list in a cell is five deep).
    public static let maximumDepth = EnvelopeScanner.maximumDepth + 1

    /// Whether `text` opens more than `limit` arrays or objects inside one another.
    public static func exceeds(_ limit: Int, in text: Data) -> Bool {
        text.withUnsafeBytes { exceeds(limit, in: $0) }
    }

    /// Whether the bytes in `text` open more than `limit` arrays or objects inside one another.
    public static func exceeds(_ limit: Int, in text: UnsafeRawBufferPointer) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in text {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
        return false
    }
}
