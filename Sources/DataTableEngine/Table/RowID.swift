/// A row's identity for its whole life: unaffected by sort, insert and delete.
///
/// Tables with a key column use that column's value (text or a whole number); other tables hand
/// out whole numbers from 1 upward and never reuse one.
public enum RowID: Hashable, Sendable, CustomStringConvertible {
    /// A whole number: generated (1, 2, …) or a number key column's value.
    case number(Int64)
    /// A text key column's value.
    case text(String)

    /// The id as text: the number in decimal, or the text itself.
    public var description: String {
        switch self {
        case .number(let number): String(number)
        case .text(let text): text
        }
    }
}
