import DataTableEngine
import DataTableProtocol
import Foundation

/// Conversions between the engine's values and their JSON form on the wire.
enum WireValues {
    /// A row id from the wire: a whole number or a string. The field's name is made only for
    /// the error (a get of one cell would otherwise build `params.ids[0]` for nothing).
    static func rowID(_ value: JSONValue, field: @autoclosure () -> String) throws(ResponseError) -> RowID {
        switch value {
        case .integer(let number): return .number(number)
        case .number(let number) where number.rounded() == number && abs(number) < 9e15: return .number(Int64(number))
        case .string(let text): return .text(text)
        default:
            let field = field()
            throw .invalidParams("\(field) must be a row id (a whole number or a string).", field: field)
        }
    }

    static func rowIDs(_ values: [JSONValue], field: String) throws(ResponseError) -> [RowID] {
        var ids: [RowID] = []
        ids.reserveCapacity(values.count)
        for (index, value) in values.enumerated() { ids.append(try rowID(value, field: "\(field)[\(index)]")) }
        return ids
    }

    static func json(_ id: RowID) -> JSONValue {
        switch id {
        case .number(let number): .integer(number)
        case .text(let text): .string(text)
        }
    }

    /// An id as it is written in JSON, for messages: `7` or `"A-7"`.
    static func quoted(_ id: RowID) -> String {
        switch id {
        case .number(let number): String(number)
        case .text(let text): "\"\(text)\""
        }
    }

    /// What a client typed for a cell: a string, a number, a boolean or `null`.
    static func cellInput(_ value: JSONValue, field: String) throws(ResponseError) -> CellInput {
        switch value {
        case .null: return .null
        case .bool(let value): return .boolean(value)
        case .string(let text): return .text(text)
        case .integer(let number): return .number(Double(number))
        case .number(let number): return .number(number)
        default:
            throw .invalidValue(
                "\(field) must be a string, a number, a boolean or null, not \(value.typeName).",
                field: field
            )
        }
    }

    /// A stored value as JSON: numbers and durations (seconds) as numbers, the rest as the text a
    /// client would type, `null` when empty.
    static func json(_ value: CellValue, rules: ColumnRules) -> JSONValue {
        switch value {
        case .empty: .null
        case .number(let number):
            number.rounded() == number && abs(number) < 9e15 ? .integer(Int64(number)) : .number(number)
        case .duration(let seconds): .integer(seconds)
        case .text(let text), .image(let text): .string(text)
        // A date's value is its ISO form whatever the column shows.
        case .date(let days): .string(ValueSyntax.dateText(days))
        case .time, .picker: .string(rules.displayText(value))
        case .boolean(let value): .bool(value)
        // An instant's value is its ISO form in UTC whatever zone the column shows it in.
        case .datetime(let milliseconds): .string(DateTimeSyntax.isoText(milliseconds))
        }
    }

    /// A row object: column values plus `$readOnly`, `$readOnlyCells` and `$drillDown`.
    static func rowInput(_ value: JSONValue, field: String) throws(ResponseError) -> RowInput {
        guard case .object(let members) = value else {
            throw .invalidParams("\(field) must be an object of column key → value.", field: field)
        }
        var row = RowInput(values: [:])
        for (key, member) in members {
            switch key {
            case "$readOnly":
                guard case .bool(let flag) = member else {
                    throw .invalidParams("\(field).$readOnly must be a boolean.", field: field + ".$readOnly")
                }
                row.readOnly = flag
            case "$drillDown":
                guard case .bool(let flag) = member else {
                    throw .invalidParams("\(field).$drillDown must be a boolean.", field: field + ".$drillDown")
                }
                row.drillDown = flag
            case "$readOnlyCells":
                guard case .object(let cells) = member else {
                    throw .invalidParams(
                        "\(field).$readOnlyCells must be an object of column key → boolean.",
                        field: field + ".$readOnlyCells"
                    )
                }
                for (column, flag) in cells {
                    guard case .bool(let readOnly) = flag else {
                        throw .invalidParams(
                            "\(field).$readOnlyCells.\(column) must be a boolean.",
                            field: "\(field).$readOnlyCells.\(column)"
                        )
                    }
                    row.readOnlyCells[column] = readOnly
                }
            default:
                row.values[key] = try cellInput(member, field: "\(field).\(key)")
            }
        }
        return row
    }

    static func cells(_ cells: [EditedCell], in table: Table, limit: Int = .max) -> [CellReply] {
        cells.prefix(limit).map { cell in
            CellReply(
                id: json(cell.id),
                column: cell.column,
                value: json(cell.value, rules: table.column(cell.column)!.rules),
                display: cell.display,
                index: cell.index
            )
        }
    }

    /// A row for `get`: every column's value, or only those `only` marks (per column index).
    static func row(_ row: RowSnapshot, columns: [Column], only: [Bool]? = nil) -> RowReply {
        var values: [String: JSONValue] = [:]
        var display: [String: String] = [:]
        var readOnly: [String] = []
        for (index, column) in columns.enumerated() where only?[index] ?? true {
            values[column.key] = json(row.values[index], rules: column.rules)
            display[column.key] = column.rules.displayText(row.values[index])
            if row.readOnly[index] { readOnly.append(column.key) }
        }
        var drafts: [String: DraftReply] = [:]
        for (index, draft) in row.drafts where only?[index] ?? true {
            drafts[columns[index].key] = DraftReply(text: draft.text, error: draft.message)
        }
        return RowReply(
            id: json(row.id),
            index: row.index,
            values: values,
            display: display,
            drafts: drafts.isEmpty ? nil : drafts,
            selected: row.selected,
            readOnly: readOnly.isEmpty ? nil : readOnly,
            highlight: row.highlight > 0 ? row.highlight : nil,
            version: Int(row.version)
        )
    }

    /// Seconds since 1970 as ISO 8601 with milliseconds, UTC.
    static func timestamp(_ seconds: Double) -> String {
        let date = Date(timeIntervalSince1970: seconds)
        return date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)
        )
    }
}
