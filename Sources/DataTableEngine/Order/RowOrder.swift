/// The order of a table's rows: a sequence of row slots that answers "which row is at position
/// p" and "at which position is this row" in O(log n), and inserts or removes at any position in
/// O(log n).
///
/// It is a B+ tree whose inner nodes keep, per child, how many slots lie below it (a counted
/// tree). Leaves hold up to ``leafCapacity`` slots and know their parent; a side table maps each
/// slot to its leaf, so a row's position is found by walking up from its leaf and adding the
/// counts of the siblings to its left. Nodes live in arrays and refer to each other by index,
/// which keeps the whole order one value with no per-node allocation.
///
/// Removal does not merge under-full nodes; it only drops empty ones. The height is bounded by
/// the largest size the order has had, and a re-sort (``init(_:)``) rebuilds it packed.
///
/// An order that is the slots `0 ..< count` in sequence (a table as loaded or added to, with no
/// row deleted or moved) keeps no tree at all: slot and position are the same number, found
/// with no memory read, and the order takes no memory (eight bytes a row otherwise). Appending
/// the next slot keeps it so; any other change builds the tree first (once, in O(n)).
public struct RowOrder: Sendable {
    /// Slots per leaf before it splits.
    public static let leafCapacity = 64
    /// Children per inner node before it splits.
    public static let innerCapacity = 64
    /// Orders of at least this many slots are made on every core (``init(_:indexed:)``).
    static let slotsMadeOnEveryCore = 1 << 16

    private struct Leaf: Sendable {
        var slots: [UInt32] = []
        var parent: Int32 = -1
    }

    private struct Inner: Sendable {
        var children: [Int32] = []
        var counts: [Int] = []
        var parent: Int32 = -1
        /// Whether the children are leaves (all children of one node are on one level).
        var childrenAreLeaves: Bool
    }

    private var leaves: [Leaf] = []
    private var inners: [Inner] = []
    private var freeLeaves: [Int32] = []
    private var freeInners: [Int32] = []
    /// Slot → index of the leaf holding it; -1 when the slot is not in the order. Empty in an
    /// order that is not indexed.
    private var leafOfSlot: [Int32] = []
    /// Whether the order keeps ``leafOfSlot`` (and so answers ``position(of:)``).
    private var indexed = true
    /// The root: a leaf when `rootIsLeaf`, else an inner node.
    private var root: Int32 = 0
    private var rootIsLeaf = true
    /// Whether the order is `0 ..< count` in sequence, with no tree (every other member empty).
    private var isSequence = true

    /// How many slots the order holds.
    public private(set) var count = 0

    /// An empty order.
    public init() {}

    /// An order holding `slots` in this sequence, packed densely. An order that is not
    /// `indexed` does not know where a slot is: it saves a write at random a slot (and four
    /// bytes a slot of the table) for a caller that finds its rows by other means, such as a
    /// binary search of an order by value. Its ``position(of:)``, ``contains(_:)`` and
    /// ``remove(_:)`` must not be called.
    public init(_ slots: [UInt32], indexed: Bool = true) {
        if Self.isSequence(slots) {
            self.init()
            self.indexed = indexed
            count = slots.count
        } else {
            self.init(tree: slots, indexed: indexed)
        }
    }

    /// Whether `slots` is `0 ..< slots.count` in sequence.
    private static func isSequence(_ slots: [UInt32]) -> Bool {
        guard slots.count <= Int(UInt32.max) else { return false }
        return slots.withUnsafeBufferPointer { slots in
            var index: UInt32 = 0
            for slot in slots {
                guard slot == index else { return false }
                index &+= 1
            }
            return true
        }
    }

