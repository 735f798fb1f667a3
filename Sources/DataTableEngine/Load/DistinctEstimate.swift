/// How many different values a column of a large input holds, estimated from a sample drawn
/// at random from it, before it is read: whether its texts repeat enough to be worth coding
/// (``ColumnStore/codes``) while the load reads them.
///
/// The estimate is Chao's lower bound: the values seen, plus f1² / 2f2 for those not seen, where
/// f1 values were seen once and f2 twice (f1(f1 − 1) / 2 when none was seen twice). A sample
/// of the whole input is counted exactly.
enum DistinctEstimate {
    /// How many records are sampled.
    static let sampleSize = 4096

    /// The records to sample of `count`: all of them, or ``sampleSize`` different ones drawn
    /// at random, in order. (Evenly spaced records would miss the repeats of values that recur
    /// with a period.) The draw is the same every time, so that a load does the same work.
    static func sampled(of count: Int) -> [Int] {
        guard count > sampleSize else { return Array(0..<count) }
        var state: UInt64 = 0x5DEE_CE66_D1CE_4E5B
        var picked = Set<Int>()
        while picked.count < sampleSize {
            // SplitMix64.
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            mixed ^= mixed >> 31
            picked.insert(Int(mixed % UInt64(count)))
        }
        return picked.sorted()
    }

    /// The estimated number of different values among `total` records, from `sample` (the
    /// values of the records ``sampled(of:)`` picks).
    static func estimate(_ sample: [String], total: Int) -> Double {
        var counts: [String: Int] = [:]
        for value in sample { counts[value, default: 0] += 1 }
        let seen = Double(counts.count)
        guard sample.count < total else { return seen }
        let once = Double(counts.values.count { $0 == 1 })
        let twice = Double(counts.values.count { $0 == 2 })
        return twice > 0 ? seen + once * once / (2 * twice) : seen + once * (once - 1) / 2
    }

    /// Whether a column with `sample` among `total` records is read coded: at most one
    /// different text, estimated, for every two records.
    static func repeats(_ sample: [String], total: Int) -> Bool {
        repeats(estimate: estimate(sample, total: total), total: total)
    }

    /// Whether a column of `total` records with about `estimate` different values is read coded.
    static func repeats(estimate: Double, total: Int) -> Bool {
        estimate * 2 <= Double(total)
    }
}
