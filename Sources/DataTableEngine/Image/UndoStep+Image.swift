/// How a table image stores the column definitions its history keeps (a dropped column comes
/// back with its definition). The engine leaves the form to whoever stores the image, which
/// keeps the table's columns in its own words beside the body.
public struct ColumnImageCoder: Sendable {
    /// A column's definition as bytes.
    public var encode: @Sendable (Column) -> [UInt8]
    /// The column `encode` wrote, or why the bytes are not one.
    public var decode: @Sendable (ArraySlice<UInt8>) throws(TableImageError) -> Column

    /// A coder of the two functions.
    public init(
        encode: @escaping @Sendable (Column) -> [UInt8],
        decode: @escaping @Sendable (ArraySlice<UInt8>) throws(TableImageError) -> Column
    ) {
        self.encode = encode
        self.decode = decode
    }
}

extension Table {
    private enum PartTag: UInt8 { case cells = 0, rowsAdded = 1, rowsRemoved = 2, schema = 3, drafts = 4 }
    private enum EditTag: UInt8 { case insert = 0, remove = 1, replace = 2, tableReadOnly = 3, rowLimit = 4 }

    static func write(_ step: UndoStep, to writer: inout ByteWriter, coder: ColumnImageCoder?) {
        writer.write(step.author != nil)
        writer.write(step.author ?? 0)
        writer.write(UInt64(step.parts.count))
        for part in step.parts {
            switch part {
            case .cells(let edit):
                writer.write(PartTag.cells.rawValue)
                write(edit, to: &writer)
            case .rowsAdded(let rows):
                writer.write(PartTag.rowsAdded.rawValue)
                write(rows, to: &writer)
            case .rowsRemoved(let rows):
                writer.write(PartTag.rowsRemoved.rawValue)
                write(rows, to: &writer)
            case .schema(let change):
                precondition(coder != nil, "a table whose history changed its columns needs a column coder")
                writer.write(PartTag.schema.rawValue)
                write(change, to: &writer, coder: coder!)
            case .drafts(let change):
                writer.write(PartTag.drafts.rawValue)
                writer.write(UInt64(change.entries.count))
                for entry in change.entries {
                    write(entry.id, to: &writer)
                    writer.write(UInt32(entry.column))
                    for draft in [entry.old, entry.new] {
                        writer.write(draft != nil)
                        if let draft {
                            writer.write(draft)
                        }
                    }
                }
            }
        }
    }

