import DataTableEngine
import DataTableProtocol

extension ResponseError {
    /// The reply for a refusal from the catalog or a table.
    init(_ error: CatalogError) {
        switch error {
        case .noSuchTable(let name):
            self.init(
                code: .noSuchTable,
                kind: .noSuchTable,
                message: "There is no table \"\(name)\"; \"tables\" lists them.",
                details: ["table": .string(name), "field": "params.table"]
            )
        case .alreadyExists(let name):
            self.init(
                code: .conflict,
                kind: .alreadyExists,
                message: "A table \"\(name)\" already exists; drop it first or pick another name.",
                details: ["table": .string(name), "field": "params.table"]
            )
        case .invalidName:
            self = .invalidValue(
                "A table name is 1 to 128 characters with no control characters.",
                field: "params.table"
            )
        }
    }

    /// The reply for a refusal from a table.
    init(_ error: TableError) {
        switch error {
        case .noSuchRow(let id):
            self.init(
                code: .noSuchRow,
                kind: .noSuchRow,
                message: "There is no row with id \(WireValues.quoted(id)).",
                details: ["id": WireValues.json(id)]
            )
        case .noSuchColumn(let key, let row):
            var details: [String: JSONValue] = ["column": .string(key)]
            if let row { details["row"] = .integer(Int64(row)) }
            self.init(
                code: .invalidParams,
                kind: .noSuchColumn,
                message: (row.map { "Row \($0 + 1): " } ?? "") + "there is no column \"\(key)\".",
                details: details
            )
        case .readOnly(let id, let column):
            self.init(
                code: .readOnly,
                kind: .readOnly,
                message: "This cell is read-only.",
                details: ["id": WireValues.json(id), "column": .string(column)]
            )
        case .invalidValues(let problems):
            let first = problems[0]
            var place: [String] = []
            if let line = first.line {
                place.append("line \(line)")
            } else if let row = first.row {
                place.append("row \(row + 1)")
            }
            place.append("column \(first.column)")
            var details = Self.details(first)
            details["count"] = .integer(Int64(problems.count))
            if problems.count > 1 { details["problems"] = .array(problems.map { .object(Self.details($0)) }) }
            self.init(
                code: .invalidParams,
                kind: .invalidValue,
                message: first.id == nil || first.line != nil
                    ? place.joined(separator: ", ").capitalizedFirst + ": " + first.message
                    : first.message,
                details: details
            )
        case .duplicateID(let id, let row):
            var details: [String: JSONValue] = ["id": WireValues.json(id)]
            if let row { details["row"] = .integer(Int64(row)) }
            self.init(
                code: .conflict,
                kind: .alreadyExists,
                message: (row.map { "Row \($0 + 1): " } ?? "")
                    + "a row with id \(WireValues.quoted(id)) already exists.",
                details: details
            )
        case .invalidArgument(let message, let field):
            self = .invalidValue(message, field: "params." + field)
        case .invalidSchema(let message, let field):
            self = .invalidValue(message, field: "params." + field)
        case .invalidExpression(let message, let field, let offset):
            self = .invalidValue(message, field: "params." + field)
            details["offset"] = .integer(Int64(offset))
        case .invalidLayout(let message, let field):
            self = .invalidParams(message, field: "params." + field)
        case .rowChanged(let id, let expected, let current):
            self.init(
                code: .conflict,
                kind: .conflict,
                message: "Row \(WireValues.quoted(id)) is at version \(current), not \(expected): it changed since; "
                    + "read it again and retry.",
                details: ["id": WireValues.json(id), "rowVersion": .integer(Int64(current))]
            )
        case .nothingToUndo(let redo):
            self.init(
                code: .conflict,
                kind: .nothingToUndo,
                message: redo
                    ? "There is nothing of yours to redo." : "There is nothing of yours to undo."
            )
        case .undoBehindOthers(let redo, let author):
            self.init(
                code: .conflict,
                kind: .conflict,
                message:
                    "Your last change \(redo ? "taken back" : "here") was followed by a change of user \(author)'s; "
                    + "\(redo ? "redo" : "undo") takes back only your own changes, and only while nobody changed "
                    + "the table after them.",
                details: ["author": .integer(Int64(author))]
            )
        }
    }

    private static func details(_ problem: CellProblem) -> [String: JSONValue] {
        var details: [String: JSONValue] = [
            "column": .string(problem.column), "input": .string(problem.input), "message": .string(problem.message),
        ]
        if let id = problem.id { details["id"] = WireValues.json(id) }
        if let row = problem.row { details["row"] = .integer(Int64(row)) }
        if let line = problem.line { details["line"] = .integer(Int64(line)) }
        return details
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
