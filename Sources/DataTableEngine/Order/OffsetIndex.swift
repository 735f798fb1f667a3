/// The heights of a table's rows in display order: maps a vertical offset to the row covering it
/// and a row position to its offset in O(log n), and inserts, removes or re-heights a row in
/// O(log n).
///
/// It is a B+ tree whose inner nodes keep, per child, how many rows lie below it and the sum of
/// their heights (a counted tree). Finding a position or an offset walks down from the root,
/// skipping whole children by their count or height sum; a change walks down once, adjusting the
/// count and sum of every child it enters. A plain array of prefix sums answers the same
/// questions but costs O(n) to keep current: one insertion or height change moves every offset
/// after it. Leaves hold up to ``leafCapacity`` heights as `UInt32` in one flat array (a fixed
/// block per leaf), so a packed index costs about 4 bytes a row; inner nodes live in an array and
/// refer to children by index, which keeps the whole index one value with no per-node
/// allocation. Sums are `Int`, so offsets stay exact however many rows there are.
///
/// Removal does not merge under-full nodes; it only drops empty ones and collapses a root with a
/// single child. ``init(heights:)`` builds the tree packed in O(n).
public struct OffsetIndex: Sendable {
    /// Heights per leaf; a full leaf splits before it takes another.
    static let leafCapacity = 64
    /// Children per inner node before it splits.
    static let innerCapacity = 64

    private struct Inner: Sendable {
        var children: [Int32] = []
        var counts: [Int] = []
        var sums: [Int] = []
        /// Whether the children are leaves (all children of one node are on one level).
        var childrenAreLeaves: Bool
    }

    /// Leaf `i` holds its heights at `i * leafCapacity ..< i * leafCapacity + leafCounts[i]`.
    private var leafHeights: [UInt32] = Array(repeating: 0, count: Self.leafCapacity)
    private var leafCounts: [Int] = [0]
    private var inners: [Inner] = []
    private var freeLeaves: [Int32] = []
    private var freeInners: [Int32] = []
    /// The root: a leaf when `rootIsLeaf`, else an inner node.
    private var root: Int32 = 0
    private var rootIsLeaf = true

    /// How many rows the index holds.
    public private(set) var count = 0
    /// The sum of all row heights: the offset just past the last row.
    public private(set) var totalHeight = 0

    /// An empty index.
    public init() {}

    /// An index holding `heights` (each ≥ 0) in this order, built packed in O(n): leaves full,
    /// inner nodes three quarters full.
    public init(heights: some Sequence<Int>) {
        let capacity = Self.leafCapacity
        var flat: [UInt32] = []
        flat.reserveCapacity(heights.underestimatedCount)
        var levelCounts: [Int] = []
        var levelSums: [Int] = []
        var leafSum = 0
        for height in heights {
            flat.append(Self.stored(height))
            leafSum += height
            if flat.count % capacity == 0 {
                levelCounts.append(capacity)
                levelSums.append(leafSum)
                leafSum = 0
            }
        }
        guard !flat.isEmpty else { return }
        let rest = flat.count % capacity
        if rest > 0 {
            levelCounts.append(rest)
            levelSums.append(leafSum)
            flat.append(contentsOf: repeatElement(0, count: capacity - rest))
        }
        var level = (0..<levelCounts.count).map(Int32.init)
        count = levelCounts.reduce(0, +)
        totalHeight = levelSums.reduce(0, +)
        leafHeights = flat
        leafCounts = levelCounts
        var childrenAreLeaves = true
        let fanout = Self.innerCapacity * 3 / 4
        while level.count > 1 {
            var next: ([Int32], [Int], [Int]) = ([], [], [])
            for first in stride(from: 0, to: level.count, by: fanout) {
                let range = first..<min(first + fanout, level.count)
                next.0.append(Int32(inners.count))
                next.1.append(levelCounts[range].reduce(0, +))
                next.2.append(levelSums[range].reduce(0, +))
                inners.append(
                    Inner(
                        children: Array(level[range]),
                        counts: Array(levelCounts[range]),
                        sums: Array(levelSums[range]),
                        childrenAreLeaves: childrenAreLeaves
                    )
                )
            }
            (level, levelCounts, levelSums) = next
            childrenAreLeaves = false
        }
        root = level[0]
        rootIsLeaf = childrenAreLeaves
    }

    /// The height of the row at `position` (0 ..< count).
    public func height(at position: Int) -> Int {
        precondition(position >= 0 && position < count, "position \(position) out of 0..<\(count)")
        let (leaf, index, _) = locate(position)
        return Int(leafHeights[Int(leaf) * Self.leafCapacity + index])
    }

