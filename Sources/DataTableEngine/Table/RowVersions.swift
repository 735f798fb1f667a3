/// Each row's version: the table's version when its cells or drafts last changed (what `edit`
/// takes as `ifRowVersion`).
///
/// A table filled by a load has one version for every row, kept as one number: a million loaded
/// rows cost nothing until the first of them changes. Then each slot keeps the low 32 bits of its
/// row's version, the high bits being the table's: exact for every row changed within the last
/// 2³² versions of its table. A row untouched for longer reads as newer than it is, so an
/// `ifRowVersion` from before is refused and the client reads the row again: never a change
/// let through that should not be.
struct RowVersions: Sendable {
    /// Per slot, the low 32 bits of its row's version; empty while every row has ``uniform``.
    private var low: [UInt32] = []
    /// Every row's version while ``low`` is empty.
    private var uniform: UInt64 = 0

    /// The version of the row in `slot`, the table being at `tableVersion`.
    func version(of slot: UInt32, tableVersion: UInt64) -> UInt64 {
        guard !low.isEmpty else { return uniform }
        var full = (tableVersion & ~0xFFFF_FFFF) | UInt64(low[Int(slot)])
        if full > tableVersion && full >= 1 << 32 { full -= 1 << 32 }
        return full
    }

    /// Sets the version of the row in `slot` (of `slotCount` slots).
    mutating func set(_ slot: UInt32, to version: UInt64, slotCount: Int) {
        if low.isEmpty { spread(over: slotCount) }
        low[Int(slot)] = UInt32(truncatingIfNeeded: version)
    }

    /// Makes room for one more slot (the table had `slotCount` before it).
    mutating func appendSlot(slotCount: Int) {
        if low.isEmpty { spread(over: slotCount) }
        low.append(0)
    }

    /// `count` new slots at the end, all at `version` (a load).
    mutating func appendSlots(_ count: Int, at version: UInt64, slotCount: Int) {
        if low.isEmpty && (slotCount == 0 || uniform == version) {
            uniform = version
            return
        }
        if low.isEmpty { spread(over: slotCount) }
        low.append(contentsOf: repeatElement(UInt32(truncatingIfNeeded: version), count: count))
    }

    mutating func reserve(_ capacity: Int) {
        if !low.isEmpty { low.reserveCapacity(capacity) }
    }

    /// Whether a table of `slotCount` slots can take slots up to `capacity` with no O(n) work:
    /// no versions to spread (as the first slot added after a load does) and no array to grow.
    func hasRoom(for capacity: Int, slotCount: Int) -> Bool {
        low.isEmpty ? slotCount == 0 : low.capacity >= capacity
    }

    /// Does now the O(n) work ``hasRoom(for:slotCount:)`` looks for: versions spread over the
    /// `slotCount` slots there are, with room for `capacity`.
    mutating func makeRoom(for capacity: Int, slotCount: Int) {
        if low.isEmpty && slotCount > 0 {
            var spread: [UInt32] = []
            spread.reserveCapacity(capacity)
            spread.append(contentsOf: repeatElement(UInt32(truncatingIfNeeded: uniform), count: slotCount))
            low = spread
        } else {
            reserve(capacity)
        }
    }

    /// Every slot's version at once, while they were all one.
    private mutating func spread(over slotCount: Int) {
        low = Array(repeating: UInt32(truncatingIfNeeded: uniform), count: slotCount)
    }

    /// Bytes kept.
    var estimatedBytes: Int { low.count * 4 }
}
