import Foundation
import Synchronization

/// Work cut into pieces that run on every core at once, each piece's result gathered in the
/// order of the pieces.
enum ConcurrentPieces {
    /// The result of `work` for each piece `0 ..< count`, in that order. The pieces are handed
    /// to the cores in order as they free up: put the longest first.
    static func map<Result: Sendable>(_ count: Int, _ work: @Sendable (Int) -> Result) -> [Result] {
        guard count > 1 else { return (0..<count).map(work) }
        let results = Mutex([Result?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { piece in
            let result = work(piece)
            results.withLock { $0[piece] = result }
        }
        return results.withLock { $0.map { $0! } }
    }
}
