extension Table {
    /// The binary form of the image's layout; bumped whenever the layout changes. Formats 1
    /// (whose history held edits only) and 2 (whose history did not say who made each change)
    /// are still read.
    static let imageFormat: UInt32 = 3

    /// The table's rows and row state in binary: every cell in the table's own order, ids,
    /// selection and read-only flags, the sorted order, drafts and the undo and redo steps.
    ///
    /// The schema, name, sort keys and version are not in it: whoever stores the image keeps
    /// them beside it and hands them back to ``init(restoring:name:columns:key:readOnly:selectionMode:sortKeys:version:)``.
    /// Rows get new slots in their natural order; nothing observable depends on slots. Caches
    /// (content widths, row heights) and the highlight of recent additions are not kept.
    ///
    /// `coder` writes the column definitions the history of `alter` keeps; a table whose
    /// history holds none needs no coder.
    public func imageBody(coder: ColumnImageCoder? = nil) -> [UInt8] {
        var writer = ByteWriter(capacity: rowCount * (columns.count * 8 + 2) + 64)
        writeImageBody(to: &writer, coder: coder)
        return writer.bytes
    }

    /// Appends ``imageBody(coder:)`` to `writer`, for a caller that frames it without a copy.
    public func writeImageBody(to writer: inout ByteWriter, coder: ColumnImageCoder? = nil) {
        let slots = natural.allSlots
        writer.write(Self.imageFormat)
        writer.write(UInt64(slots.count))
        for store in stores { store.writeImage(of: slots, to: &writer) }
        writer.write(raw: slots.lazy.map { self.flags[Int($0)].bits })
        writer.writeMemory(of: slots.map { rowVersion(ofSlot: $0) })
        var positionOfSlot: [UInt32: UInt32] = [:]
        func position(_ slot: UInt32) -> UInt32 {
            positionOfSlot[slot] ?? UInt32(natural.position(of: slot)!)
        }
        if keyColumn == nil {
            writer.write(UInt64(slotOfGeneratedID.count))
            writer.writeMemory(of: slots.map { generatedIDs[Int($0)] })
        }
        if let sorted {
            writer.write(true)
            var positions = [UInt32](repeating: 0, count: slotCount)
            for (index, slot) in slots.enumerated() { positions[Int(slot)] = UInt32(index) }
            writer.writeMemory(of: sorted.allSlots.map { positions[Int($0)] })
            // Reuse the slot → position map for the sparse sections below.
            if !cellReadOnly.isEmpty || !drafts.isEmpty {
                for slot in cellReadOnly.keys { positionOfSlot[slot] = positions[Int(slot)] }
                for slot in drafts.keys { positionOfSlot[slot] = positions[Int(slot)] }
            }
        } else {
            writer.write(false)
        }
        // Sparse sections in the order of their cells (place, then column), so that one table
        // always writes the same bytes and a read-back image can be compared byte for byte.
        writer.write(UInt64(cellReadOnly.values.reduce(0) { $0 + $1.count }))
        for (place, cells) in cellReadOnly.map({ (position($0.key), $0.value) }).sorted(by: { $0.0 < $1.0 }) {
            for (column, readOnly) in cells.sorted(by: { $0.key < $1.key }) {
                writer.write(place)
                writer.write(UInt32(column))
                writer.write(readOnly)
            }
        }
        writer.write(UInt64(drafts.values.reduce(0) { $0 + $1.count }))
        for (place, cells) in drafts.map({ (position($0.key), $0.value) }).sorted(by: { $0.0 < $1.0 }) {
            for (column, draft) in cells.sorted(by: { $0.key < $1.key }) {
                writer.write(place)
                writer.write(UInt32(column))
                writer.write(draft)
            }
        }
        for steps in [undoSteps, redoSteps] {
            writer.write(UInt64(steps.count))
            for step in steps { Self.write(step, to: &writer, coder: coder) }
        }
    }

