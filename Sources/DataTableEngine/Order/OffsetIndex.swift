/// The heights of a table's rows in display order: maps a vertical offset to the row covering it
/// and a row position to its offset in O(log n), and inserts, removes or re-heights a row in
/// O(log n).
///
/// It is a ``CountedSumTree`` of heights: `UInt32` each (a packed index costs about 4 bytes a
/// row), summed as `Int`, so offsets stay exact however many rows there are.
public struct OffsetIndex: Sendable {
    private var tree: CountedSumTree<HeightWeight>

    /// Heights per leaf of the tree.
    static var leafCapacity: Int { CountedSumTree<HeightWeight>.leafCapacity }

    /// How many rows the index holds.
    public var count: Int { tree.count }
    /// The sum of all row heights: the offset just past the last row.
    public var totalHeight: Int { tree.total }

    /// An empty index.
    public init() { tree = CountedSumTree() }

    /// An index holding `heights` (each ≥ 0) in this order, built packed in O(n).
    public init(heights: some Sequence<Int>) {
        tree = CountedSumTree(heights.lazy.map(Self.stored))
    }

    /// The height of the row at `position` (0 ..< count).
    public func height(at position: Int) -> Int { Int(tree.weight(at: position)) }

    /// The sum of the heights of the rows before `position` (0 ... count); `offset(of: count)` is
    /// ``totalHeight``.
    public func offset(of position: Int) -> Int { tree.sum(before: position) }

    /// The row covering `offset` and how far into it `offset` lies; the index must not be empty.
    /// A row of height 0 covers no offset. An offset before the first row gives row 0 with a
    /// negative `inside`; one at or past ``totalHeight`` gives the last row, measured from its
    /// start.
    public func position(atOffset offset: Int) -> (position: Int, inside: Int) {
        precondition(count > 0, "an empty index has no rows")
        if offset < 0 { return (0, offset) }
        if offset >= totalHeight { return (count - 1, offset - self.offset(of: count - 1)) }
        return tree.position(passing: offset)
    }

    /// Puts a row of `height` (≥ 0) at `position` (0 ... count); later rows move down by it.
    public mutating func insert(_ height: Int, at position: Int) {
        tree.insert(Self.stored(height), at: position)
    }

    /// Appends a row of `height` (≥ 0) after the last.
    public mutating func append(_ height: Int) {
        insert(height, at: count)
    }

    /// Removes the row at `position` (0 ..< count) and returns its height.
    @discardableResult
    public mutating func remove(at position: Int) -> Int {
        Int(tree.remove(at: position))
    }

    /// Sets the height of the row at `position` (0 ..< count) to `height` (≥ 0).
    public mutating func setHeight(_ height: Int, at position: Int) {
        tree.set(Self.stored(height), at: position)
    }

    /// Every height, in order; for tests.
    public var allHeights: [Int] { tree.allWeights.map(Int.init) }

    /// Checks the tree's invariants; nil when all hold. For tests.
    public func checkInvariants() -> String? { tree.checkInvariants() }

    private static func stored(_ height: Int) -> UInt32 {
        precondition(height >= 0 && height <= Int(UInt32.max), "height \(height) out of 0...\(UInt32.max)")
        return UInt32(height)
    }
}