    /// The sum of the heights of the rows before `position` (0 ... count); `offset(of: count)` is
    /// ``totalHeight``.
    public func offset(of position: Int) -> Int {
        precondition(position >= 0 && position <= count, "position \(position) out of 0...\(count)")
        if position == count { return totalHeight }
        let (leaf, index, before) = locate(position)
        let base = Int(leaf) * Self.leafCapacity
        var offset = before
        for slot in base..<(base + index) { offset += Int(leafHeights[slot]) }
        return offset
    }

    /// The row covering `offset` and how far into it `offset` lies; the index must not be empty.
    /// A row of height 0 covers no offset. An offset before the first row gives row 0 with a
    /// negative `inside`; one at or past ``totalHeight`` gives the last row, measured from its
    /// start.
    public func position(atOffset offset: Int) -> (position: Int, inside: Int) {
        precondition(count > 0, "an empty index has no rows")
        if offset < 0 { return (0, offset) }
        if offset >= totalHeight { return (count - 1, offset - self.offset(of: count - 1)) }
        var node = root
        var isLeaf = rootIsLeaf
        var remaining = offset
        var position = 0
        while !isLeaf {
            let inner = inners[Int(node)]
            var index = 0
            while remaining >= inner.sums[index] {
                remaining -= inner.sums[index]
                position += inner.counts[index]
                index += 1
            }
            isLeaf = inner.childrenAreLeaves
            node = inner.children[index]
        }
        var slot = Int(node) * Self.leafCapacity
        while remaining >= Int(leafHeights[slot]) {
            remaining -= Int(leafHeights[slot])
            position += 1
            slot += 1
        }
        return (position, remaining)
    }

    /// Puts a row of `height` (≥ 0) at `position` (0 ... count); later rows move down by it.
    public mutating func insert(_ height: Int, at position: Int) {
        precondition(position >= 0 && position <= count, "position \(position) out of 0...\(count)")
        let stored = Self.stored(height)
        let split = position == 0 ? 0 : position == count ? Self.leafCapacity : Self.leafCapacity / 2
        if let sibling = insert(stored, at: position, below: root, isLeaf: rootIsLeaf, splittingAt: split) {
            let (left, right) = (totals(of: root, isLeaf: rootIsLeaf), totals(of: sibling, isLeaf: rootIsLeaf))
            root = newInner(
                Inner(
                    children: [root, sibling],
                    counts: [left.count, right.count],
                    sums: [left.sum, right.sum],
                    childrenAreLeaves: rootIsLeaf
                )
            )
            rootIsLeaf = false
        }
        count += 1
        totalHeight += height
    }

    /// Appends a row of `height` (≥ 0) after the last.
    public mutating func append(_ height: Int) {
        insert(height, at: count)
    }

    /// Removes the row at `position` (0 ..< count) and returns its height.
    @discardableResult
    public mutating func remove(at position: Int) -> Int {
        precondition(position >= 0 && position < count, "position \(position) out of 0..<\(count)")
        let height = Int(remove(at: position, below: root, isLeaf: rootIsLeaf))
        count -= 1
        totalHeight -= height
        if count == 0 {
            self = Self()
        } else {
            // A root with one child is one level too many.
            while !rootIsLeaf, inners[Int(root)].children.count == 1 {
                freeInners.append(root)
                (root, rootIsLeaf) = (inners[Int(root)].children[0], inners[Int(root)].childrenAreLeaves)
            }
        }
        return height
    }

    /// Sets the height of the row at `position` (0 ..< count) to `height` (≥ 0).
    public mutating func setHeight(_ height: Int, at position: Int) {
        let stored = Self.stored(height)
        let delta = height - self.height(at: position)
        var node = root
        var isLeaf = rootIsLeaf
        var remaining = position
        while !isLeaf {
            let inner = Int(node)
            let index = Self.child(of: inners[inner], holding: &remaining, forInsert: false)
            inners[inner].sums[index] += delta
            isLeaf = inners[inner].childrenAreLeaves
            node = inners[inner].children[index]
        }
        leafHeights[Int(node) * Self.leafCapacity + remaining] = stored
        totalHeight += delta
    }

