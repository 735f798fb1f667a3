import TextMeasure

/// The display text of a window's cells, packed: every cell's UTF-8 in one buffer, one after
/// another, and where each ends.
///
/// A window of 40 rows × 8 columns holds 320 cells; made as strings in arrays they cost an
/// allocation per row and a string per cell, for text that is only ever written out again.
public struct WindowText: Sendable {
    /// Every cell's UTF-8, in order.
    private var storage: Storage
    /// Where each cell ends in the bytes (it starts where the one before ends).
    private var ends: [Int] = []

    init(capacity cells: Int) {
        ends.reserveCapacity(cells)
        storage = Storage(capacity: max(16, cells * 12))
    }

    /// How many cells there are.
    public var count: Int { ends.count }

    /// Whether every cell is ``PlainBytes``: no control character (a two-line cell's line
    /// break is one), quote or backslash. A writer of quoted text then copies cells as they are.
    public private(set) var isPlain = true

    /// How many bytes the cells' text takes.
    public var byteCount: Int { storage.bytes.count }

    /// Calls `body` with every cell's UTF-8, in order.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(storage.bytes.buffer)
    }

    /// Where cell `index` is in the bytes.
    public func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// The bytes of cell `index`.
    public func withUTF8<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        let cell = range(of: index)
        return try withBytes { try body(UnsafeBufferPointer(rebasing: $0[cell])) }
    }

    /// The text of cell `index`.
    public subscript(index: Int) -> String {
        withUTF8(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Ends the cell being written (what was appended since the last end is its text).
    mutating func endCell() {
        ends.append(storage.bytes.count)
    }

    /// The bytes. A window's text is only ever appended to while the engine builds it, by its
    /// one owner; once built it is only read, so copies of the window share it.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var bytes: GrowingBytes

        init(capacity: Int) {
            bytes = GrowingBytes(capacity: capacity)
        }
    }
}

extension WindowText: DisplayBytes {
    mutating func append(_ byte: UInt8) {
        if !PlainBytes.isPlain(byte) { isPlain = false }
        storage.bytes.append(byte)
    }

    /// A cell's text, each tab and line break as a space (``OneLine``): a two-line cell's own
    /// line break is appended as a byte (``append(_:)``).
    mutating func append(contentsOf utf8: UnsafeBufferPointer<UInt8>) {
        // Nearly always: nothing to replace, nothing to quote.
        guard !PlainBytes.isPlain(utf8) else {
            storage.bytes.append(utf8)
            return
        }
        for byte in utf8 {
            let shown = OneLine.isSpaceLike(byte) ? 0x20 : byte
            if !PlainBytes.isPlain(shown) { isPlain = false }
            storage.bytes.append(shown)
        }
    }
}
