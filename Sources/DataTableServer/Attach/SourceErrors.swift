import DataTableProtocol

extension SourceError {
    /// The error a client gets for `error`, thrown by the source called `source`: a
    /// ``SourceError`` as it says, anything else as the source being unreachable.
    static func response(for error: any Error, source: String) -> ResponseError {
        (error as? SourceError ?? .unavailable("\(error)")).response(source: source)
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
