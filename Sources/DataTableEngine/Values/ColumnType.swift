import DataTableVocabulary

/// What kind of values a column holds. (The vocabulary the engine shares with the wire.)
public typealias ColumnType = ColumnValueType

extension ColumnValueType {
    /// Whether values of this type line up on the right by default (numbers do; the Fiori data
    /// table right-aligns numeric columns).
    public var isNumeric: Bool {
        switch self {
        case .number, .duration: true
        case .text, .date, .time, .picker, .image, .boolean, .datetime: false
        }
    }
}
