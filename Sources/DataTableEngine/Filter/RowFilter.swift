/// What a view narrows a table's rows to (SAP Fiori's filter bar): terms, every one of which a
/// row must meet (conditions on columns, or groups of them joined by any, all or not), and a
/// quick search text that the display text of at least one of the row's cells must contain,
/// ignoring case.
///
/// A filter is made for one table (``init(_:search:in:)`` reads each condition's values as its
/// column's type) and holds column indices, not keys.
public struct RowFilter: Sendable, Equatable {
    /// The terms, all of which a row must meet.
    public private(set) var terms: [FilterTerm]
    /// Text that some cell's display text must contain, folded to lower case; empty for none.
    public private(set) var search: String
    /// ``search`` as given, for the words that describe the filter.
    public private(set) var searchAsGiven: String
    /// ``search``'s UTF-8, and whether it is all ASCII (then compared byte by byte, folded).
    private(set) var searchBytes: [UInt8]
    private(set) var searchIsASCII: Bool

    /// How deep groups (`any`, `all`, `not`) may nest.
    public static let maximumDepth = 8
    /// The most conditions a filter may hold, counted in every group.
    public static let maximumConditions = 256

    /// The table's columns moved: `map` gives each old index its new one (`nil`: gone, and the
    /// terms that read it with it).
    mutating func renumberColumns(_ map: (Int) -> Int?) {
        terms = terms.compactMap { $0.renumbered(map) }
    }

    /// Whether the filter lets every row through.
    public var isEmpty: Bool { terms.isEmpty && search.isEmpty }

    /// Whether a row's passing may depend on its cell in `column` (a search reads every
    /// column).
    func reads(_ column: Int) -> Bool {
        !search.isEmpty || terms.contains { $0.reads(column) }
    }

    /// Whether a condition of the filter (not its search) reads `column`.
    func conditionsRead(_ column: Int) -> Bool {
        terms.contains { $0.reads(column) }
    }

    /// A filter of `conditions`, every one of which a row must meet, and `search`.
    public init(_ conditions: [FilterCondition.Input], search: String = "", in table: Table) throws(TableError) {
        try self.init(terms: conditions.map(FilterTerm.Input.condition), search: search, in: table)
    }

    /// A filter of `terms` on the columns of `table`, and `search` (empty for none).
    /// A condition on a column the table does not have is ``TableError/noSuchColumn(_:row:)``;
    /// one whose values its column's type cannot read, an operator that needs a different
    /// number of values, an empty group, groups nested deeper than ``maximumDepth`` or more
    /// than ``maximumConditions`` conditions is ``TableError/invalidArgument(_:field:)`` naming
    /// the term (`where[1].any[0]`).
    public init(terms: [FilterTerm.Input], search: String = "", in table: Table) throws(TableError) {
        var compiler = FilterCompiler(table: table)
        self.terms = try terms.enumerated().map { (position, term) throws(TableError) in
            try compiler.compile(term, field: "where[\(position)]", depth: 0)
        }
        self.searchAsGiven = search
        self.search = TextKey.folded(search)
        searchBytes = Array(self.search.utf8)
        searchIsASCII = !searchBytes.contains { $0 >= 0x80 }
    }
}

/// Reads a filter's terms as a table's columns take them.
private struct FilterCompiler {
    let table: Table
    var conditions = 0

    mutating func compile(_ term: FilterTerm.Input, field: String, depth: Int) throws(TableError) -> FilterTerm {
        func group(_ terms: [FilterTerm.Input], _ name: String) throws(TableError) -> [FilterTerm] {
            guard depth < RowFilter.maximumDepth else {
                throw .invalidArgument("Groups nest at most \(RowFilter.maximumDepth) deep.", field: field)
            }
            guard !terms.isEmpty else {
                throw .invalidArgument("\(name) takes a list of one or more terms.", field: "\(field).\(name)")
            }
            return try terms.enumerated().map { (index, term) throws(TableError) in
                try compile(term, field: "\(field).\(name)[\(index)]", depth: depth + 1)
            }
        }
        switch term {
        case .condition(let input): return .condition(try condition(input, field: field))
        case .any(let terms): return .any(try group(terms, "any"))
        case .all(let terms): return .all(try group(terms, "all"))
        case .not(let inner):
            guard depth < RowFilter.maximumDepth else {
                throw .invalidArgument("Groups nest at most \(RowFilter.maximumDepth) deep.", field: field)
            }
            return .not(try compile(inner, field: "\(field).not", depth: depth + 1))
        }
    }

