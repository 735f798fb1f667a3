/// A row's identity for its whole life: unaffected by sort, insert and delete.
///
/// Tables with a key column use that column's value (text or a whole number); other tables hand
/// out whole numbers from 1 upward and never reuse one.
public enum RowID: Hashable, Sendable, CustomStringConvertible {
    case number(Int64)
    case text(String)

    public var description: String {
        switch self {
        case .number(let number): String(number)
        case .text(let text): text
        }
    }
}
