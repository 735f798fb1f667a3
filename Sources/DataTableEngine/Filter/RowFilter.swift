/// What a view narrows a table's rows to (SAP Fiori's filter bar): conditions on columns, every
/// one of which a row must meet, and a quick search text that the display text of at least one
/// of the row's cells must contain, ignoring case.
///
/// A filter is made for one table (``init(_:search:in:)`` reads each condition's values as its
/// column's type) and holds column indices, not keys.
public struct RowFilter: Sendable, Equatable {
    /// The conditions, all of which a row must meet.
    public private(set) var conditions: [FilterCondition]
    /// Text that some cell's display text must contain, folded to lower case; empty for none.
    public private(set) var search: String
    /// ``search`` as given, for the words that describe the filter.
    public private(set) var searchAsGiven: String
    /// ``search``'s UTF-8, and whether it is all ASCII (then compared byte by byte, folded).
    private(set) var searchBytes: [UInt8]
    private(set) var searchIsASCII: Bool

    /// The table's columns moved: `map` gives each old index its new one (`nil`: gone, and
    /// conditions on it with it).
    mutating func renumberColumns(_ map: (Int) -> Int?) {
        conditions = conditions.compactMap { condition in
            map(condition.column).map { column in
                var moved = condition
                moved.column = column
                return moved
            }
        }
    }

    /// Whether the filter lets every row through.
    public var isEmpty: Bool { conditions.isEmpty && search.isEmpty }

    /// Whether a row's passing may depend on its cell in `column` (a search reads every
    /// column).
    func reads(_ column: Int) -> Bool {
        !search.isEmpty || conditions.contains { $0.column == column }
    }

    /// A filter of `conditions` on the columns of `table`, and `search` (empty for none).
    /// A condition on a column the table does not have is ``TableError/noSuchColumn(_:row:)``;
    /// one whose values its column's type cannot read, or an operator that needs a different
    /// number of values, is ``TableError/invalidArgument(_:field:)`` naming `where[i]`.
    public init(_ conditions: [FilterCondition.Input], search: String = "", in table: Table) throws(TableError) {
        var compiled: [FilterCondition] = []
        for (position, input) in conditions.enumerated() {
            let field = "where[\(position)]"
            guard let column = table.columnIndex[input.column] else { throw .noSuchColumn(input.column, row: nil) }
            let rules = table.columns[column].rules
            let needed = input.operator.operandCount
            if let needed, input.values.count != needed {
                let values = needed == 1 ? "one value" : needed == 0 ? "no value" : "\(needed) values"
                throw .invalidArgument("\(input.operator.rawValue) takes \(values).", field: "\(field).value")
            }
            if needed == nil, input.values.isEmpty {
                throw .invalidArgument("in takes a list of one or more values.", field: "\(field).values")
            }
            var operands: [CellValue] = []
            if input.operator.comparesText {
                operands = input.values.map { .text(TextKey.folded($0.draftText)) }
            } else {
                for value in input.values {
                    do throws(ValidationFailure) {
                        let operand = try rules.parseComparand(value)
                        guard !operand.isEmpty else {
                            throw ValidationFailure("A value is needed; use empty or notEmpty for blank cells.")
                        }
                        operands.append(operand)
                    } catch {
                        throw .invalidArgument(
                            "\(input.column) \(input.operator.rawValue) \(value.draftText): \(error.message)",
                            field: needed == nil ? "\(field).values" : "\(field).value"
                        )
                    }
                }
            }
            if input.operator == .between, ValueOrder.compare(operands[0], operands[1]) > 0 {
                throw .invalidArgument(
                    "between takes the lower value first (\(input.values[0].draftText) is more than \(input.values[1].draftText)).",
                    field: "\(field).value"
                )
            }
            compiled.append(FilterCondition(column: column, operator: input.operator, operands: operands))
        }
        self.conditions = compiled
        self.searchAsGiven = search
        self.search = TextKey.folded(search)
        searchBytes = Array(self.search.utf8)
        searchIsASCII = !searchBytes.contains { $0 >= 0x80 }
    }

    /// The filter in words, for a filter feedback bar: conditions by column label joined by
    /// " · ", values as the column shows them ("Qty ≥ 100 · Rack is A1, B2 · “valve”"); empty
    /// when the filter is.
    public func description(in table: Table) -> String {
        var parts: [String] = conditions.map { condition in
            let column = table.columns[condition.column]
            let values = condition.operands.map { operand -> String in
                if case .text(let text) = operand, condition.operator.comparesText { return "“\(text)”" }
                return column.rules.displayText(operand)
            }
            let label = column.label
            switch condition.operator {
            case .equal: return "\(label) is \(values[0])"
            case .notEqual: return "\(label) is not \(values[0])"
            case .oneOf: return "\(label) is \(values.joined(separator: ", "))"
            case .between: return "\(label) \(values[0])–\(values[1])"
            case .contains: return "\(label) contains \(values[0])"
            case .startsWith: return "\(label) starts with \(values[0])"
            case .empty: return "\(label) is empty"
            case .notEmpty: return "\(label) is not empty"
            default: return "\(label) \(condition.operator.rawValue) \(values[0])"
            }
        }
        if !searchAsGiven.isEmpty { parts.append("“\(searchAsGiven)”") }
        return parts.joined(separator: " · ")
    }
}

/// One condition of a ``RowFilter``: a column, an operator and the values it compares with.
public struct FilterCondition: Sendable, Equatable {
    /// A condition as a client gives it: a column key, an operator and its values as typed.
    public struct Input: Sendable, Equatable {
        /// The column's key.
        public var column: String
        /// What the cells are tested for.
        public var `operator`: FilterOperator
        /// The values, as typed (none for `empty` / `notEmpty`, two for `between`, one or more
        /// for `in`, else one).
        public var values: [CellInput]

        /// A condition on the column `column`.
        public init(column: String, operator: FilterOperator, values: [CellInput]) {
            self.column = column
            self.operator = `operator`
            self.values = values
        }
    }

    /// The column's index in the table.
    public var column: Int
    /// What the cells are tested for.
    public var `operator`: FilterOperator
    /// The values compared with: of the column's type, or folded text for the text operators.
    public var operands: [CellValue]
}

/// How a condition tests a cell. The comparisons order values as a sort does (numbers as
/// numbers, dates as days); an empty cell meets only `≠`, `empty` and `notEmpty`.
public enum FilterOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "="
    case notEqual = "≠"
    case less = "<"
    case lessOrEqual = "≤"
    case greater = ">"
    case greaterOrEqual = "≥"
    /// From the first value to the second, both included.
    case between
    /// Equal to one of the values (a picker's options, say).
    case oneOf = "in"
    /// The display text contains the value, ignoring case.
    case contains
    /// The display text starts with the value, ignoring case.
    case startsWith
    /// The cell has no value.
    case empty
    /// The cell has a value.
    case notEmpty

    /// The operator spelt `text`: its symbol or name, or the ASCII forms `==`, `!=`, `<=`, `>=`.
    public init?(spelt text: String) {
        switch text {
        case "==": self = .equal
        case "!=", "<>": self = .notEqual
        case "<=": self = .lessOrEqual
        case ">=": self = .greaterOrEqual
        default:
            guard let known = Self(rawValue: text) else { return nil }
            self = known
        }
    }

    /// How many values it takes; `nil` for one or more (`in`).
    public var operandCount: Int? {
        switch self {
        case .empty, .notEmpty: 0
        case .between: 2
        case .oneOf: nil
        default: 1
        }
    }

    /// Whether it tests display text rather than typed values.
    public var comparesText: Bool { self == .contains || self == .startsWith }
}
