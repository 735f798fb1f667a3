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

    /// A child of an inner node: a leaf or inner node, how many rows lie below it, and the sum
    /// of their heights.
    private struct Child: Sendable {
        var node: Int32
        var count: Int
        var sum: Int
    }

    private struct Inner: Sendable {
        var children: [Child]
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
        var level: [Child] = []
        var sum = 0
        for height in heights {
            flat.append(Self.stored(height))
            sum += height
            if flat.count % capacity == 0 {
                level.append(Child(node: Int32(level.count), count: capacity, sum: sum))
                sum = 0
            }
        }
        if flat.count % capacity > 0 {
            level.append(Child(node: Int32(level.count), count: flat.count % capacity, sum: sum))
            flat.append(contentsOf: repeatElement(0, count: capacity - flat.count % capacity))
        }
        guard !level.isEmpty else { return }
        leafHeights = flat
        leafCounts = level.map(\.count)
        count = leafCounts.reduce(0, +)
        totalHeight = level.reduce(0) { $0 + $1.sum }
        var childrenAreLeaves = true
        let fanout = Self.innerCapacity * 3 / 4
        while level.count > 1 {
            var next: [Child] = []
            for first in stride(from: 0, to: level.count, by: fanout) {
                let children = Array(level[first..<min(first + fanout, level.count)])
                inners.append(Inner(children: children, childrenAreLeaves: childrenAreLeaves))
                next.append(entry(for: Int32(inners.count - 1), isLeaf: false))
            }
            level = next
            childrenAreLeaves = false
        }
        root = level[0].node
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
        return leafHeights[base..<(base + index)].reduce(before) { $0 + Int($1) }
    }

    /// The row covering `offset` and how far into it `offset` lies; the index must not be empty.
    /// A row of height 0 covers no offset. An offset before the first row gives row 0 with a
    /// negative `inside`; one at or past ``totalHeight`` gives the last row, measured from its
    /// start.
    public func position(atOffset offset: Int) -> (position: Int, inside: Int) {
        precondition(count > 0, "an empty index has no rows")
        if offset < 0 { return (0, offset) }
        if offset >= totalHeight { return (count - 1, offset - self.offset(of: count - 1)) }
        var (node, isLeaf) = (root, rootIsLeaf)
        var (remaining, position) = (offset, 0)
        while !isLeaf {
            let inner = inners[Int(node)]
            var index = 0
            while remaining >= inner.children[index].sum {
                remaining -= inner.children[index].sum
                position += inner.children[index].count
                index += 1
            }
            (node, isLeaf) = (inner.children[index].node, inner.childrenAreLeaves)
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
            let children = [entry(for: root, isLeaf: rootIsLeaf), entry(for: sibling, isLeaf: rootIsLeaf)]
            root = newInner(Inner(children: children, childrenAreLeaves: rootIsLeaf))
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
        if count == 0 { self = Self() }
        // A root with one child is one level too many.
        while !rootIsLeaf, inners[Int(root)].children.count == 1 {
            freeInners.append(root)
            (root, rootIsLeaf) = (inners[Int(root)].children[0].node, inners[Int(root)].childrenAreLeaves)
        }
        return height
    }

    /// Sets the height of the row at `position` (0 ..< count) to `height` (≥ 0).
    public mutating func setHeight(_ height: Int, at position: Int) {
        let stored = Self.stored(height)
        let delta = height - self.height(at: position)
        var (node, isLeaf) = (root, rootIsLeaf)
        var remaining = position
        while !isLeaf {
            let inner = Int(node)
            let index = Self.child(of: inners[inner], holding: &remaining)
            inners[inner].children[index].sum += delta
            (node, isLeaf) = (inners[inner].children[index].node, inners[inner].childrenAreLeaves)
        }
        leafHeights[Int(node) * Self.leafCapacity + remaining] = stored
        totalHeight += delta
    }

    /// Every height, in order; for tests.
    public var allHeights: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        func visit(_ node: Int32, isLeaf: Bool) {
            guard isLeaf else {
                let inner = inners[Int(node)]
                for child in inner.children { visit(child.node, isLeaf: inner.childrenAreLeaves) }
                return
            }
            let base = Int(node) * Self.leafCapacity
            result.append(contentsOf: leafHeights[base..<(base + leafCounts[Int(node)])].lazy.map(Int.init))
        }
        visit(root, isLeaf: rootIsLeaf)
        return result
    }

    // MARK: Internals

    private static func stored(_ height: Int) -> UInt32 {
        precondition(height >= 0 && height <= Int(UInt32.max), "height \(height) out of 0...\(UInt32.max)")
        return UInt32(height)
    }

    /// The leaf holding `position` (0 ..< count), its index there, and the sum of the heights of
    /// the rows in the leaves before it.
    private func locate(_ position: Int) -> (leaf: Int32, index: Int, before: Int) {
        var (node, isLeaf) = (root, rootIsLeaf)
        var (remaining, before) = (position, 0)
        while !isLeaf {
            let inner = inners[Int(node)]
            var index = 0
            while remaining >= inner.children[index].count {
                remaining -= inner.children[index].count
                before += inner.children[index].sum
                index += 1
            }
            (node, isLeaf) = (inner.children[index].node, inner.childrenAreLeaves)
        }
        return (node, remaining, before)
    }

    /// The child holding `position` (made relative to that child); a position past the end goes
    /// to the last child.
    private static func child(of inner: Inner, holding position: inout Int) -> Int {
        var index = 0
        while index < inner.children.count - 1, position >= inner.children[index].count {
            position -= inner.children[index].count
            index += 1
        }
        return index
    }

    /// Inserts `height` at `position` below `node`; returns the new right sibling of `node` when
    /// it split. A full leaf splits at `split`: 0 at the index's front and its full size at the
    /// end, so runs of inserts there leave full leaves behind; half otherwise.
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
        let index = Self.child(of: inners[inner], holding: &remaining)
        let (child, childrenAreLeaves) = (inners[inner].children[index].node, inners[inner].childrenAreLeaves)
        guard let sibling = insert(height, at: remaining, below: child, isLeaf: childrenAreLeaves, splittingAt: split)
        else {
            inners[inner].children[index].count += 1
            inners[inner].children[index].sum += Int(height)
            return nil
        }
        inners[inner].children[index] = entry(for: child, isLeaf: childrenAreLeaves)
        inners[inner].children.insert(entry(for: sibling, isLeaf: childrenAreLeaves), at: index + 1)
        guard inners[inner].children.count > Self.innerCapacity else { return nil }
        let half = inners[inner].children.count / 2
        let upper = Array(inners[inner].children[half...])
        inners[inner].children.removeSubrange(half...)
        return newInner(Inner(children: upper, childrenAreLeaves: childrenAreLeaves))
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
        let index = Self.child(of: inners[inner], holding: &remaining)
        let (child, childrenAreLeaves) = (inners[inner].children[index].node, inners[inner].childrenAreLeaves)
        let height = remove(at: remaining, below: child, isLeaf: childrenAreLeaves)
        inners[inner].children[index].count -= 1
        inners[inner].children[index].sum -= Int(height)
        if inners[inner].children[index].count == 0 {
            if childrenAreLeaves { freeLeaves.append(child) } else { freeInners.append(child) }
            inners[inner].children.remove(at: index)
        }
        return height
    }

    /// `node` as a child entry, its count and sum taken from its own storage (for an inner node,
    /// from the entries of its children).
    private func entry(for node: Int32, isLeaf: Bool) -> Child {
        guard isLeaf else {
            let children = inners[Int(node)].children
            let (count, sum) = children.reduce((0, 0)) { ($0.0 + $1.count, $0.1 + $1.sum) }
            return Child(node: node, count: count, sum: sum)
        }
        let base = Int(node) * Self.leafCapacity
        let size = leafCounts[Int(node)]
        return Child(node: node, count: size, sum: leafHeights[base..<(base + size)].reduce(0) { $0 + Int($1) })
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

    /// Checks that every kept count and sum matches what lies below it, that all leaves are on
    /// one level, that no node is over-full or (below the root) empty, and that every node is
    /// either in the tree or free; nil when all hold. For tests.
    public func checkInvariants() -> String? {
        var (leafDepth, leavesSeen, innersSeen) = (-1, 0, 0)
        func walk(_ node: Int32, isLeaf: Bool, depth: Int) -> String? {
            if isLeaf {
                leavesSeen += 1
                if leafDepth < 0 { leafDepth = depth }
                if depth != leafDepth { return "leaf \(node) at depth \(depth), another at \(leafDepth)" }
                let size = leafCounts[Int(node)]
                return size > Self.leafCapacity || (depth > 0 && size == 0) ? "leaf \(node) holds \(size)" : nil
            }
            innersSeen += 1
            let inner = inners[Int(node)]
            let fanout = inner.children.count
            if fanout == 0 || fanout > Self.innerCapacity || (depth == 0 && fanout == 1) {
                return "inner \(node) has \(fanout) children"
            }
            for child in inner.children {
                if let problem = walk(child.node, isLeaf: inner.childrenAreLeaves, depth: depth + 1) { return problem }
                let actual = entry(for: child.node, isLeaf: inner.childrenAreLeaves)
                if actual.count != child.count || actual.sum != child.sum {
                    let kept = "\(child.count) rows of \(child.sum)"
                    return "inner \(node) keeps \(kept) below \(child.node), not \(actual.count) of \(actual.sum)"
                }
            }
            return nil
        }
        if let problem = walk(root, isLeaf: rootIsLeaf, depth: 0) { return problem }
        if leavesSeen + freeLeaves.count != leafCounts.count || innersSeen + freeInners.count != inners.count {
            return "\(leavesSeen) leaves and \(innersSeen) inner nodes in the tree do not add up with the free ones"
        }
        let tree = entry(for: root, isLeaf: rootIsLeaf)
        if tree.count == count, tree.sum == totalHeight { return nil }
        return "the tree holds \(tree.count) rows of \(tree.sum), not \(count) of \(totalHeight)"
    }
}