    mutating func condition(_ input: FilterCondition.Input, field: String) throws(TableError) -> FilterCondition {
        conditions += 1
        guard conditions <= RowFilter.maximumConditions else {
            throw .invalidArgument("A filter holds at most \(RowFilter.maximumConditions) conditions.", field: field)
        }
        guard let column = table.columnIndex[input.column] else { throw .noSuchColumn(input.column, row: nil) }
        try table.checkNotViewOrder(column, "filtered on", field: "\(field).column")
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
        var pattern: TextPattern?
        if input.operator == .matches {
            let source = input.values[0].draftText
            do throws(ValidationFailure) {
                pattern = try TextPattern(source)
            } catch {
                throw .invalidArgument("\(input.column) matches \(source): \(error.message)", field: "\(field).value")
            }
            operands = [.text(source)]
        } else if input.operator.comparesText {
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
        return FilterCondition(column: column, operator: input.operator, operands: operands, pattern: pattern)
    }
}

extension RowFilter {
    /// The filter in words, for a filter feedback bar: terms by column label joined by " · ",
    /// values as the column shows them, groups joined by "or" and "and" in parentheses where
    /// they nest ("Qty 5–500 · Status is Low or Reorder · “valve”"); empty when the filter is.
    public func description(in table: Table) -> String {
        var parts = terms.map { FilterWords(table: table).words($0, within: .top) }
        if !searchAsGiven.isEmpty { parts.append("“\(searchAsGiven)”") }
        return parts.joined(separator: " · ")
    }
}

/// Says filter terms in words.
private struct FilterWords {
    /// How the terms around a term are joined: by "or", by "and", or by " · " (the top level,
    /// where no group needs parentheses).
    enum Joining { case any, all, top }
    let table: Table

    /// `term` in words, in parentheses when it is a group of several joined otherwise than
    /// `within`.
    func words(_ term: FilterTerm, within: Joining) -> String {
        switch term {
        case .condition(let condition): return words(condition)
        case .any(let terms):
            let said = anyWords(terms)
            return terms.count > 1 && within == .all && !sameColumnValues(terms) ? "(\(said))" : said
        case .all(let terms):
            let said = terms.map { words($0, within: .all) }.joined(separator: " and ")
            return terms.count > 1 && within == .any ? "(\(said))" : said
        case .not(let inner):
            if case .condition(let condition) = inner { return "not " + words(condition) }
            let said = words(inner, within: .all)
            return said.hasPrefix("(") ? "not " + said : "not (\(said))"
        }
    }

    /// Terms any of which holds: "Status is Low or Reorder" when each is a value of one column
    /// (`=` or `in`), else each said and joined by "or".
    private func anyWords(_ terms: [FilterTerm]) -> String {
        if sameColumnValues(terms), case .condition(let first) = terms[0] {
            let values = terms.flatMap { term -> [String] in
                guard case .condition(let condition) = term else { return [] }
                return condition.operands.map { table.columns[condition.column].rules.displayText($0) }
            }
            return "\(table.columns[first.column].label) is " + Self.list(values, or: true)
        }
        return terms.map { words($0, within: .any) }.joined(separator: " or ")
    }

    /// Whether every term is a condition `=` or `in` on one and the same column.
    private func sameColumnValues(_ terms: [FilterTerm]) -> Bool {
        var column: Int?
        for term in terms {
            guard case .condition(let condition) = term, condition.operator == .equal || condition.operator == .oneOf,
                column == nil || column == condition.column
            else { return false }
            column = condition.column
        }
        return column != nil
    }

    /// `values` as "A, B or C" (`or`) or "A, B, C".
    private static func list(_ values: [String], or: Bool) -> String {
        guard or, values.count > 1 else { return values.joined(separator: ", ") }
        return values.dropLast().joined(separator: ", ") + " or " + values[values.count - 1]
    }

    private func words(_ condition: FilterCondition) -> String {
        let column = table.columns[condition.column]
        let values = condition.operands.map { operand -> String in
            if case .text(let text) = operand, condition.operator.comparesText || condition.operator == .matches {
                return condition.operator == .matches ? "/\(text)/" : "“\(text)”"
            }
            return column.rules.displayText(operand)
        }
        let label = column.label
        switch condition.operator {
        case .equal: return "\(label) is \(values[0])"
        case .notEqual: return "\(label) is not \(values[0])"
        case .oneOf: return "\(label) is \(Self.list(values, or: true))"
        case .between: return "\(label) \(values[0])–\(values[1])"
        case .contains: return "\(label) contains \(values[0])"
        case .startsWith: return "\(label) starts with \(values[0])"
        case .matches: return "\(label) matches \(values[0])"
        case .empty: return "\(label) is empty"
        case .notEmpty: return "\(label) is not empty"
        default: return "\(label) \(condition.operator.rawValue) \(values[0])"
        }
    }
}