    /// A step as ``write(_:to:coder:)`` wrote it; `withAuthor` for images of format 3 and on,
    /// which say who made each change.
    func readStep(_ reader: inout ByteReader, coder: ColumnImageCoder?, withAuthor: Bool) throws(TableImageError)
        -> UndoStep
    {
        var author: UInt32?
        if withAuthor {
            let known = try reader.readBool()
            let uid = try reader.read(UInt32.self)
            author = known ? uid : nil
        }
        var parts: [UndoPart] = []
        for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.undoPart)) {
            switch PartTag(rawValue: try reader.readByte()) {
            case .cells: parts.append(.cells(try readEditStep(&reader)))
            case .rowsAdded: parts.append(.rowsAdded(try Self.readRows(&reader)))
            case .rowsRemoved: parts.append(.rowsRemoved(try Self.readRows(&reader)))
            case .schema:
                guard let coder else { throw TableImageError("its history changes columns, and no coder reads them") }
                parts.append(.schema(try Self.readSchema(&reader, coder: coder)))
            case .drafts:
                var entries: [DraftChange.Entry] = []
                for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.draftChange)) {
                    let id = try Self.readRowID(&reader)
                    let column = Int(try reader.read(UInt32.self))
                    var drafts: [Draft?] = []
                    for _ in 0..<2 {
                        drafts.append(
                            try reader.readBool()
                                ? try reader.readDraft() : nil
                        )
                    }
                    entries.append(.init(id: id, column: column, old: drafts[0], new: drafts[1]))
                }
                parts.append(.drafts(DraftChange(entries: entries)))
            case nil: throw TableImageError("an undo step has a part of an unknown kind")
            }
        }
        return UndoStep(parts: parts, author: author)
    }

    private static func write(_ step: EditStep, to writer: inout ByteWriter) {
        writer.write(UInt64(step.changes.count))
        for change in step.changes {
            write(change.id, to: &writer)
            writer.write(UInt32(change.column))
            write(change.old, to: &writer)
            write(change.new, to: &writer)
        }
    }

    func readEditStep(_ reader: inout ByteReader) throws(TableImageError) -> EditStep {
        var changes: [EditStep.Change] = []
        for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.editedCell)) {
            let id = try Self.readRowID(&reader)
            let column = Int(try reader.read(UInt32.self))
            changes.append(
                .init(id: id, column: column, old: try Self.readCell(&reader), new: try Self.readCell(&reader))
            )
        }
        return EditStep(changes: changes)
    }

    private static func write(_ rows: SavedRows, to writer: inout ByteWriter) {
        writer.write(UInt64(rows.ids.count))
        for id in rows.ids { write(id, to: &writer) }
        let saved = !rows.stores.isEmpty
        writer.write(saved)
        guard saved else { return }
        writer.writeMemory(of: rows.positions.map { UInt64($0) })
        let slots = (0..<UInt32(rows.ids.count)).map { $0 }
        writer.write(UInt32(rows.stores.count))
        for store in rows.stores {
            writer.write(store.type.rawValue)
            store.writeImage(of: slots, to: &writer)
        }
        writer.write(raw: rows.flags.map(\.bits))
        writer.write(UInt64(rows.readOnlyCells.values.reduce(0) { $0 + $1.count }))
        for (row, cells) in rows.readOnlyCells.sorted(by: { $0.key < $1.key }) {
            for (column, readOnly) in cells.sorted(by: { $0.key < $1.key }) {
                writer.write(UInt32(row))
                writer.write(UInt32(column))
                writer.write(readOnly)
            }
        }
        writer.write(UInt64(rows.drafts.values.reduce(0) { $0 + $1.count }))
        for (row, cells) in rows.drafts.sorted(by: { $0.key < $1.key }) {
            for (column, draft) in cells.sorted(by: { $0.key < $1.key }) {
                writer.write(UInt32(row))
                writer.write(UInt32(column))
                writer.write(draft)
            }
        }
    }

    private static func readRows(_ reader: inout ByteReader) throws(TableImageError) -> SavedRows {
        let count = try reader.readCount(bytesEach: ImageWidth.rowID)
        var ids: [RowID] = []
        ids.reserveCapacity(count)
        for _ in 0..<count { ids.append(try readRowID(&reader)) }
        guard try reader.readBool() else { return SavedRows(ids: ids) }
        let positions = try reader.readMemory(UInt64.self, count: count).map { Int(truncatingIfNeeded: $0) }
        guard positions.allSatisfy({ $0 >= 0 && $0 < Int(UInt32.max) }) else {
            throw TableImageError("saved rows have a place outside any table")
        }
        var stores: [ColumnStore] = []
        for _ in 0..<Int(try reader.read(UInt32.self)) {
            let name = try reader.readString()
            guard let type = ColumnType(rawValue: name) else {
                throw TableImageError("saved rows have a column of the unknown type \(name)")
            }
            stores.append(try ColumnStore.readImage(type: type, count: count, from: &reader))
        }
        let flags = try (0..<count).map { _ throws(TableImageError) in RowFlags(bits: try reader.readByte()) }
        func cell(_ reader: inout ByteReader) throws(TableImageError) -> (row: Int, column: Int) {
            let row = Int(try reader.read(UInt32.self))
            let column = Int(try reader.read(UInt32.self))
            guard row < count, column < stores.count else {
                throw TableImageError("a saved cell (row \(row), column \(column)) is outside its rows")
            }
            return (row, column)
        }
        var readOnlyCells: [Int: [Int: Bool]] = [:]
        for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.readOnlyCell)) {
            let (row, column) = try cell(&reader)
            readOnlyCells[row, default: [:]][column] = try reader.readBool()
        }
        var drafts: [Int: [Int: Draft]] = [:]
        for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.draftCell)) {
            let (row, column) = try cell(&reader)
            drafts[row, default: [:]][column] = try reader.readDraft()
        }
        return SavedRows(
            ids: ids,
            positions: positions,
            stores: stores,
            flags: flags,
            readOnlyCells: readOnlyCells,
            drafts: drafts
        )
    }

    private static func write(_ change: SchemaChange, to writer: inout ByteWriter, coder: ColumnImageCoder) {
        func write(_ column: Column) {
            let bytes = coder.encode(column)
            writer.write(UInt32(bytes.count))
            writer.write(raw: bytes)
        }
        writer.write(UInt64(change.edits.count))
        for edit in change.edits {
            switch edit {
            case .insert(let index, let column, let values, let fill):
                writer.write(EditTag.insert.rawValue)
                writer.write(UInt32(index))
                write(column)
                Self.write(fill, to: &writer)
                writer.write(values != nil)
                if let values {
                    writer.write(UInt64(values.store.count))
                    values.store.writeImage(of: (0..<UInt32(values.store.count)).map { $0 }, to: &writer)
                    writer.write(UInt64(values.readOnly.count))
                    for (row, readOnly) in values.readOnly.sorted(by: { $0.key < $1.key }) {
                        writer.write(UInt32(row))
                        writer.write(readOnly)
                    }
                    writer.write(UInt64(values.drafts.count))
                    for (row, draft) in values.drafts.sorted(by: { $0.key < $1.key }) {
                        writer.write(UInt32(row))
                        writer.write(draft)
                    }
                }
            case .remove(let index):
                writer.write(EditTag.remove.rawValue)
                writer.write(UInt32(index))
            case .replace(let index, let column):
                writer.write(EditTag.replace.rawValue)
                writer.write(UInt32(index))
                write(column)
            case .tableReadOnly(let readOnly):
                writer.write(EditTag.tableReadOnly.rawValue)
                writer.write(readOnly)
            case .rowLimit(let limit):
                writer.write(EditTag.rowLimit.rawValue)
                writer.write(UInt64(limit ?? 0))
            }
        }
    }

    private static func readSchema(_ reader: inout ByteReader, coder: ColumnImageCoder) throws(TableImageError)
        -> SchemaChange
    {
        func column() throws(TableImageError) -> Column {
            let length = Int(try reader.read(UInt32.self))
            let bytes = try reader.readBytes(length)
            return try coder.decode(bytes)
        }
        var edits: [SchemaChange.Edit] = []
        for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.columnEdit)) {
            switch EditTag(rawValue: try reader.readByte()) {
            case .insert:
                let index = Int(try reader.read(UInt32.self))
                let definition = try column()
                let fill = try readCell(&reader)
                var values: SchemaChange.SavedColumn?
                if try reader.readBool() {
                    let count = try reader.readCount()
                    var saved = SchemaChange.SavedColumn(
                        store: try ColumnStore.readImage(type: definition.type, count: count, from: &reader)
                    )
                    for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.savedReadOnly)) {
                        saved.readOnly[Int(try reader.read(UInt32.self))] = try reader.readBool()
                    }
                    for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.savedDraft)) {
                        let row = Int(try reader.read(UInt32.self))
                        saved.drafts[row] = try reader.readDraft()
                    }
                    values = saved
                }
                edits.append(.insert(index: index, column: definition, values: values, fill: fill))
            case .remove: edits.append(.remove(index: Int(try reader.read(UInt32.self))))
            case .replace:
                let index = Int(try reader.read(UInt32.self))
                edits.append(.replace(index: index, column: try column()))
            case .tableReadOnly: edits.append(.tableReadOnly(try reader.readBool()))
            case .rowLimit:
                let limit = try reader.read(UInt64.self)
                guard limit <= UInt64(Int32.max) else { throw TableImageError("a row limit is out of range") }
                edits.append(.rowLimit(limit == 0 ? nil : Int(limit)))
            case nil: throw TableImageError("a column change is of an unknown kind")
            }
        }
        return SchemaChange(edits: edits)
    }
}

extension ByteWriter {
    /// A draft: what was typed, then why it was refused.
    mutating func write(_ draft: Draft) {
        write(draft.text)
        write(draft.message)
    }
}

extension ByteReader {
    /// A draft as a ``ByteWriter`` writes it: what was typed, then why it was refused.
    mutating func readDraft() throws(TableImageError) -> Draft {
        Draft(text: try readString(), message: try readString())
    }
}
