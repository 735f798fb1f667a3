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
    public var byteCount: Int { storage.count }

    /// Calls `body` with every cell's UTF-8, in order.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
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
        ends.append(storage.count)
    }

    /// The bytes, in a buffer that grows by doubling. A window's text is only ever appended to
    /// while the engine builds it, by its one owner; once built it is only read. So the buffer
    /// is written in place, without the uniqueness check and generic path of an array's append
    /// (which cost more than the few bytes of each cell).
    private final class Storage: @unchecked Sendable {
        private(set) var base: UnsafeMutablePointer<UInt8>
        private(set) var count = 0
        private var capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit { base.deallocate() }

        @inline(__always) func append(_ byte: UInt8) {
            if count == capacity { grow(toHold: count + 1) }
            base[count] = byte
            count += 1
        }

        @inline(__always) func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let start = bytes.baseAddress else { return }
            if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
            (base + count).update(from: start, count: bytes.count)
            count += bytes.count
        }

        @inline(never) private func grow(toHold needed: Int) {
            let grown = max(needed, capacity * 2)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            moved.update(from: base, count: count)
            base.deallocate()
            base = moved
            capacity = grown
        }
    }
}

extension WindowText: DisplayBytes {
    mutating func append(_ byte: UInt8) {
        if !PlainBytes.isPlain(byte) { isPlain = false }
        storage.append(byte)
    }

    /// A cell's text, each tab and line break as a space (``OneLine``): a two-line cell's own
    /// line break is appended as a byte (``append(_:)``).
    mutating func append(contentsOf utf8: UnsafeBufferPointer<UInt8>) {
        // Nearly always: nothing to replace, nothing to quote.
        guard !PlainBytes.isPlain(utf8) else {
            storage.append(utf8)
            return
        }
        for byte in utf8 {
            let shown = OneLine.isSpaceLike(byte) ? 0x20 : byte
            if !PlainBytes.isPlain(shown) { isPlain = false }
            storage.append(shown)
        }
    }
}
