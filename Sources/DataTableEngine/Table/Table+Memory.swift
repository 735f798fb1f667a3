extension Table {
    /// Roughly the memory the table holds: its cells (text with the buffers of long strings),
    /// and per row its ids, flags, place in each order and key. Kept current by every change, and
    /// read in O(columns): what per-user memory limits are measured in.
    public var estimatedBytes: Int {
        stores.reduce(0) { $0 + $1.estimatedBytes } + slotCount * Self.bytesPerRow + rowVersions.estimatedBytes
    }

    /// What each row holds besides its cells, roughly.
    public static let bytesPerRow = 40
}
