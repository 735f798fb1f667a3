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
        var selection: String
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
        encode: { column in Array(try! JSONEncoder().encode(WireSchema.definition(column))) },
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

    /// What a table whose image names no owner gets.
    static let unownedAccess = TableAccess(owner: 0, group: 0, mode: 0o660)

    static func encode(_ table: Table) -> [UInt8] {
        let header = Header(
            name: table.name,
            columns: table.columns.map(WireSchema.definition),
            key: table.keyColumn.map { table.columns[$0].key },
            readOnly: table.readOnly,
            selection: table.selectionMode.rawValue,
            sort: WireSchema.sortParams(table.sortKeys),
            version: table.version,
            rows: table.rowCount,
            owner: table.access.owner,
            group: table.access.group,
            mode: table.access.mode,
            limit: table.rowLimit,
            columnStates: table.columnStates.isEmpty ? nil : table.columnStates
        )
        let json = try! JSONEncoder().encode(header)
        var writer = ByteWriter(capacity: json.count + table.rowCount * (table.columns.count * 8 + 2) + 64)
        writer.write(UInt32(json.count))
        writer.write(raw: json)
        table.writeImageBody(to: &writer, coder: columnCoder)
        return writer.bytes
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
        let selection: SelectionMode
        do {
            columns = try WireSchema.columns(header.columns)
            selection = try WireSchema.selectionMode(header.selection, field: "selection") ?? .multiple
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
