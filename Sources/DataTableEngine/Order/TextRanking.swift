import Foundation

/// The order of a list of texts as a text column sorts them (``ValueOrder``: the empty text
/// first, then by case-folded bytes, then by bytes; equal texts by their index).
///
/// A coded column's sort and its distinct values both start from the place of each different
/// text. The texts are sorted most significant bytes first: their first fifteen folded bytes, as
/// two 64-bit words, by a radix sort (the second word, then stably the first); each run that
/// still ties by the next eight bytes, and so on while a run is long; short runs, and texts that
/// fold alike (the same letters in another case), are compared whole.
enum TextRanking {
    /// Runs this long or shorter are put in order by comparing their texts.
    static let comparedRun = 32

    /// Each of `texts`' place in their order, from 0.
    static func places(of texts: [String]) -> [UInt64] {
        let count = texts.count
        var places = [UInt64](repeating: 0, count: count)
        guard count > 1 else { return places }
        let folded = FoldedTexts(texts)
        let bySecond = RadixSort.sorted(
            keys: (0..<count).map(folded.secondWord),
            payloads: Array(0..<UInt32(count))
        )
        let byBoth = RadixSort.sorted(
            keys: bySecond.payloads.map { folded.firstWord(Int($0)) },
            payloads: bySecond.payloads
        )
        var order = byBoth.payloads
        // Runs of texts alike in the bytes sorted so far, with the offset their next bytes start at.
        var runs: [(start: Int, end: Int, offset: Int)] = []
        Self.collectRuns(0..<count, offset: 15, into: &runs) { position in
            // Empty texts (a first word of 0) are all alike: they stay in index order.
            let first = byBoth.keys[position]
            return first == 0 ? nil : (first, folded.secondWord(Int(order[position])))
        }
        folded.bytes.withUnsafeBufferPointer { bytes in
            folded.starts.withUnsafeBufferPointer { starts in
                /// Negative, zero or positive as the text at `a` sorts before, with or after the
                /// one at `b`.
                func compareWhole(_ a: Int, _ b: Int) -> Int {
                    let aCount = starts[a + 1] - starts[a]
                    let bCount = starts[b + 1] - starts[b]
                    let common = min(aCount, bCount)
                    if common > 0 {
                        let order = memcmp(bytes.baseAddress! + starts[a], bytes.baseAddress! + starts[b], common)
                        if order != 0 { return Int(order) }
                    }
                    if aCount != bCount { return aCount - bCount }
                    return TextKey.compareBytes(texts[a], texts[b])
                }
                while let run = runs.popLast() {
                    let range = run.start..<run.end
                    let longer = order[range].contains { folded.length(Int($0)) > run.offset }
                    if range.count <= Self.comparedRun || !longer {
                        order[range].sort { left, right in
                            let ordered = compareWhole(Int(left), Int(right))
                            return ordered != 0 ? ordered < 0 : left < right
                        }
                        continue
                    }
                    let sorted = RadixSort.sorted(
                        keys: order[range].map { folded.word(Int($0), from: run.offset) },
                        payloads: Array(order[range])
                    )
                    order.replaceSubrange(range, with: sorted.payloads)
                    Self.collectRuns(range, offset: run.offset + 8, into: &runs) { position in
                        (sorted.keys[position - range.lowerBound], 0)
                    }
                }
            }
        }
        for (place, index) in order.enumerated() { places[Int(index)] = UInt64(place) }
        return places
    }

    /// Adds to `runs` each run of two or more positions within `range` whose `key`s are the
    /// same (a `nil` key is never part of a run).
    private static func collectRuns(
        _ range: Range<Int>,
        offset: Int,
        into runs: inout [(start: Int, end: Int, offset: Int)],
        key: (Int) -> (UInt64, UInt64)?
    ) {
        var start = range.lowerBound
        while start < range.upperBound {
            let startKey = key(start)
            var end = start + 1
            if let startKey {
                while end < range.upperBound, let next = key(end), next == startKey { end += 1 }
            }
            if end - start > 1 { runs.append((start, end, offset)) }
            start = end
        }
    }
}
