import DataTableEngine
import DataTableProtocol

extension SourceError {
    /// The error a client gets for `error`, thrown by the source called `source`: a
    /// ``SourceError`` as it says, anything else as the source being unreachable.
    static func response(for error: any Error, source: String) -> ResponseError {
        (error as? SourceError ?? .unavailable("\(error)")).response(source: source)
    }

    /// ``response(for:source:)`` for a refusal of `writes` to a relation keyed by `key`: when
    /// they touch one row, `data.id` names it, and `data.column` the one column they set when
    /// the source named none — so a refused edit of one cell names that cell.
    static func response(for error: any Error, source: String, writes: [SourceWrite], key: String) -> ResponseError {
        var response = response(for: error, source: source)
        guard response.kind == .sourceRefused, writes.count == 1 else { return response }
        let row: CellValue?
        var columns: [String] = []
        switch writes[0] {
        case .insert(let values):
            row = values[key]
            columns = Array(values.keys)
        case .update(let id, let values):
            row = id
            columns = Array(values.keys)
        case .delete(let id):
            row = id
        }
        switch row {
        case .number(let number)?: response.details["id"] = .number(number)
        case .text(let text)?: response.details["id"] = .string(text)
        default: break
        }
        if response.details["column"] == nil, columns.count == 1 { response.details["column"] = .string(columns[0]) }
        return response
    }

    /// The error a client gets for this, naming the source called `source`.
    func response(source: String) -> ResponseError {
        switch self {
        case .unavailable(let reason):
            .sourceUnavailable(
                "The source \(source) cannot be reached (\(reason)); nothing was changed.",
                source: source
            )
        case .refused(let reason, let column):
            .sourceRefused("The source \(source) refused the change: \(reason)", source: source, column: column)
        case .invalid(let message, let field):
            .invalidValue(message, field: field)
        }
    }
}