    /// Every height, in order; for tests.
    public var allHeights: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        func visit(_ node: Int32, isLeaf: Bool) {
            if isLeaf {
                let base = Int(node) * Self.leafCapacity
                for slot in base..<(base + leafCounts[Int(node)]) { result.append(Int(leafHeights[slot])) }
                return
            }
            let inner = inners[Int(node)]
            for child in inner.children { visit(child, isLeaf: inner.childrenAreLeaves) }
        }
        visit(root, isLeaf: rootIsLeaf)
        return result
    }

    // MARK: Internals

    private static func stored(_ height: Int) -> UInt32 {
        precondition(height >= 0 && height <= Int(UInt32.max), "height \(height) out of 0...\(UInt32.max)")
        return UInt32(height)
    }

    /// The leaf holding `position` (0 ..< count), its index there, and the height of all rows
    /// in the leaves before it.
    private func locate(_ position: Int) -> (leaf: Int32, index: Int, before: Int) {
        var node = root
        var isLeaf = rootIsLeaf
        var remaining = position
        var before = 0
        while !isLeaf {
            let inner = inners[Int(node)]
            var index = 0
            while remaining >= inner.counts[index] {
                remaining -= inner.counts[index]
                before += inner.sums[index]
                index += 1
            }
            isLeaf = inner.childrenAreLeaves
            node = inner.children[index]
        }
        return (node, remaining, before)
    }

    /// The child holding `position` (made relative to that child). An insertion at a child's end
    /// goes into that child rather than the start of the next.
    private static func child(of inner: Inner, holding position: inout Int, forInsert: Bool) -> Int {
        var index = 0
        let last = inner.children.count - 1
        while index < last, forInsert ? position > inner.counts[index] : position >= inner.counts[index] {
            position -= inner.counts[index]
            index += 1
        }
        return index
    }

    /// Inserts `height` at `position` below `node`; returns the new right sibling of `node` when
    /// it split. A full leaf splits at `split` (0 at the index's front and its full size at the
    /// end, so runs of inserts there leave full leaves; half otherwise).
    private mutating func insert(
        _ height: UInt32,
        at position: Int,
        below node: Int32,
        isLeaf: Bool,
        splittingAt split: Int
    ) -> Int32? {
        let capacity = Self.leafCapacity
        if isLeaf {
            var (leaf, index, sibling): (Int32, Int, Int32?) = (node, position, nil)
            if leafCounts[Int(node)] == capacity {
                let right = newLeaf()
                let (from, to) = (Int(node) * capacity, Int(right) * capacity)
                for moved in split..<capacity { leafHeights[to + moved - split] = leafHeights[from + moved] }
                (leafCounts[Int(node)], leafCounts[Int(right)]) = (split, capacity - split)
                if position > split || split == capacity { (leaf, index) = (right, position - split) }
                sibling = right
            }
            let base = Int(leaf) * capacity
            let end = base + leafCounts[Int(leaf)]
            for slot in stride(from: end, to: base + index, by: -1) { leafHeights[slot] = leafHeights[slot - 1] }
            leafHeights[base + index] = height
            leafCounts[Int(leaf)] += 1
            return sibling
        }
        let inner = Int(node)
        var remaining = position
        let index = Self.child(of: inners[inner], holding: &remaining, forInsert: true)
        let child = inners[inner].children[index]
        let childrenAreLeaves = inners[inner].childrenAreLeaves
        let sibling = insert(height, at: remaining, below: child, isLeaf: childrenAreLeaves, splittingAt: split)
        inners[inner].counts[index] += 1
        inners[inner].sums[index] += Int(height)
        guard let sibling else { return nil }
        let moved = totals(of: sibling, isLeaf: childrenAreLeaves)
        inners[inner].counts[index] -= moved.count
        inners[inner].sums[index] -= moved.sum
        inners[inner].children.insert(sibling, at: index + 1)
        inners[inner].counts.insert(moved.count, at: index + 1)
        inners[inner].sums.insert(moved.sum, at: index + 1)
        guard inners[inner].children.count > Self.innerCapacity else { return nil }
        let half = inners[inner].children.count / 2
        let upper = Inner(
            children: Array(inners[inner].children[half...]),
            counts: Array(inners[inner].counts[half...]),
            sums: Array(inners[inner].sums[half...]),
            childrenAreLeaves: childrenAreLeaves
        )
        inners[inner].children.removeSubrange(half...)
        inners[inner].counts.removeSubrange(half...)
        inners[inner].sums.removeSubrange(half...)
        return newInner(upper)
    }

    /// Removes the row at `position` below `node` and returns its height; drops children that
    /// become empty.
    private mutating func remove(at position: Int, below node: Int32, isLeaf: Bool) -> UInt32 {
        if isLeaf {
            let base = Int(node) * Self.leafCapacity
            let height = leafHeights[base + position]
            for slot in (base + position)..<(base + leafCounts[Int(node)] - 1) {
                leafHeights[slot] = leafHeights[slot + 1]
            }
            leafCounts[Int(node)] -= 1
            return height
        }
        let inner = Int(node)
        var remaining = position
        let index = Self.child(of: inners[inner], holding: &remaining, forInsert: false)
        let child = inners[inner].children[index]
        let childrenAreLeaves = inners[inner].childrenAreLeaves
        let height = remove(at: remaining, below: child, isLeaf: childrenAreLeaves)
        inners[inner].counts[index] -= 1
        inners[inner].sums[index] -= Int(height)
        if inners[inner].counts[index] == 0 {
            if childrenAreLeaves { freeLeaves.append(child) } else { freeInners.append(child) }
            inners[inner].children.remove(at: index)
            inners[inner].counts.remove(at: index)
            inners[inner].sums.remove(at: index)
        }
        return height
    }

    /// How many rows lie below `node` and the sum of their heights, from its own storage.
    private func totals(of node: Int32, isLeaf: Bool) -> (count: Int, sum: Int) {
        guard isLeaf else { return (inners[Int(node)].counts.reduce(0, +), inners[Int(node)].sums.reduce(0, +)) }
        let base = Int(node) * Self.leafCapacity
        let size = leafCounts[Int(node)]
        return (size, leafHeights[base..<(base + size)].reduce(0) { $0 + Int($1) })
    }

    /// A new empty leaf, in a freed block if there is one.
    private mutating func newLeaf() -> Int32 {
        if let reused = freeLeaves.popLast() {
            leafCounts[Int(reused)] = 0
            return reused
        }
        leafHeights.append(contentsOf: repeatElement(0, count: Self.leafCapacity))
        leafCounts.append(0)
        return Int32(leafCounts.count - 1)
    }

    /// Stores `inner` in a freed place if there is one, else at the end.
    private mutating func newInner(_ inner: Inner) -> Int32 {
        if let reused = freeInners.popLast() {
            inners[Int(reused)] = inner
            return reused
        }
        inners.append(inner)
        return Int32(inners.count - 1)
    }

    /// Checks that every stored count and sum matches what lies below it, that leaves sit on one
    /// level, and that no node is over-full or (below the root) empty; nil when all hold. For tests.
    public func checkInvariants() -> String? {
        var leafDepth: Int?
        func walk(_ node: Int32, isLeaf: Bool, depth: Int) -> (count: Int, sum: Int, problem: String?) {
            if isLeaf {
                if leafDepth == nil { leafDepth = depth }
                if leafDepth != depth { return (0, 0, "leaf \(node) at depth \(depth), not \(leafDepth!)") }
                if depth > 0, leafCounts[Int(node)] == 0 { return (0, 0, "leaf \(node) is empty") }
                if leafCounts[Int(node)] > Self.leafCapacity { return (0, 0, "leaf \(node) is over-full") }
                let (count, sum) = totals(of: node, isLeaf: true)
                return (count, sum, nil)
            }
            let inner = inners[Int(node)]
            if inner.children.isEmpty { return (0, 0, "inner \(node) is empty") }
            if inner.children.count > Self.innerCapacity { return (0, 0, "inner \(node) is over-full") }
            if depth == 0, inner.children.count == 1 { return (0, 0, "root \(node) has one child") }
            if inner.counts.count != inner.children.count || inner.sums.count != inner.children.count {
                return (0, 0, "inner \(node) has \(inner.counts.count) counts, \(inner.sums.count) sums")
            }
            var (count, sum) = (0, 0)
            for (index, child) in inner.children.enumerated() {
                let below = walk(child, isLeaf: inner.childrenAreLeaves, depth: depth + 1)
                if let problem = below.problem { return (0, 0, problem) }
                if below.count != inner.counts[index] || below.sum != inner.sums[index] {
                    let stored = "\(inner.counts[index]) rows of \(inner.sums[index])"
                    return (0, 0, "inner \(node) keeps \(stored) below \(child), not \(below.count) of \(below.sum)")
                }
                (count, sum) = (count + below.count, sum + below.sum)
            }
            return (count, sum, nil)
        }
        let (total, sum, problem) = walk(root, isLeaf: rootIsLeaf, depth: 0)
        if let problem { return problem }
        if total != count { return "the tree holds \(total) rows, count says \(count)" }
        return sum == totalHeight ? nil : "the tree's heights sum to \(sum), totalHeight says \(totalHeight)"
    }
}
