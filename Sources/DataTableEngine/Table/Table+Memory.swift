/// Roughly the memory one table (or one user's tables) holds, part by part: what per-user memory
/// limits are measured in, and what a refusal names.
public struct MemoryUse: Sendable, Equatable {
    /// The cells (text with the buffers of long strings) and per row its ids, flags, place in
    /// each order and key.
    public var rows = 0
    /// What undo and redo keep: rows deleted or cleared, columns dropped, values before and
    /// after edits.
    public var history = 0
    /// Rejected inputs kept on their cells, with their messages.
    public var drafts = 0
    /// Column arrangements kept by name (`columnState`).
    public var columnStates = 0
    /// What the table keeps for views: each view's filtered rows and sections, and the row
    /// heights measured for layouts.
    public var views = 0

    /// Nothing held.
    public init() {}

    /// Every part together.
    public var total: Int { rows + history + drafts + columnStates + views }

    /// Part by part sums.
    public static func + (lhs: MemoryUse, rhs: MemoryUse) -> MemoryUse {
        var sum = lhs
        sum.rows += rhs.rows
        sum.history += rhs.history
        sum.drafts += rhs.drafts
        sum.columnStates += rhs.columnStates
        sum.views += rhs.views
        return sum
    }

    /// Part by part differences.
    public static func - (lhs: MemoryUse, rhs: MemoryUse) -> MemoryUse {
        var difference = lhs
        difference.rows -= rhs.rows
        difference.history -= rhs.history
        difference.drafts -= rhs.drafts
        difference.columnStates -= rhs.columnStates
        difference.views -= rhs.views
        return difference
    }

    /// Adds `rhs` part by part.
    public static func += (lhs: inout MemoryUse, rhs: MemoryUse) { lhs = lhs + rhs }

    /// Takes `rhs` away part by part.
    public static func -= (lhs: inout MemoryUse, rhs: MemoryUse) { lhs = lhs - rhs }
}

extension Table {
    /// Roughly the memory the table holds (``memoryUse``'s total).
    public var estimatedBytes: Int { memoryUse.total }

    /// Roughly the memory the table holds, part by part. Every part is kept current by the
    /// changes that alter it (the history as steps come and go, drafts as they are set and
    /// cleared, column states as they are saved and deleted), so this reads in O(columns +
    /// views), never O(rows) or O(history).
    public var memoryUse: MemoryUse {
        var use = MemoryUse()
        use.rows =
            stores.reduce(0) { $0 + $1.estimatedBytes } + slotCount * Self.bytesPerRow + rowVersions.estimatedBytes
        use.history = historyBytes
        use.drafts = draftBytes
        use.columnStates = columnStateBytes
        use.views = viewBytes
        return use
    }

    /// What each row holds besides its cells, roughly.
    public static let bytesPerRow = 40

    /// What a view's order keeps per row it shows (its place in a counted tree and the slot's
    /// leaf), and what a kept index of row heights keeps per row, roughly.
    static let bytesPerViewRow = 12
    static let bytesPerOffset = 8
    /// What kept sums of a column in a view's order keep per row, roughly.
    static let bytesPerSum = 12

    /// The views' filtered rows and sections and every kept index of row heights: O(views).
    private var viewBytes: Int {
        func offsets(_ kept: [KeptOffsets]) -> Int {
            kept.reduce(0) { $0 + $1.index.count * Self.bytesPerOffset }
        }
        func sums(_ kept: [KeptSums]) -> Int {
            kept.reduce(0) { $0 + $1.tree.count * Self.bytesPerSum }
        }
        var bytes = offsets(keptOffsets) + sums(keptSums)
        for filter in filters {
            bytes += filter.rows.count * Self.bytesPerViewRow + offsets(filter.keptOffsets) + sums(filter.keptSums)
        }
        for sectioned in sections {
            bytes +=
                sectioned.rows.count * Self.bytesPerViewRow + sectioned.values.count * 32
                + offsets(sectioned.keptOffsets) + sums(sectioned.keptSums)
            // Each summed column: the value kept per row, and at each level its order and a few
            // counts a group.
            for summary in sectioned.summaries { bytes += summary.bytes }
        }
        return bytes
    }

    /// Works out again the parts of ``memoryUse`` kept as running totals (history, drafts,
    /// column states): O(history steps + drafts + column states). For a table that comes in
    /// whole (restored from a snapshot or a log), before it is served.
    public mutating func recountMemory() {
        historyBytes = (undoSteps + redoSteps).reduce(0) { $0 + $1.bytes }
        draftBytes = drafts.values.reduce(0) { $0 + Draft.estimatedBytes(of: $1) }
        columnStateBytes = savedColumnStates.reduce(0) { $0 + Self.columnStateBytes(name: $1.key, state: $1.value) }
    }
}

extension Draft {
    /// Roughly the memory a kept draft takes: its entry, and the buffers of long text.
    var estimatedBytes: Int {
        64 + ColumnStore.heapBytes(of: text) + ColumnStore.heapBytes(of: message)
    }

    /// ``estimatedBytes`` of a row's drafts.
    static func estimatedBytes(of cells: [Int: Draft]) -> Int {
        cells.values.reduce(0) { $0 + $1.estimatedBytes }
    }
}

extension Table {
    /// Keeps each text column whose texts repeat (at most one different text for every two
    /// slots; `all`: every text column) as a coded store (``ColumnStore/codes``), as a load
    /// reads such a column. The values stay as they are.
    public mutating func codeTexts(all: Bool = false) {
        for column in stores.indices { stores[column] = stores[column].coded(always: all) }
    }
}
