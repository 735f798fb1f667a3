import DataTableEngine
import DataTableProtocol

/// `get`'s reply: the engine's row snapshots, the columns asked for, and the table's counts.
///
/// Like ``ScrollReply`` it writes its JSON straight from the snapshots (``write(to:)``), and
/// encodes through the documented ``GetRequest/Response`` (``response``) to the same JSON.
struct GetReply: Encodable, Sendable {
    var table: String
    var version: Int
    var total: Int
    var errors: Int
    var rows: [RowSnapshot]
    /// The table's columns, and which of them the reply shows (per column index; every one
    /// without `only`).
    var columns: [Column]
    var only: [Bool]?
    /// The columns' indices in the order of their keys.
    var columnsInKeyOrder: [Int]

    init(_ rows: [RowSnapshot], table: Table, only: [Bool]?) {
        self.table = table.name
        version = Int(table.version)
        total = table.rowCount
        errors = table.errorCount
        self.rows = rows
        columns = table.columns
        self.only = only
        columnsInKeyOrder = table.columnsInKeyOrder
    }

    func encode(to encoder: any Encoder) throws {
        try response.encode(to: encoder)
    }

    /// The reply as the protocol's typed response.
    var response: GetRequest.Response {
        GetRequest.Response(
            table: table,
            version: version,
            total: total,
            errors: errors,
            rows: rows.map { WireValues.row($0, columns: columns, only: only) }
        )
    }
}

extension GetReply: DirectJSON {
    func write(to writer: inout JSONWriter) {
        // The shown columns in the order of their keys (object members are sorted).
        let shown = only.map { only in columns.indices.filter { only[$0] } } ?? Array(columns.indices)
        let byKey = only.map { only in columnsInKeyOrder.filter { only[$0] } } ?? columnsInKeyOrder
        writer.raw(#"{"errors":"#)
        writer.int(errors)
        writer.raw(#","rows":["#)
        for (index, row) in rows.enumerated() {
            if index > 0 { writer.comma() }
            writer.raw(#"{"display":{"#)
            for (position, column) in byKey.enumerated() {
                if position > 0 { writer.comma() }
                writer.string(columns[column].key)
                writer.raw(":")
                writer.string(columns[column].rules.displayText(row.values[column]))
            }
            writer.raw("}")
            writer.draftsMember(byKey.filter { row.drafts[$0] != nil }, key: { columns[$0].key }) { row.drafts[$0]! }
            if row.highlight > 0 {
                writer.raw(#","highlight":"#)
                writer.double(row.highlight)
            }
            writer.raw(#","id":"#)
            writer.rowID(row.id)
            writer.raw(#","index":"#)
            writer.int(row.index)
            writer.keysMember("readOnly", shown.filter { row.readOnly[$0] }) { columns[$0].key }
            writer.raw(#","selected":"#)
            writer.bool(row.selected)
            writer.raw(#","values":{"#)
            for (position, column) in byKey.enumerated() {
                if position > 0 { writer.comma() }
                writer.string(columns[column].key)
                writer.raw(":")
                writer.value(WireValues.json(row.values[column], rules: columns[column].rules))
            }
            writer.raw(#"},"version":"#)
            writer.int(Int(row.version))
            writer.raw("}")
        }
        writer.raw(#"],"table":"#)
        writer.string(table)
        writer.raw(#","total":"#)
        writer.int(total)
        writer.raw(#","version":"#)
        writer.int(version)
        writer.raw("}")
    }
}