    /// An order holding `slots` in a tree, packed densely (see ``init(_:indexed:)``).
    private init(tree slots: [UInt32], indexed: Bool) {
        self.indexed = indexed
        isSequence = false
        leaves = [Leaf()]
        guard !slots.isEmpty else { return }
        let fill = Self.leafCapacity * 3 / 4
        let indexed = indexed
        let count = slots.count
        let leafCount = (count + fill - 1) / fill
        var leafOfSlot = indexed ? [Int32](repeating: -1, count: Int(slots.max()!) + 1) : []
        // The leaves made in ranges, on every core for a long order; each slot's leaf written
        // where it lies (slots are different, so no two pieces write one place: a slot given
        // twice is caught when the second write finds the first). The arrays are
        // read and written through pointers: held by `self`, they were checked for uniqueness,
        // retained and released at every slot.
        let pieces = count >= Self.slotsMadeOnEveryCore ? min(8, leafCount) : 1
        let made = slots.withUnsafeBufferPointer { slots in
            leafOfSlot.withUnsafeMutableBufferPointer { leafOfSlot in
                let source = UnsafeSendableBuffer(slots)
                let target = UnsafeMutableSendableBuffer(leafOfSlot)
                return ConcurrentPieces.map(pieces) { piece -> [Leaf] in
                    let leavesOfPiece = leafCount * piece / pieces..<leafCount * (piece + 1) / pieces
                    var made: [Leaf] = []
                    made.reserveCapacity(leavesOfPiece.count)
                    for leaf in leavesOfPiece {
                        let part = UnsafeBufferPointer(
                            rebasing: source.buffer[leaf * fill..<min(leaf * fill + fill, count)]
                        )
                        made.append(Leaf(slots: Array(part)))
                        guard indexed else { continue }
                        for slot in part {
                            precondition(target.buffer[Int(slot)] == -1, "slot \(slot) appears twice")
                            target.buffer[Int(slot)] = Int32(leaf)
                        }
                    }
                    return made
                }
            }
        }
        leaves = made.count == 1 ? made[0] : Array(made.joined())
        self.leafOfSlot = leafOfSlot
        self.count = count
        var level = (0..<leafCount).map { Int32($0) }
        var levelCounts = (0..<leafCount).map { min(fill, count - $0 * fill) }
        var childrenAreLeaves = true
        let fanout = Self.innerCapacity * 3 / 4
        while level.count > 1 {
            var nextLevel: [Int32] = []
            var nextCounts: [Int] = []
            var first = 0
            while first < level.count {
                let last = min(first + fanout, level.count)
                let index = Int32(inners.count)
                inners.append(
                    Inner(
                        children: Array(level[first..<last]),
                        counts: Array(levelCounts[first..<last]),
                        childrenAreLeaves: childrenAreLeaves
                    )
                )
                for child in level[first..<last] { setParent(of: child, isLeaf: childrenAreLeaves, to: index) }
                nextLevel.append(index)
                nextCounts.append(levelCounts[first..<last].reduce(0, +))
                first = last
            }
            level = nextLevel
            levelCounts = nextCounts
            childrenAreLeaves = false
        }
        root = level[0]
        rootIsLeaf = childrenAreLeaves
    }

    /// Calls `body` with every slot, first to last.
    public func forEachSlot(_ body: (UInt32) -> Void) {
        if isSequence {
            for slot in 0..<UInt32(count) { body(slot) }
            return
        }
        func visit(_ node: Int32, isLeaf: Bool) {
            if isLeaf {
                for slot in leaves[Int(node)].slots { body(slot) }
                return
            }
            let inner = inners[Int(node)]
            for child in inner.children { visit(child, isLeaf: inner.childrenAreLeaves) }
        }
        if count > 0 { visit(root, isLeaf: rootIsLeaf) }
    }

    /// Whether `slot` is in the order.
    public func contains(_ slot: UInt32) -> Bool {
        if isSequence { return Int(slot) < count }
        precondition(indexed, "an order that is not indexed does not know where its slots are")
        return Int(slot) < leafOfSlot.count && leafOfSlot[Int(slot)] >= 0
    }

    /// The slot at `position` (0 ..< count).
    public func slot(at position: Int) -> UInt32 {
        precondition(position >= 0 && position < count, "position \(position) out of 0..<\(count)")
        if isSequence { return UInt32(position) }
        let (leaf, offset) = locate(position)
        return leaves[Int(leaf)].slots[offset]
    }

    /// The position of `slot`, or `nil` when it is not in the order.
    public func position(of slot: UInt32) -> Int? {
        guard contains(slot) else { return nil }
        if isSequence { return Int(slot) }
        // Nodes are read where they lie (`inners[i].children`, not a copy of `inners[i]`, which
        // would retain and release its arrays on every level).
        let leaf = leafOfSlot[Int(slot)]
        var position = leaves[Int(leaf)].slots.firstIndex(of: slot)!
        var child = leaf
        var parent = leaves[Int(leaf)].parent
        while parent >= 0 {
            let node = Int(parent)
            let index = inners[node].children.firstIndex(of: child)!
            position += inners[node].counts.withUnsafeBufferPointer { counts in
                var sum = 0
                for left in 0..<index { sum &+= counts[left] }
                return sum
            }
            child = parent
            parent = inners[node].parent
        }
        return position
    }

