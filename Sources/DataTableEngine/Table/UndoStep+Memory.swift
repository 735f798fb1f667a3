/// How much memory the undo history holds, worked out once per step as it is made (O(the step's
/// size), which the change that makes it costs anyway) and kept in ``UndoStep/bytes``.
extension UndoStep {
    /// A step of `parts` made by `author`, with its memory worked out.
    init(parts: [UndoPart], author: UInt32? = nil) {
        self.parts = parts
        self.author = author
        bytes = parts.reduce(64) { $0 + $1.estimatedBytes }
    }
}

extension UndoPart {
    /// Roughly the memory the part keeps.
    var estimatedBytes: Int {
        switch self {
        case .cells(let step):
            step.changes.reduce(step.changes.count * MemoryLayout<EditStep.Change>.stride) {
                $0 + $1.id.heapBytes + $1.old.heapBytes + $1.new.heapBytes
            }
        case .rowsAdded(let rows), .rowsRemoved(let rows):
            rows.estimatedBytes
        case .schema(let change):
            change.edits.reduce(0) { total, edit in
                guard case .insert(_, _, let values?, _) = edit else { return total + 256 }
                return total + 256 + values.store.estimatedBytes + values.readOnly.count * 32
                    + values.drafts.values.reduce(values.drafts.count * 16) { $0 + $1.estimatedBytes }
            }
        case .drafts(let change):
            change.entries.reduce(change.entries.count * MemoryLayout<DraftChange.Entry>.stride) {
                $0 + $1.id.heapBytes + ($1.old?.estimatedBytes ?? 0) + ($1.new?.estimatedBytes ?? 0)
            }
        }
    }
}

extension SavedRows {
    /// Roughly the memory the saved rows keep: ids, places, cells, flags, read-only cells and
    /// drafts (rows in the table are kept by id only).
    var estimatedBytes: Int {
        var bytes = ids.count * MemoryLayout<RowID>.stride + positions.count * 8 + flags.count
        for id in ids { bytes += id.heapBytes }
        for store in stores { bytes += store.estimatedBytes }
        bytes += readOnlyCells.reduce(0) { $0 + 48 + $1.value.count * 16 }
        bytes += drafts.reduce(0) { $0 + 48 + Draft.estimatedBytes(of: $1.value) }
        return bytes
    }
}

extension RowID {
    /// The bytes a text id keeps outside its slot.
    var heapBytes: Int {
        guard case .text(let text) = self else { return 0 }
        return ColumnStore.heapBytes(of: text)
    }
}

extension CellValue {
    /// The bytes a text or image value keeps outside its slot.
    var heapBytes: Int {
        switch self {
        case .text(let text), .image(let text): ColumnStore.heapBytes(of: text)
        default: 0
        }
    }
}
