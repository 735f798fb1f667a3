/// What a ``CountedSumTree`` holds per place and adds up: row heights (`UInt32` each, summed
/// exactly as `Int`) or numbers (`Double`, summed as `Double`).
protocol SummedWeight {
    associatedtype Stored: Sendable
    associatedtype Sum: AdditiveArithmetic & Comparable & Sendable
    /// What an unused place holds.
    static var blank: Stored { get }
    static func sum(_ stored: Stored) -> Sum
}

/// Row heights: `UInt32` each, summed as `Int`, so offsets stay exact however many rows there are.
enum HeightWeight: SummedWeight {
    static var blank: UInt32 { 0 }
    static func sum(_ stored: UInt32) -> Int { Int(stored) }
}

/// A column's numbers, summed as `Double`.
enum NumberWeight: SummedWeight {
    static var blank: Double { 0 }
    static func sum(_ stored: Double) -> Double { stored }
}

/// A sequence of weights (row heights, or a column's numbers in a view's order) that answers
/// "the sum of the weights before position p" and "the position where the sums pass s" in
/// O(log n), and inserts, removes or changes a weight at any position in O(log n).
///
/// It is a B+ tree whose inner nodes keep, per child, how many weights lie below it and their
/// sum (a counted tree). Finding a position or a sum walks down from the root, skipping whole
/// children by their count or sum; a change walks down once, adjusting the count and sum of
/// every child it enters. A plain array of prefix sums answers the same questions but costs
/// O(n) to keep current: one insertion or change moves every sum after it. Leaves hold up to
/// ``leafCapacity`` weights in one flat array (a fixed block per leaf); inner nodes live in an
/// array and refer to children by index, which keeps the whole tree one value with no per-node
/// allocation.
///
/// Removal does not merge under-full nodes; it only drops empty ones and collapses a root with a
/// single child. ``init(_:)`` builds the tree packed in O(n).
struct CountedSumTree<Weight: SummedWeight>: Sendable {
    /// Weights per leaf; a full leaf splits before it takes another.
    static var leafCapacity: Int { 64 }
    /// Children per inner node before it splits.
    static var innerCapacity: Int { 64 }

    /// A child of an inner node: a leaf or inner node, how many weights lie below it, and their sum.
    private struct Child: Sendable {
        var node: Int32
        var count: Int
        var sum: Weight.Sum
    }

    private struct Inner: Sendable {
        var children: [Child]
        /// Whether the children are leaves (all children of one node are on one level).
        var childrenAreLeaves: Bool
    }

    /// Leaf `i` holds its weights at `i * leafCapacity ..< i * leafCapacity + leafCounts[i]`.
    private var leafWeights: [Weight.Stored] = Array(repeating: Weight.blank, count: Self.leafCapacity)
    private var leafCounts: [Int] = [0]
    private var inners: [Inner] = []
    private var freeLeaves: [Int32] = []
    private var freeInners: [Int32] = []
    /// The root: a leaf when `rootIsLeaf`, else an inner node.
    private var root: Int32 = 0
    private var rootIsLeaf = true

    /// How many weights the tree holds.
    private(set) var count = 0
    /// The sum of all weights.
    private(set) var total: Weight.Sum = .zero

    /// An empty tree.
    init() {}

