import Dispatch
import Foundation
import Synchronization

/// Whether bytes are valid UTF-8, checked in pieces on every core.
///
/// The pieces are cut just after line feeds: a line feed is one byte that never occurs inside
/// a longer sequence, so each piece is valid exactly when the whole is.
public enum UTF8Check {
    /// Bytes per piece, about.
    static let pieceSize = 1 << 20

    public static func isValid(_ bytes: [UInt8]) -> Bool {
        var cuts = [0]
        var next = pieceSize
        while next < bytes.count {
            guard let lineFeed = bytes[next...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            cuts.append(lineFeed + 1)
            next = lineFeed + 1 + pieceSize
        }
        cuts.append(bytes.count)
        let pieces = cuts.count - 1
        let workers = min(pieces, ProcessInfo.processInfo.activeProcessorCount)
        let invalid = Atomic(false)
        DispatchQueue.concurrentPerform(iterations: workers) { [cuts] worker in
            for piece in stride(from: worker, to: pieces, by: workers) {
                if invalid.load(ordering: .relaxed) { return }
                let valid = bytes.withUnsafeBufferPointer { bytes in
                    isValid(UnsafeBufferPointer(rebasing: bytes[cuts[piece]..<cuts[piece + 1]]))
                }
                if !valid { invalid.store(true, ordering: .relaxed) }
            }
        }
        return !invalid.load(ordering: .relaxed)
    }

    /// Whether `bytes` are valid UTF-8: ASCII passed over eight bytes at a time; each run of
    /// bytes beyond ASCII between two ASCII ones, which must be whole characters by itself (an
    /// ASCII byte is always a character of its own), read by the standard library's parser.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        var position = 0
        while position < count {
            while position + 8 <= count,
                raw.loadUnaligned(fromByteOffset: position, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                position += 8
            }
            while position < count, bytes[position] < 0x80 { position += 1 }
            guard position < count else { return true }
            var end = position + 1
            while end < count, bytes[end] >= 0x80 { end += 1 }
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = UnsafeBufferPointer(rebasing: bytes[position..<end]).makeIterator()
            parsing: while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid: continue parsing
                case .emptyInput: break parsing
                case .error: return false
                }
            }
            position = end
        }
        return true
    }
}