    /// Up to `limit` slots from `position` on, in order.
    public func slots(from position: Int, limit: Int) -> [UInt32] {
        let first = max(0, position)
        // (Compared, not added: `limit` may be as large as Int allows.)
        let end = max(0, limit) >= count - min(first, count) ? count : first + max(0, limit)
        guard first < end else { return [] }
        if isSequence { return Array(UInt32(first)..<UInt32(end)) }
        // One walk down the tree, left to right, into the nodes that hold part of the range
        // (finding each leaf from the root again cost a descent a leaf), each leaf's part
        // copied whole.
        return [UInt32](unsafeUninitializedCapacity: end - first) { result, initialized in
            var written = 0
            func visit(_ node: Int32, isLeaf: Bool, start: Int) {
                if isLeaf {
                    leaves[Int(node)].slots.withUnsafeBufferPointer { slots in
                        let from = max(0, first - start)
                        let to = min(slots.count, end - start)
                        guard from < to else { return }
                        (result.baseAddress! + written).initialize(from: slots.baseAddress! + from, count: to - from)
                        written += to - from
                    }
                    return
                }
                var childStart = start
                let childrenAreLeaves = inners[Int(node)].childrenAreLeaves
                for index in inners[Int(node)].children.indices {
                    let childCount = inners[Int(node)].counts[index]
                    if childStart + childCount > first {
                        visit(inners[Int(node)].children[index], isLeaf: childrenAreLeaves, start: childStart)
                    }
                    childStart += childCount
                    if childStart >= end { break }
                }
            }
            visit(root, isLeaf: rootIsLeaf, start: 0)
            precondition(written == end - first, "the tree's counts disagree with its leaves")
            initialized = written
        }
    }

    /// Every slot, in order.
    public var allSlots: [UInt32] { slots(from: 0, limit: count) }

    /// Puts `slot` (not yet in the order) at `position` (0 ... count); later slots move up one.
    public mutating func insert(_ slot: UInt32, at position: Int) {
        precondition(position >= 0 && position <= count, "position \(position) out of 0...\(count)")
        if isSequence {
            if position == count, Int(slot) == count, slot < UInt32.max {
                count += 1
                return
            }
            buildTree()
        }
        if indexed {
            precondition(!contains(slot), "slot \(slot) is already in the order")
            if Int(slot) >= leafOfSlot.count {
                leafOfSlot.append(contentsOf: repeatElement(-1, count: Int(slot) + 1 - leafOfSlot.count))
            }
        }
        let (node, remaining) = descend(to: position, adding: 1)
        leaves[Int(node)].slots.insert(slot, at: remaining)
        if indexed { leafOfSlot[Int(slot)] = node }
        count += 1
        if leaves[Int(node)].slots.count > Self.leafCapacity {
            splitLeaf(node)
        }
    }

    /// Whether slots below `limit` can come in with no O(n) work: the side table from slot to
    /// leaf need not grow, and (`appending` false: the slots go anywhere) no tree need be built.
    func hasRoom(forSlotsBelow limit: Int, appending: Bool) -> Bool {
        if isSequence { return appending }
        return !indexed || leafOfSlot.capacity >= limit
    }

    /// Does now the O(n) work ``hasRoom(forSlotsBelow:appending:)`` looks for.
    mutating func makeRoom(forSlotsBelow limit: Int, appending: Bool) {
        if isSequence {
            guard !appending else { return }
            buildTree()
        }
        if indexed { leafOfSlot.reserveCapacity(limit) }
    }

    /// Appends `slot` at the end.
    public mutating func append(_ slot: UInt32) {
        insert(slot, at: count)
    }

    /// Removes and returns the slot at `position`; later slots move down one.
    @discardableResult
    public mutating func remove(at position: Int) -> UInt32 {
        precondition(position >= 0 && position < count, "position \(position) out of 0..<\(count)")
        if isSequence {
            // The last slot goes with no tree; any other leaves the rest out of sequence.
            if position == count - 1 {
                count -= 1
                return UInt32(position)
            }
            buildTree()
        }
        let (node, remaining) = descend(to: position, adding: -1)
        let slot = leaves[Int(node)].slots.remove(at: remaining)
        if indexed { leafOfSlot[Int(slot)] = -1 }
        count -= 1
        if leaves[Int(node)].slots.isEmpty, node != root {
            detach(node, isLeaf: true)
        }
        return slot
    }

