/// Where each row of the current order starts, below the header, under one ``RowHeightRule``:
/// arithmetic when every row has the same height, an ``OffsetIndex`` otherwise. Either way a
/// row's offset and the row at an offset take O(log n) or less.
public enum RowOffsets: Sendable {
    /// `count` rows, each `height` high.
    case uniform(height: Int, count: Int)
    /// Rows of differing heights, summed by an ``OffsetIndex``.
    case indexed(OffsetIndex)

    /// How many rows there are.
    public var count: Int {
        switch self {
        case .uniform(_, let count): count
        case .indexed(let index): index.count
        }
    }

    /// Every row's height added up.
    public var totalHeight: Int {
        switch self {
        case .uniform(let height, let count): height * count
        case .indexed(let index): index.totalHeight
        }
    }

    /// The height of the row at `position`.
    public func height(at position: Int) -> Int {
        switch self {
        case .uniform(let height, _): height
        case .indexed(let index): index.height(at: position)
        }
    }

    /// The top of the row at `position` (0 ... count), measured from the top of the first row.
    public func offset(of position: Int) -> Int {
        switch self {
        case .uniform(let height, _): height * position
        case .indexed(let index): index.offset(of: position)
        }
    }

    /// The row covering `offset` (clamped to the first and last row), and how far into it the
    /// offset lies. There must be a row.
    public func position(atOffset offset: Int) -> (position: Int, inside: Int) {
        switch self {
        case .uniform(let height, let count):
            guard height > 0 else { return (0, 0) }
            let position = min(max(0, offset / height), count - 1)
            return (position, offset - position * height)
        case .indexed(let index):
            let found = index.position(atOffset: max(0, offset))
            return offset < 0 ? (found.position, offset) : found
        }
    }
}