    /// A tree holding `weights` in this order, built packed in O(n): leaves full, inner nodes
    /// three quarters full.
    init(_ weights: some Sequence<Weight.Stored>) {
        let capacity = Self.leafCapacity
        var flat: [Weight.Stored] = []
        flat.reserveCapacity(weights.underestimatedCount)
        var level: [Child] = []
        var sum = Weight.Sum.zero
        for weight in weights {
            flat.append(weight)
            sum += Weight.sum(weight)
            if flat.count % capacity == 0 {
                level.append(Child(node: Int32(level.count), count: capacity, sum: sum))
                sum = .zero
            }
        }
        if flat.count % capacity > 0 {
            level.append(Child(node: Int32(level.count), count: flat.count % capacity, sum: sum))
            flat.append(contentsOf: repeatElement(Weight.blank, count: capacity - flat.count % capacity))
        }
        guard !level.isEmpty else { return }
        leafWeights = flat
        leafCounts = level.map(\.count)
        count = leafCounts.reduce(0, +)
        total = level.reduce(.zero) { $0 + $1.sum }
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

    /// The weight at `position` (0 ..< count).
    func weight(at position: Int) -> Weight.Stored {
        precondition(position >= 0 && position < count, "position \(position) out of 0..<\(count)")
        let (leaf, index, _) = locate(position)
        return leafWeights[Int(leaf) * Self.leafCapacity + index]
    }

    /// The sum of the weights before `position` (0 ... count); `sum(before: count)` is ``total``.
    func sum(before position: Int) -> Weight.Sum {
        precondition(position >= 0 && position <= count, "position \(position) out of 0...\(count)")
        if position == count { return total }
        let (leaf, index, before) = locate(position)
        let base = Int(leaf) * Self.leafCapacity
        return leafWeights[base..<(base + index)].reduce(before) { $0 + Weight.sum($1) }
    }

    /// The position whose weight the running sum passes `target` (0 ≤ `target` < ``total``) in,
    /// and how far past the sums before it `target` lies. Weights must not be negative.
    func position(passing target: Weight.Sum) -> (position: Int, inside: Weight.Sum) {
        var (node, isLeaf) = (root, rootIsLeaf)
        var (remaining, position) = (target, 0)
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
        while remaining >= Weight.sum(leafWeights[slot]) {
            remaining -= Weight.sum(leafWeights[slot])
            position += 1
            slot += 1
        }
        return (position, remaining)
    }

    /// Puts `weight` at `position` (0 ... count); later weights move up one place.
    mutating func insert(_ weight: Weight.Stored, at position: Int) {
        precondition(position >= 0 && position <= count, "position \(position) out of 0...\(count)")
        let split = position == 0 ? 0 : position == count ? Self.leafCapacity : Self.leafCapacity / 2
        if let sibling = insert(weight, at: position, below: root, isLeaf: rootIsLeaf, splittingAt: split) {
            let children = [entry(for: root, isLeaf: rootIsLeaf), entry(for: sibling, isLeaf: rootIsLeaf)]
            root = newInner(Inner(children: children, childrenAreLeaves: rootIsLeaf))
            rootIsLeaf = false
        }
        count += 1
        total += Weight.sum(weight)
    }

    /// Removes the weight at `position` (0 ..< count) and returns it.
    @discardableResult
    mutating func remove(at position: Int) -> Weight.Stored {
        precondition(position >= 0 && position < count, "position \(position) out of 0..<\(count)")
        let weight = remove(at: position, below: root, isLeaf: rootIsLeaf)
        count -= 1
        total -= Weight.sum(weight)
        if count == 0 { self = Self() }
        // A root with one child is one level too many.
        while !rootIsLeaf, inners[Int(root)].children.count == 1 {
            freeInners.append(root)
            (root, rootIsLeaf) = (inners[Int(root)].children[0].node, inners[Int(root)].childrenAreLeaves)
        }
        return weight
    }

    /// Sets the weight at `position` (0 ..< count) to `weight`.
    mutating func set(_ weight: Weight.Stored, at position: Int) {
        let delta = Weight.sum(weight) - Weight.sum(self.weight(at: position))
        var (node, isLeaf) = (root, rootIsLeaf)
        var remaining = position
        while !isLeaf {
            let inner = Int(node)
            let index = Self.child(of: inners[inner], holding: &remaining)
            inners[inner].children[index].sum += delta
            (node, isLeaf) = (inners[inner].children[index].node, inners[inner].childrenAreLeaves)
        }
        leafWeights[Int(node) * Self.leafCapacity + remaining] = weight
        total += delta
    }

    /// Every weight, in order; for tests.
    var allWeights: [Weight.Stored] {
        var result: [Weight.Stored] = []
        result.reserveCapacity(count)
        func visit(_ node: Int32, isLeaf: Bool) {
            guard isLeaf else {
                let inner = inners[Int(node)]
                for child in inner.children { visit(child.node, isLeaf: inner.childrenAreLeaves) }
                return
            }
            let base = Int(node) * Self.leafCapacity
            result.append(contentsOf: leafWeights[base..<(base + leafCounts[Int(node)])])
        }
        visit(root, isLeaf: rootIsLeaf)
        return result
    }

    // MARK: Internals

    /// The leaf holding `position` (0 ..< count), its index there, and the sum of the weights in
    /// the leaves before it.
    private func locate(_ position: Int) -> (leaf: Int32, index: Int, before: Weight.Sum) {
        var (node, isLeaf) = (root, rootIsLeaf)
        var (remaining, before) = (position, Weight.Sum.zero)
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

    /// Inserts `weight` at `position` below `node`; returns the new right sibling of `node` when
    /// it split. A full leaf splits at `split`: 0 at the tree's front and its full size at the
    /// end, so runs of inserts there leave full leaves behind; half otherwise.
    private mutating func insert(
        _ weight: Weight.Stored,
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
                for moved in split..<capacity { leafWeights[to + moved - split] = leafWeights[from + moved] }
                (leafCounts[Int(node)], leafCounts[Int(right)]) = (split, capacity - split)
                if position > split || split == capacity { (leaf, index) = (right, position - split) }
                sibling = right
            }
            let base = Int(leaf) * capacity
            let end = base + leafCounts[Int(leaf)]
            for slot in stride(from: end, to: base + index, by: -1) { leafWeights[slot] = leafWeights[slot - 1] }
            leafWeights[base + index] = weight
            leafCounts[Int(leaf)] += 1
            return sibling
        }
        let inner = Int(node)
        var remaining = position
        let index = Self.child(of: inners[inner], holding: &remaining)
        let (child, childrenAreLeaves) = (inners[inner].children[index].node, inners[inner].childrenAreLeaves)
        guard let sibling = insert(weight, at: remaining, below: child, isLeaf: childrenAreLeaves, splittingAt: split)
        else {
            inners[inner].children[index].count += 1
            inners[inner].children[index].sum += Weight.sum(weight)
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

    /// Removes the weight at `position` below `node` and returns it; drops children that become
    /// empty.
    private mutating func remove(at position: Int, below node: Int32, isLeaf: Bool) -> Weight.Stored {
        if isLeaf {
            let base = Int(node) * Self.leafCapacity
            let weight = leafWeights[base + position]
            for slot in (base + position)..<(base + leafCounts[Int(node)] - 1) {
                leafWeights[slot] = leafWeights[slot + 1]
            }
            leafCounts[Int(node)] -= 1
            return weight
        }
        let inner = Int(node)
        var remaining = position
        let index = Self.child(of: inners[inner], holding: &remaining)
        let (child, childrenAreLeaves) = (inners[inner].children[index].node, inners[inner].childrenAreLeaves)
        let weight = remove(at: remaining, below: child, isLeaf: childrenAreLeaves)
        inners[inner].children[index].count -= 1
        inners[inner].children[index].sum -= Weight.sum(weight)
        if inners[inner].children[index].count == 0 {
            if childrenAreLeaves { freeLeaves.append(child) } else { freeInners.append(child) }
            inners[inner].children.remove(at: index)
        }
        return weight
    }

    /// `node` as a child entry, its count and sum taken from its own storage (for an inner node,
    /// from the entries of its children).
    private func entry(for node: Int32, isLeaf: Bool) -> Child {
        guard isLeaf else {
            let children = inners[Int(node)].children
            let (count, sum) = children.reduce((0, Weight.Sum.zero)) { ($0.0 + $1.count, $0.1 + $1.sum) }
            return Child(node: node, count: count, sum: sum)
        }
        let base = Int(node) * Self.leafCapacity
        let size = leafCounts[Int(node)]
        let sum = leafWeights[base..<(base + size)].reduce(Weight.Sum.zero) { $0 + Weight.sum($1) }
        return Child(node: node, count: size, sum: sum)
    }

    /// A new empty leaf, in a freed block if there is one.
    private mutating func newLeaf() -> Int32 {
        if let reused = freeLeaves.popLast() {
            leafCounts[Int(reused)] = 0
            return reused
        }
        leafWeights.append(contentsOf: repeatElement(Weight.blank, count: Self.leafCapacity))
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

    /// Checks that every kept count and sum matches what lies below it (sums within `tolerance`),
    /// that all leaves are on one level, that no node is over-full or (below the root) empty,
    /// and that every node is either in the tree or free; nil when all hold. For tests.
    func checkInvariants(within tolerance: (Weight.Sum, Weight.Sum) -> Bool = { $0 == $1 }) -> String? {
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
                if actual.count != child.count || !tolerance(actual.sum, child.sum) {
                    let kept = "\(child.count) weights of \(child.sum)"
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
        if tree.count == count, tolerance(tree.sum, total) { return nil }
        return "the tree holds \(tree.count) weights of \(tree.sum), not \(count) of \(total)"
    }
}