    /// Removes `slot`; returns the position it had, or `nil` when it was not in the order.
    @discardableResult
    public mutating func remove(_ slot: UInt32) -> Int? {
        guard let position = position(of: slot) else { return nil }
        remove(at: position)
        return position
    }

    /// Builds the tree of an order in sequence (done before any change that leaves it out of
    /// sequence). Called ahead, for an order whose changes are made where an O(n) pause must not
    /// be (a rolling table drops its first rows as rows are added).
    public mutating func buildTree() {
        guard isSequence else { return }
        self = RowOrder(tree: Array(0..<UInt32(count)), indexed: indexed)
    }

    // MARK: Internals

    /// The leaf and offset of `position` (0 ..< count).
    private func locate(_ position: Int) -> (leaf: Int32, offset: Int) {
        var node = root
        var isLeaf = rootIsLeaf
        var remaining = position
        while !isLeaf {
            let inner = inners[Int(node)]
            let index = Self.child(of: inner, holding: &remaining, forInsert: false)
            isLeaf = inner.childrenAreLeaves
            node = inner.children[index]
        }
        return (node, remaining)
    }

    /// Like ``locate(_:)``, adding `delta` to the count of every subtree on the way: +1 to make
    /// room for an insertion at `position` (0 ... count), -1 for a removal.
    private mutating func descend(to position: Int, adding delta: Int) -> (leaf: Int32, offset: Int) {
        var node = root
        var isLeaf = rootIsLeaf
        var remaining = position
        while !isLeaf {
            let inner = Int(node)
            let index = Self.child(of: inners[inner], holding: &remaining, forInsert: delta > 0)
            inners[inner].counts[index] += delta
            isLeaf = inners[inner].childrenAreLeaves
            node = inners[inner].children[index]
        }
        return (node, remaining)
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

    private mutating func setParent(of node: Int32, isLeaf: Bool, to parent: Int32) {
        if isLeaf { leaves[Int(node)].parent = parent } else { inners[Int(node)].parent = parent }
    }

    private func parent(of node: Int32, isLeaf: Bool) -> Int32 {
        isLeaf ? leaves[Int(node)].parent : inners[Int(node)].parent
    }

    private mutating func newLeaf(_ leaf: Leaf) -> Int32 {
        Self.allocate(leaf, in: &leaves, reusing: &freeLeaves)
    }

    private mutating func newInner(_ inner: Inner) -> Int32 {
        Self.allocate(inner, in: &inners, reusing: &freeInners)
    }

    /// Stores `node` in a freed place of `nodes` if there is one, else at the end.
    private static func allocate<Node>(_ node: Node, in nodes: inout [Node], reusing free: inout [Int32]) -> Int32 {
        if let reused = free.popLast() {
            nodes[Int(reused)] = node
            return reused
        }
        nodes.append(node)
        return Int32(nodes.count - 1)
    }

    /// Moves the upper half of an over-full leaf into a new leaf right after it.
    private mutating func splitLeaf(_ leaf: Int32) {
        let half = leaves[Int(leaf)].slots.count / 2
        let moved = Array(leaves[Int(leaf)].slots[half...])
        leaves[Int(leaf)].slots.removeSubrange(half...)
        let sibling = newLeaf(Leaf(slots: moved, parent: leaves[Int(leaf)].parent))
        if indexed {
            for slot in moved { leafOfSlot[Int(slot)] = sibling }
        }
        attach(sibling, isLeaf: true, after: leaf, movedCount: moved.count)
    }

    /// Moves the upper half of an over-full inner node into a new node right after it.
    private mutating func splitInner(_ inner: Int32) {
        let node = inners[Int(inner)]
        let half = node.children.count / 2
        let children = Array(node.children[half...])
        let counts = Array(node.counts[half...])
        inners[Int(inner)].children.removeSubrange(half...)
        inners[Int(inner)].counts.removeSubrange(half...)
        let sibling = newInner(
            Inner(children: children, counts: counts, parent: node.parent, childrenAreLeaves: node.childrenAreLeaves)
        )
        for child in children { setParent(of: child, isLeaf: node.childrenAreLeaves, to: sibling) }
        attach(sibling, isLeaf: false, after: inner, movedCount: counts.reduce(0, +))
    }

    /// Links a new right sibling `node` (holding `movedCount` slots taken from `left`) into the
    /// parent of `left`, growing a new root when `left` was the root.
    private mutating func attach(_ node: Int32, isLeaf: Bool, after left: Int32, movedCount: Int) {
        let parent = parent(of: left, isLeaf: isLeaf)
        if parent < 0 {
            let leftCount = subtreeCount(of: left, isLeaf: isLeaf)
            let newRoot = newInner(
                Inner(children: [left, node], counts: [leftCount, movedCount], childrenAreLeaves: isLeaf)
            )
            setParent(of: left, isLeaf: isLeaf, to: newRoot)
            setParent(of: node, isLeaf: isLeaf, to: newRoot)
            root = newRoot
            rootIsLeaf = false
            return
        }
        let index = inners[Int(parent)].children.firstIndex(of: left)!
        inners[Int(parent)].counts[index] -= movedCount
        inners[Int(parent)].children.insert(node, at: index + 1)
        inners[Int(parent)].counts.insert(movedCount, at: index + 1)
        setParent(of: node, isLeaf: isLeaf, to: parent)
        if inners[Int(parent)].children.count > Self.innerCapacity {
            splitInner(parent)
        }
    }

    /// Removes an empty node from its parent, and the parent too when it becomes empty.
    private mutating func detach(_ node: Int32, isLeaf: Bool) {
        let parent = parent(of: node, isLeaf: isLeaf)
        if isLeaf { freeLeaves.append(node) } else { freeInners.append(node) }
        let index = inners[Int(parent)].children.firstIndex(of: node)!
        inners[Int(parent)].children.remove(at: index)
        inners[Int(parent)].counts.remove(at: index)
        if inners[Int(parent)].children.isEmpty {
            detach(parent, isLeaf: false)
        } else if parent == root, inners[Int(parent)].children.count == 1 {
            // A root with one child is one level too many.
            let only = inners[Int(parent)].children[0]
            let onlyIsLeaf = inners[Int(parent)].childrenAreLeaves
            freeInners.append(parent)
            setParent(of: only, isLeaf: onlyIsLeaf, to: -1)
            root = only
            rootIsLeaf = onlyIsLeaf
        }
    }

    private func subtreeCount(of node: Int32, isLeaf: Bool) -> Int {
        isLeaf ? leaves[Int(node)].slots.count : inners[Int(node)].counts.reduce(0, +)
    }

    /// Checks every structural invariant; for tests.
    public func checkInvariants() -> String? {
        if isSequence {
            let empty = leaves.isEmpty && inners.isEmpty && leafOfSlot.isEmpty && freeLeaves.isEmpty
            return empty ? nil : "an order in sequence keeps a tree"
        }
        func walk(_ node: Int32, isLeaf: Bool, parent: Int32) -> (count: Int, problem: String?) {
            if isLeaf {
                let leaf = leaves[Int(node)]
                if leaf.parent != parent { return (0, "leaf \(node) has parent \(leaf.parent), not \(parent)") }
                if leaf.slots.count > Self.leafCapacity { return (0, "leaf \(node) is over-full") }
                for slot in leaf.slots where indexed && leafOfSlot[Int(slot)] != node {
                    return (0, "slot \(slot) maps to leaf \(leafOfSlot[Int(slot)]), not \(node)")
                }
                return (leaf.slots.count, nil)
            }
            let inner = inners[Int(node)]
            if inner.parent != parent { return (0, "inner \(node) has parent \(inner.parent), not \(parent)") }
            if inner.children.isEmpty { return (0, "inner \(node) is empty") }
            var total = 0
            for (child, expected) in zip(inner.children, inner.counts) {
                let (actual, problem) = walk(child, isLeaf: inner.childrenAreLeaves, parent: node)
                if let problem { return (0, problem) }
                if actual != expected { return (0, "inner \(node) counts \(expected) below \(child), not \(actual)") }
                total += actual
            }
            return (total, nil)
        }
        let (total, problem) = walk(root, isLeaf: rootIsLeaf, parent: -1)
        if let problem { return problem }
        return total == count ? nil : "the tree holds \(total) slots, count says \(count)"
    }
}
