import DataTableEngine
import DataTableProtocol
import Foundation

/// A table as the state directory stores it: a JSON header with the schema and settings, in the
/// protocol's own words (`describe`'s column definitions), then the engine's binary body.
///
/// Layout: a 4-byte little-endian header length, the header, the body.
enum TableImageCoding {
    /// The header: everything about the table but its rows.
    struct Header: Codable {
        var name: String
        var columns: [ColumnDefinition]
        var key: String?
        var readOnly: Bool
        var selection: RowSelectionMode
        var sort: [SortKeyParam]
        var version: UInt64
        var rows: Int
        /// Who owns the table, and its mode (absent from images made before tables had owners:
        /// those belong to root, mode 0660).
        var owner: UInt32?
        var group: UInt32?
        var mode: UInt16?
        /// The row limit (absent: none).
        var limit: Int?
        /// Column arrangements kept by name, as their owners gave them (absent: none).
        var columnStates: [String: String]?
    }

    /// Column definitions the table's history keeps (a dropped column, a definition before an
    /// `alter`), in the header's words: `describe`'s JSON.
    static let columnCoder = ColumnImageCoder(
        encode: { column in Array(try! canonicalJSON.encode(WireSchema.definition(column))) },
        decode: { bytes throws(TableImageError) in
            guard let definition = try? JSONDecoder().decode(ColumnDefinition.self, from: Data(bytes)) else {
                throw TableImageError("a column definition in its history cannot be read")
            }
            do throws(ResponseError) {
                return try WireSchema.column(definition, field: "history")
            } catch {
                throw TableImageError("a column definition in its history is not valid: \(error.message)")
            }
        }
    )

    /// JSON with its members in key order: one table always has one image, so an image read
    /// back and written again can be compared byte for byte (``verify(_:)``).
    private static var canonicalJSON: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    /// Checks that `image` reads back as the table it was written from: decoded and encoded
    /// again, it must give the same bytes. Throws naming what is wrong when it does not.
    static func verify(_ image: ArraySlice<UInt8>) throws(TableImageError) {
        let table = try decode(image)
        let again = encode(table)
        guard again.elementsEqual(image) else {
            let first = zip(again, image).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            throw TableImageError(
                "the table \(table.name) reads back differently (\(again.count) bytes against \(image.count), "
                    + "first difference at byte \(first ?? min(again.count, image.count)))"
            )
        }
    }

    /// What a table whose image names no owner gets.
    static let unownedAccess = TableAccess(owner: 0, group: 0, mode: 0o660)

    static func encode(_ table: Table) -> [UInt8] {
        let header = Header(
            name: table.name,
            columns: table.columns.map(WireSchema.definition),
            key: table.keyColumn.map { table.columns[$0].key },
            readOnly: table.readOnly,
            selection: table.selectionMode,
            sort: WireSchema.sortParams(table.sortKeys),
            version: table.version,
            rows: table.rowCount,
            owner: table.access.owner,
            group: table.access.group,
            mode: table.access.mode,
            limit: table.rowLimit,
            columnStates: table.columnStates.isEmpty ? nil : table.columnStates
        )
        let json = try! canonicalJSON.encode(header)
        var writer = ByteWriter(capacity: json.count + table.rowCount * (table.columns.count * 8 + 2) + 64)
        writer.write(UInt32(json.count))
        writer.write(raw: json)
        table.writeImageBody(to: &writer, coder: columnCoder)
        return writer.bytes
    }

    /// The name in an image's header, when at least that can be read.
    static func name(of bytes: ArraySlice<UInt8>) -> String? {
        struct Named: Decodable { var name: String }
        var reader = ByteReader(bytes)
        guard let length = try? reader.read(UInt32.self), Int(length) <= bytes.count - 4 else { return nil }
        let header = bytes[bytes.startIndex + 4..<bytes.startIndex + 4 + Int(length)]
        return try? JSONDecoder().decode(Named.self, from: Data(header)).name
    }

    /// The table in `bytes`; throws ``TableImageError`` naming what is wrong.
    static func decode(_ bytes: ArraySlice<UInt8>) throws(TableImageError) -> Table {
        var reader = ByteReader(bytes)
        let length = Int(try reader.read(UInt32.self))
        guard length <= bytes.count - 4 else { throw TableImageError("its header is cut short") }
        let bodyStart = bytes.startIndex + 4 + length
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(bytes[bytes.startIndex + 4..<bodyStart]))
        } catch {
            throw TableImageError("its header cannot be read: \(error)")
        }
        let columns: [Column]
        let selection = header.selection
        do {
            columns = try WireSchema.columns(header.columns)
        } catch {
            throw TableImageError("the header of \(header.name) is not valid: \(error.message)")
        }
        var access = unownedAccess
        if let owner = header.owner, let group = header.group, let mode = header.mode {
            guard mode & ~TableAccess.meaningfulBits == 0 else {
                throw TableImageError("the header of \(header.name) gives a mode that is not one")
            }
            access = TableAccess(owner: owner, group: group, mode: mode)
        }
        do {
            var table = try Table(
                restoring: bytes[bodyStart...],
                name: header.name,
                columns: columns,
                key: header.key,
                readOnly: header.readOnly,
                selectionMode: selection,
                sortKeys: WireSchema.sortKeys(header.sort),
                version: header.version,
                limit: header.limit,
                coder: columnCoder
            )
            table.access = access
            table.restoreColumnStates(header.columnStates ?? [:])
            return table
        } catch {
            throw TableImageError("the table \(header.name) cannot be read: \(error)")
        }
    }
}
