import TextMeasure

/// The display text of a window's cells, packed: every cell's UTF-8 in one buffer, one after
/// another, and where each ends.
///
/// A window of 40 rows × 8 columns holds 320 cells; made as strings in arrays they cost an
/// allocation per row and a string per cell, for text that is only ever written out again.
public struct WindowText: Sendable {
    /// Every cell's UTF-8, in order.
    public private(set) var bytes: [UInt8] = []
    /// Where each cell ends in ``bytes`` (it starts where the one before ends).
    private var ends: [Int] = []

    init(capacity cells: Int) {
        ends.reserveCapacity(cells)
        bytes.reserveCapacity(cells * 12)
    }

    /// How many cells there are.
    public var count: Int { ends.count }

    /// Where cell `index` is in ``bytes``.
    public func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// The bytes of cell `index`.
    public func withUTF8<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        let cell = range(of: index)
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[cell])) }
    }

    /// The text of cell `index`.
    public subscript(index: Int) -> String {
        withUTF8(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Ends the cell being written (what was appended since the last end is its text).
    mutating func endCell() {
        ends.append(bytes.count)
    }
}

extension WindowText: DisplayBytes {
    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// A cell's text, each tab and line break as a space (``OneLine``): a two-line cell's own
    /// line break is appended as a byte (``append(_:)``).
    mutating func append(contentsOf utf8: UnsafeBufferPointer<UInt8>) {
        guard utf8.contains(where: OneLine.isSpaceLike) else {
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(contentsOf: utf8.lazy.map { OneLine.isSpaceLike($0) ? 0x20 : $0 })
    }
}
