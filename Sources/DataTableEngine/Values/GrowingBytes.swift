/// Bytes appended in place to one buffer that grows by doubling: the text of a window's cells
/// (``WindowText``) and the JSON of a reply are built this way.
///
/// Its owner only appends while it builds, then reads, so the buffer is written without the
/// uniqueness check and generic path of an array's append (which cost more than the few bytes
/// of a cell or a member). Not copyable: one owner, one deallocation.
public struct GrowingBytes: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var used = 0
    @usableFromInline var capacity: Int

    /// An empty buffer with room for `capacity` bytes (at least 16).
    @inlinable
    public init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// How many bytes have been appended.
    @inlinable public var count: Int { used }

    /// The bytes appended, valid while this buffer lives and is not appended to.
    @inlinable public var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: used) }

    /// A copy of the bytes appended.
    public var bytes: [UInt8] { Array(buffer) }

    /// Makes room for `extra` more bytes at once (a long string about to be written), so the
    /// buffer is not copied again and again as it grows.
    @inlinable @inline(__always)
    public mutating func reserve(_ extra: Int) {
        if used + extra > capacity { grow(toHold: used + extra) }
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if used == capacity { grow(toHold: used + 1) }
        base[used] = byte
        used += 1
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + used).update(from: start, count: bytes.count)
        used += bytes.count
    }

    /// Appends `length` bytes that `body` writes into the room it is given (digits written from
    /// the end, say); `body` must initialise all of them.
    @inlinable @inline(__always)
    public mutating func append(length: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        reserve(length)
        body(UnsafeMutableBufferPointer(start: base + used, count: length))
        used += length
    }

    /// Hands the bytes over without a copy; the caller deallocates `buffer.baseAddress`.
    public consuming func take() -> UnsafeMutableBufferPointer<UInt8> {
        let taken = UnsafeMutableBufferPointer(start: base, count: used)
        discard self
        return taken
    }

    @inline(never) @usableFromInline
    mutating func grow(toHold needed: Int) {
        let grown = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: used)
        base.deallocate()
        base = moved
        capacity = grown
    }
}

extension GrowingBytes: JSONStringSink {}
