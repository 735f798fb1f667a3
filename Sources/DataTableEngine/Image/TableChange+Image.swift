/// The binary form of a ``TableChange``, for the state directory's log: a tag per kind, then
/// its inputs with ``ByteWriter``'s numbers and texts. Dictionaries are written in key order,
/// so one change always has one form.
extension TableChange {
    private enum Tag: UInt8 {
        case add = 0, upsert, edit, revert, delete, clear, select, selectionMode, sort, undo, redo, alter
        case saveColumnState, deleteColumnState, access
    }

    /// The change as bytes; `coder` writes the column definitions an `alter` names.
    public func encoded(coder: ColumnImageCoder) -> [UInt8] {
        var writer = ByteWriter()
        writer.write(author != nil)
        writer.write(author ?? 0)
        switch kind {
        case .add(let rows, let index):
            writer.write(Tag.add.rawValue)
            writer.writeOptional(index.map { Int64($0) })
            writer.write(rows: rows)
        case .upsert(let rows):
            writer.write(Tag.upsert.rawValue)
            writer.write(rows: rows)
        case .edit(let edits):
            writer.write(Tag.edit.rawValue)
            writer.write(UInt64(edits.count))
            for edit in edits {
                Table.write(edit.id, to: &writer)
                writer.write(edit.column)
                writer.write(edit.input)
                writer.writeOptional(edit.ifRowVersion)
            }
        case .revert(let id, let column):
            writer.write(Tag.revert.rawValue)
            writer.write(id != nil)
            if let id { Table.write(id, to: &writer) }
            writer.writeOptional(column)
        case .delete(let ids):
            writer.write(Tag.delete.rawValue)
            writer.write(ids: ids)
        case .clear: writer.write(Tag.clear.rawValue)
        case .select(let action, let target, let mode):
            writer.write(Tag.select.rawValue)
            writer.write(action.rawValue)
            writer.writeOptional(mode?.rawValue)
            switch target {
            case .ids(let ids):
                writer.write(UInt8(0))
                writer.write(ids: ids)
            case .range(let from, let count):
                writer.write(UInt8(1))
                writer.write(Int64(from))
                writer.write(Int64(count))
            case .all: writer.write(UInt8(2))
            case .none: writer.write(UInt8(3))
            }
        case .selectionMode(let mode):
            writer.write(Tag.selectionMode.rawValue)
            writer.write(mode.rawValue)
        case .sort(let keys):
            writer.write(Tag.sort.rawValue)
            writer.write(UInt64(keys.count))
            for key in keys {
                writer.write(key.column)
                writer.write(key.descending)
            }
        case .undo: writer.write(Tag.undo.rawValue)
        case .redo: writer.write(Tag.redo.rawValue)
        case .alter(let alteration):
            writer.write(Tag.alter.rawValue)
            writer.write(alteration, coder: coder)
        case .saveColumnState(let name, let state):
            writer.write(Tag.saveColumnState.rawValue)
            writer.write(name)
            writer.write(state)
        case .deleteColumnState(let name):
            writer.write(Tag.deleteColumnState.rawValue)
            writer.write(name)
        case .access(let access):
            writer.write(Tag.access.rawValue)
            writer.write(access.owner)
            writer.write(access.group)
            writer.write(access.mode)
        }
        return writer.bytes
    }

