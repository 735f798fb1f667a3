/// What a view's sections put around each leaf (a group of the innermost level, one path of
/// values), worked out from the leaves' paths and which groups are collapsed: the headers above
/// it (one for each level whose group starts there, down to the first collapsed one), the space
/// before it (where an outermost group starts), its footers (one for each open group that ends
/// there, innermost first), and how many of its rows are shown (none under a collapsed group).
///
/// Each is kept in a Fenwick tree, so the headers, footers, gaps and shown rows above any leaf
/// are summed in O(log s); so are the groups of every level (a leaf that starts one counts 1).
/// Rows added to or taken from a leaf update it in O(log s); a new or emptied leaf, or a group
/// collapsed or expanded, makes it again (O(s × depth)).
struct SectionShape: Sendable {
    /// How many levels the sections have (1 to 4).
    let depth: Int
    /// Per leaf: the first level whose group is collapsed; `depth` when none is.
    private(set) var openDepth: [UInt8]
    /// Per leaf: the outermost level whose group starts at it (0 for the first leaf).
    private(set) var firstLevel: [UInt8]
    /// Rows shown per leaf: all of them, or none under a collapsed group.
    private(set) var shown: SectionCounts
    /// Headers above each leaf.
    private(set) var headers: SectionCounts
    /// Footers after each leaf's rows.
    private(set) var footers: SectionCounts
    /// Spaces before each leaf (1 where an outermost group other than the first starts).
    private(set) var gaps: SectionCounts
    /// For each level but the innermost: 1 for a leaf that starts a group of that level.
    private var starts: [SectionCounts]

    /// The shape of leaves whose paths are `values` (`depth` values per leaf, leaves in order),
    /// holding `counts` rows, with `collapse`'s groups collapsed; `footers`: each open group has one.
    init(values: [CellValue], depth: Int, counts: [Int], collapse: GroupCollapse, footers: Bool) {
        self.depth = depth
        let leaves = counts.count
        var openDepth = [UInt8](repeating: UInt8(depth), count: leaves)
        var firstLevel = [UInt8](repeating: 0, count: leaves)
        var starts = [[Int]](repeating: [Int](repeating: 0, count: leaves), count: depth - 1)
        for leaf in 0..<leaves {
            let path = values[leaf * depth..<(leaf + 1) * depth]
            if leaf > 0 {
                var shared = 0
                let previous = values[(leaf - 1) * depth..<leaf * depth]
                while shared < depth - 1 && previous[previous.startIndex + shared] == path[path.startIndex + shared] {
                    shared += 1
                }
                firstLevel[leaf] = UInt8(shared)
            }
            openDepth[leaf] = UInt8(collapse.firstCollapsedLevel(path))
            // A leaf starts a group at each level from the first it does not share with the one before.
            for level in Int(firstLevel[leaf])..<(depth - 1) { starts[level][leaf] = 1 }
        }
        var shownCounts = counts
        var headerCounts = [Int](repeating: 0, count: leaves)
        var footerCounts = [Int](repeating: 0, count: leaves)
        var gapCounts = [Int](repeating: 0, count: leaves)
        for leaf in 0..<leaves {
            let open = Int(openDepth[leaf])
            let first = Int(firstLevel[leaf])
            if open < depth { shownCounts[leaf] = 0 }
            headerCounts[leaf] = max(0, min(open, depth - 1) - first + 1)
            gapCounts[leaf] = leaf > 0 && first == 0 ? 1 : 0
            if footers {
                let nextFirst = leaf + 1 < leaves ? Int(firstLevel[leaf + 1]) : 0
                footerCounts[leaf] = max(0, open - nextFirst)
            }
        }
        self.openDepth = openDepth
        self.firstLevel = firstLevel
        self.shown = SectionCounts(shownCounts)
        self.headers = SectionCounts(headerCounts)
        self.footers = SectionCounts(footerCounts)
        self.gaps = SectionCounts(gapCounts)
        self.starts = starts.map(SectionCounts.init)
    }

    /// How many leaves there are.
    var leafCount: Int { openDepth.count }

    /// Whether `leaf`'s rows are shown (no group above it is collapsed).
    func isShown(_ leaf: Int) -> Bool { Int(openDepth[leaf]) == depth }

    /// `delta` rows came to (or left) `leaf`.
    mutating func add(_ delta: Int, to leaf: Int) {
        if isShown(leaf) { shown.add(delta, to: leaf) }
    }

    /// The levels whose headers stand above `leaf`, outermost first.
    func headerLevels(_ leaf: Int) -> Range<Int> {
        let first = Int(firstLevel[leaf])
        return first..<(first + headers.counts[leaf])
    }

    /// The levels whose footers follow `leaf`'s rows, innermost first.
    func footerLevels(_ leaf: Int) -> ReversedCollection<Range<Int>> {
        let open = Int(openDepth[leaf])
        return ((open - footers.counts[leaf])..<open).reversed()
    }

    /// How many groups `level` has.
    func groupCount(_ level: Int) -> Int {
        level == depth - 1 ? leafCount : starts[level].total
    }

    /// The group of `level` that `leaf` is in (its index among that level's groups).
    func group(_ level: Int, of leaf: Int) -> Int {
        level == depth - 1 ? leaf : starts[level].rowsBefore(leaf + 1) - 1
    }

    /// The leaves of group `group` of `level`.
    func leaves(_ level: Int, group: Int) -> Range<Int> {
        guard level < depth - 1 else { return group..<(group + 1) }
        let first = starts[level].section(holding: group)
        let end = group + 1 < starts[level].total ? starts[level].section(holding: group + 1) : leafCount
        return first..<end
    }
}