    /// A table rebuilt from an image: the schema and settings it was stored with, and the body
    /// ``imageBody()`` wrote. Throws when the body is damaged or does not fit the schema.
    public init(
        restoring body: ArraySlice<UInt8>,
        name: String,
        columns: [Column],
        key: String?,
        readOnly: Bool,
        selectionMode: SelectionMode,
        sortKeys: [SortKey],
        version: UInt64,
        limit: Int? = nil,
        coder: ColumnImageCoder? = nil
    ) throws(TableImageError) {
        do {
            try self.init(
                name: name,
                columns: columns,
                key: key,
                readOnly: readOnly,
                selectionMode: selectionMode,
                limit: limit
            )
        } catch {
            throw TableImageError("its schema is not valid: \(error)")
        }
        var reader = ByteReader(body)
        let format = try reader.read(UInt32.self)
        guard (1...Self.imageFormat).contains(format) else {
            throw TableImageError("it is in format \(format); this daemon reads formats 1 to \(Self.imageFormat)")
        }
        let count = try reader.readCount()
        guard count < Int(UInt32.max) else { throw TableImageError("it holds too many rows (\(count))") }
        for column in stores.indices {
            stores[column] = try ColumnStore.readImage(type: columns[column].type, count: count, from: &reader)
        }
        slotCount = count
        flags = try (0..<count).map { _ throws(TableImageError) in RowFlags(bits: try reader.readByte()) }
        selectedCount = flags.reduce(0) { $0 + ($1.selected ? 1 : 0) }
        if format == 1 {
            rowVersions.appendSlots(count, at: version, slotCount: 0)
        } else {
            let versions = try reader.readMemory(UInt64.self, count: count)
            if let first = versions.first, versions.allSatisfy({ $0 == first }) {
                rowVersions.appendSlots(count, at: first, slotCount: 0)
            } else {
                for (slot, rowVersion) in versions.enumerated() {
                    rowVersions.set(UInt32(slot), to: rowVersion, slotCount: count)
                }
            }
        }
        let slots = (0..<UInt32(count)).map { $0 }
        if let keyColumn {
            let reader = keyReader()
            guard let hashes = keyHashes(of: slots) else {
                throw TableImageError("a row's value in its key column \(columns[keyColumn].key) is no id")
            }
            if let twin = keyIndex.fill(slots, hashes: hashes, idOf: reader).first {
                throw TableImageError(
                    "two rows have the id \(reader(slots[twin])) in its key column \(columns[keyColumn].key)"
                )
            }
        } else {
            // Not a count of elements that follow: how many ids were ever given out (the next
            // row gets the one after), at least one per row.
            let issued = try reader.read(UInt64.self)
            guard issued >= UInt64(count), issued < UInt64(UInt32.max) else {
                throw TableImageError("it says \(issued) row ids were given out for \(count) rows")
            }
            generatedIDs = try reader.readMemory(Int64.self, count: count)
            slotOfGeneratedID = [UInt32](repeating: .max, count: Int(issued))
            for (slot, id) in generatedIDs.enumerated() {
                guard id >= 1, id <= Int64(issued), slotOfGeneratedID[Int(id - 1)] == .max else {
                    throw TableImageError("the row id \(id) is out of range or given twice")
                }
                slotOfGeneratedID[Int(id - 1)] = UInt32(slot)
            }
        }
        natural = RowOrder(slots)
        settleNaturalOrder()
        if try reader.readBool() {
            let positions = try reader.readMemory(UInt32.self, count: count)
            var seen = [Bool](repeating: false, count: count)
            for position in positions {
                guard position < count, !seen[Int(position)] else {
                    throw TableImageError("its sorted order is not an order of its rows")
                }
                seen[Int(position)] = true
            }
            sorted = RowOrder(positions)
        }
        self.sortKeys = sortKeys
        guard resolvedSortKeys.count == sortKeys.count, (sorted != nil) == !sortKeys.isEmpty else {
            throw TableImageError("its sort keys do not fit its columns and order")
        }
        func cell(_ reader: inout ByteReader) throws(TableImageError) -> (slot: UInt32, column: Int) {
            let slot = try reader.read(UInt32.self)
            let column = Int(try reader.read(UInt32.self))
            guard slot < count, column < columns.count else {
                throw TableImageError("a cell (row \(slot), column \(column)) is outside the table")
            }
            return (slot, column)
        }
        for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.readOnlyCell)) {
            let (slot, column) = try cell(&reader)
            cellReadOnly[slot, default: [:]][column] = try reader.readBool()
        }
        for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.draftCell)) {
            let (slot, column) = try cell(&reader)
            let draft = try reader.readDraft()
            if drafts[slot, default: [:]].updateValue(draft, forKey: column) == nil { errorCount += 1 }
        }
        for redo in [false, true] {
            var steps: [UndoStep] = []
            for _
                in 0..<(try reader.readCount(bytesEach: format >= 3 ? ImageWidth.authoredUndoStep : ImageWidth.undoStep))
            {
                steps.append(
                    format == 1
                        ? UndoStep(parts: [.cells(try readEditStep(&reader))])
                        : try readStep(&reader, coder: coder, withAuthor: format >= 3)
                )
            }
            if redo { redoSteps = steps } else { undoSteps = steps }
        }
        guard reader.isAtEnd else { throw TableImageError("it has bytes after its end") }
        self.version = version
    }

    static func write(_ id: RowID, to writer: inout ByteWriter) {
        switch id {
        case .number(let number):
            writer.write(UInt8(0))
            writer.write(number)
        case .text(let text):
            writer.write(UInt8(1))
            writer.write(text)
        }
    }

    static func readRowID(_ reader: inout ByteReader) throws(TableImageError) -> RowID {
        switch try reader.readByte() {
        case 0: return .number(try reader.read(Int64.self))
        case 1: return .text(try reader.readString())
        case let tag: throw TableImageError("a row id has the unknown tag \(tag)")
        }
    }

    static func write(_ value: CellValue, to writer: inout ByteWriter) {
        switch value {
        case .empty: writer.write(UInt8(0))
        case .text(let text):
            writer.write(UInt8(1))
            writer.write(text)
        case .number(let number):
            writer.write(UInt8(2))
            writer.write(number)
        case .date(let days):
            writer.write(UInt8(3))
            writer.write(days)
        case .time(let seconds):
            writer.write(UInt8(4))
            writer.write(seconds)
        case .duration(let seconds):
            writer.write(UInt8(5))
            writer.write(seconds)
        case .picker(let option):
            writer.write(UInt8(6))
            writer.write(option)
        case .image(let text):
            writer.write(UInt8(7))
            writer.write(text)
        case .boolean(let value):
            writer.write(UInt8(8))
            writer.write(value)
        case .datetime(let milliseconds):
            writer.write(UInt8(9))
            writer.write(milliseconds)
        }
    }

    static func readCell(_ reader: inout ByteReader) throws(TableImageError) -> CellValue {
        switch try reader.readByte() {
        case 0: return .empty
        case 1: return .text(try reader.readString())
        case 2: return .number(try reader.readDouble())
        case 3: return .date(days: try reader.read(Int32.self))
        case 4: return .time(seconds: try reader.read(Int32.self))
        case 5: return .duration(seconds: try reader.read(Int64.self))
        case 6: return .picker(option: try reader.read(Int32.self))
        case 7: return .image(try reader.readString())
        case 8: return .boolean(try reader.readBool())
        case 9: return .datetime(milliseconds: try reader.read(Int64.self))
        case let tag: throw TableImageError("a cell value has the unknown tag \(tag)")
        }
    }
}