    /// The change in `bytes`, as ``encoded(coder:)`` wrote it.
    public init(decoding bytes: ArraySlice<UInt8>, coder: ColumnImageCoder) throws(TableImageError) {
        var reader = ByteReader(bytes)
        let known = try reader.readBool()
        let uid = try reader.read(UInt32.self)
        let author = known ? uid : nil
        let kind: Kind
        switch Tag(rawValue: try reader.readByte()) {
        case .add:
            let index = try reader.readOptional(Int64.self).map { Int($0) }
            kind = .add(try reader.readRows(), index: index)
        case .upsert: kind = .upsert(try reader.readRows())
        case .edit:
            var edits: [CellEdit] = []
            for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.rowID + ImageWidth.text + 2)) {
                let id = try Table.readRowID(&reader)
                let column = try reader.readString()
                let input = try reader.readInput()
                edits.append(
                    CellEdit(id: id, column: column, input: input, ifRowVersion: try reader.readOptional(UInt64.self))
                )
            }
            kind = .edit(edits)
        case .revert:
            let id = try reader.readBool() ? try Table.readRowID(&reader) : nil
            kind = .revert(id: id, column: try reader.readOptionalString())
        case .delete: kind = .delete(try reader.readIDs())
        case .clear: kind = .clear
        case .select:
            let actionName = try reader.readString()
            guard let action = SelectAction(rawValue: actionName) else {
                throw TableImageError("a selection names the unknown action \(actionName)")
            }
            let mode = try reader.readOptionalString().map { name throws(TableImageError) in
                try Self.selectionMode(name)
            }
            let target: RowTarget
            switch try reader.readByte() {
            case 0: target = .ids(try reader.readIDs())
            case 1: target = .range(from: Int(try reader.read(Int64.self)), count: Int(try reader.read(Int64.self)))
            case 2: target = .all
            case 3: target = RowTarget.none
            case let tag: throw TableImageError("a selection names rows of the unknown kind \(tag)")
            }
            kind = .select(action, target, mode: mode)
        case .selectionMode: kind = .selectionMode(try Self.selectionMode(try reader.readString()))
        case .sort:
            var keys: [SortKey] = []
            for _ in 0..<(try reader.readCount(bytesEach: ImageWidth.text + ImageWidth.byte)) {
                keys.append(SortKey(column: try reader.readString(), descending: try reader.readBool()))
            }
            kind = .sort(keys)
        case .undo: kind = .undo
        case .redo: kind = .redo
        case .alter: kind = .alter(try reader.readAlteration(coder: coder))
        case .saveColumnState: kind = .saveColumnState(name: try reader.readString(), state: try reader.readString())
        case .deleteColumnState: kind = .deleteColumnState(name: try reader.readString())
        case .access:
            let owner = try reader.read(UInt32.self)
            let group = try reader.read(UInt32.self)
            let mode = try reader.read(UInt16.self)
            guard mode & ~TableAccess.meaningfulBits == 0 else { throw TableImageError("a mode is not one") }
            kind = .access(TableAccess(owner: owner, group: group, mode: mode))
        case nil: throw TableImageError("a change is of an unknown kind")
        }
        guard reader.isAtEnd else { throw TableImageError("a change has bytes after its end") }
        self.init(kind, by: author)
    }

    private static func selectionMode(_ name: String) throws(TableImageError) -> SelectionMode {
        guard let mode = SelectionMode(rawValue: name) else {
            throw TableImageError("a change names the unknown selection mode \(name)")
        }
        return mode
    }
}

extension ByteWriter {
    fileprivate mutating func writeOptional<Integer: FixedWidthInteger>(_ value: Integer?) {
        write(value != nil)
        write(value ?? 0)
    }

    fileprivate mutating func writeOptional(_ value: Bool?) {
        write(UInt8(value.map { $0 ? 2 : 1 } ?? 0))
    }

    fileprivate mutating func writeOptional(_ text: String?) {
        write(text != nil)
        if let text { write(text) }
    }

    fileprivate mutating func write(_ input: CellInput) {
        switch input {
        case .null: write(UInt8(0))
        case .text(let text):
            write(UInt8(1))
            write(text)
        case .number(let number):
            write(UInt8(2))
            write(number)
        case .boolean(let value):
            write(UInt8(3))
            write(value)
        }
    }

    fileprivate mutating func write(ids: [RowID]) {
        write(UInt64(ids.count))
        for id in ids { Table.write(id, to: &self) }
    }

    fileprivate mutating func write(rows: [RowInput]) {
        write(UInt64(rows.count))
        for row in rows {
            write(UInt64(row.values.count))
            for (key, input) in row.values.sorted(by: { $0.key < $1.key }) {
                write(key)
                write(input)
            }
            writeOptional(row.readOnly)
            write(UInt64(row.readOnlyCells.count))
            for (key, readOnly) in row.readOnlyCells.sorted(by: { $0.key < $1.key }) {
                write(key)
                write(readOnly)
            }
            writeOptional(row.drillDown)
        }
    }

    fileprivate mutating func write(column: Column, coder: ColumnImageCoder) {
        let bytes = coder.encode(column)
        write(UInt32(bytes.count))
        write(raw: bytes)
    }

