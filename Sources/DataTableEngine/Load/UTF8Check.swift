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
                    String(validating: bytes[cuts[piece]..<cuts[piece + 1]], as: UTF8.self) != nil
                }
                if !valid { invalid.store(true, ordering: .relaxed) }
            }
        }
        return !invalid.load(ordering: .relaxed)
    }
}
