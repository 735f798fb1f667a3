import DataTableEngine
import DataTableServer
import Foundation

/// How PostgreSQL's types become the daemon's, and back: which column type each takes, how a
/// value is read as text the column parses, and how a stored value is written as text
/// PostgreSQL casts to the column's type.
enum PostgresTypes {
    /// The daemon's column for a PostgreSQL column `name` of type `typeName` (`pg_type.typname`),
    /// `formatted` as `format_type` gives it, with its type modifier; `nil` for a type the daemon
    /// has none for.
    static func column(name: String, typeName: String, formatted: String, modifier: Int32, notNull: Bool)
        -> SourceColumn?
    {
        let type: ColumnType
        var decimals: Int?
        var maxLength: Int?
        switch typeName {
        case "int2", "int4", "int8":
            type = .number
            decimals = 0
        case "numeric":
            type = .number
            // numeric(p,s): the modifier is ((p << 16) | s) + 4; -1 when unconstrained.
            if modifier >= 4 { decimals = Int((modifier - 4) & 0xFFFF) }
        case "float4", "float8":
            type = .number
        case "text", "varchar", "bpchar", "name", "citext", "uuid":
            type = .text
            if ["varchar", "bpchar"].contains(typeName), modifier >= 4 { maxLength = Int(modifier - 4) }
        case "bool":
            type = .boolean
        case "date":
            type = .date
        case "time":
            type = .time
        case "timestamptz", "timestamp":
            type = .datetime
        case "interval":
            type = .duration
        default:
            return nil
        }
        return SourceColumn(
            name: name,
            type: type,
            required: notNull,
            maxLength: maxLength,
            decimals: decimals,
            sourceType: formatted
        )
    }

    /// The SQL that reads `column` (quoted as `identifier`) as text its daemon column parses.
    static func readExpression(_ column: SourceColumn, identifier: String) -> String {
        switch column.type {
        case .datetime where column.sourceType.hasPrefix("timestamp with"):
            "to_char(\(identifier) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        case .datetime:
            "to_char(\(identifier), 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        case .duration:
            "round(extract(epoch from \(identifier)))::bigint::text"
        case .time:
            "to_char(\(identifier), 'HH24:MI:SS')"
        default:
            "\(identifier)::text"
        }
    }

    /// The SQL that reads `column` in a `COPY … TO STDOUT`: the column itself where PostgreSQL's
    /// own text output is what the daemon parses (numbers, text, dates), else
    /// ``readExpression(_:identifier:)``.
    static func copyExpression(_ column: SourceColumn, identifier: String) -> String {
        switch column.type {
        case .number, .text, .date: identifier
        case .duration: "extract(epoch from \(identifier))::bigint"
        default: readExpression(column, identifier: identifier)
        }
    }

    /// `value` as text PostgreSQL casts to `column`'s type; `nil` for no value (SQL NULL).
    static func text(_ value: CellValue, for column: SourceColumn) -> String? {
        switch value {
        case .empty: nil
        case .text(let text), .image(let text): text
        case .number(let number):
            number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case .boolean(let flag): flag ? "true" : "false"
        case .date(let days): ValueSyntax.dateText(days)
        case .time(let seconds): String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
        case .duration(let seconds): "\(seconds) seconds"
        case .picker(let option): String(option)
        case .datetime(let milliseconds): DateTimeSyntax.isoText(milliseconds)
        }
    }
}