    fileprivate mutating func write(_ alteration: TableAlteration, coder: ColumnImageCoder) {
        write(UInt64(alteration.change.count))
        for column in alteration.change { write(column: column, coder: coder) }
        write(UInt64(alteration.rename.count))
        for (from, to) in alteration.rename {
            write(from)
            write(to)
        }
        write(UInt64(alteration.drop.count))
        for key in alteration.drop { write(key) }
        write(UInt64(alteration.add.count))
        for new in alteration.add {
            write(column: new.column, coder: coder)
            writeOptional(new.index.map { Int64($0) })
            write(new.value)
        }
        writeOptional(alteration.readOnly)
        writeOptional(alteration.limit.map { Int64($0) })
        write(alteration.keepBrokenAsDrafts)
    }
}

extension ByteReader {
    fileprivate mutating func readOptional<Integer: FixedWidthInteger>(_: Integer.Type) throws(TableImageError)
        -> Integer?
    {
        let present = try readBool()
        let value = try read(Integer.self)
        return present ? value : nil
    }

    fileprivate mutating func readOptionalBool() throws(TableImageError) -> Bool? {
        switch try readByte() {
        case 0: return nil
        case 1: return false
        case 2: return true
        case let tag: throw TableImageError("a setting has the unknown value \(tag)")
        }
    }

    fileprivate mutating func readOptionalString() throws(TableImageError) -> String? {
        try readBool() ? try readString() : nil
    }

    fileprivate mutating func readInput() throws(TableImageError) -> CellInput {
        switch try readByte() {
        case 0: return .null
        case 1: return .text(try readString())
        case 2: return .number(try readDouble())
        case 3: return .boolean(try readBool())
        case let tag: throw TableImageError("a typed value has the unknown tag \(tag)")
        }
    }

    fileprivate mutating func readIDs() throws(TableImageError) -> [RowID] {
        var ids: [RowID] = []
        for _ in 0..<(try readCount(bytesEach: ImageWidth.rowID)) { ids.append(try Table.readRowID(&self)) }
        return ids
    }

    fileprivate mutating func readRows() throws(TableImageError) -> [RowInput] {
        var rows: [RowInput] = []
        // A row: its count of values, its read-only setting, its count of cell settings, its
        // drill-down setting.
        for _ in 0..<(try readCount(bytesEach: 2 * ImageWidth.longWord + 2 * ImageWidth.byte)) {
            var values: [String: CellInput] = [:]
            for _ in 0..<(try readCount(bytesEach: ImageWidth.text + ImageWidth.byte)) {
                let key = try readString()
                values[key] = try readInput()
            }
            let readOnly = try readOptionalBool()
            var readOnlyCells: [String: Bool] = [:]
            for _ in 0..<(try readCount(bytesEach: ImageWidth.text + ImageWidth.byte)) {
                let key = try readString()
                readOnlyCells[key] = try readBool()
            }
            rows.append(
                RowInput(
                    values: values,
                    readOnly: readOnly,
                    readOnlyCells: readOnlyCells,
                    drillDown: try readOptionalBool()
                )
            )
        }
        return rows
    }

    fileprivate mutating func readAlteration(coder: ColumnImageCoder) throws(TableImageError) -> TableAlteration {
        func column(_ reader: inout ByteReader) throws(TableImageError) -> Column {
            let length = Int(try reader.read(UInt32.self))
            return try coder.decode(try reader.readBytes(length))
        }
        var alteration = TableAlteration()
        for _ in 0..<(try readCount(bytesEach: ImageWidth.word)) { alteration.change.append(try column(&self)) }
        for _ in 0..<(try readCount(bytesEach: 2 * ImageWidth.text)) {
            alteration.rename.append((from: try readString(), to: try readString()))
        }
        for _ in 0..<(try readCount(bytesEach: ImageWidth.text)) { alteration.drop.append(try readString()) }
        for _ in 0..<(try readCount(bytesEach: ImageWidth.word + ImageWidth.byte + ImageWidth.longWord)) {
            let definition = try column(&self)
            let index = try readOptional(Int64.self).map { Int($0) }
            alteration.add.append(NewColumn(column: definition, index: index, value: try readInput()))
        }
        alteration.readOnly = try readOptionalBool()
        alteration.limit = try readOptional(Int64.self).map { Int($0) }
        alteration.keepBrokenAsDrafts = try readBool()
        return alteration
    }
}
