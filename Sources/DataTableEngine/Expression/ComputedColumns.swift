/// Why a table's computed columns cannot be taken: the column (by index), the member of its
/// definition at fault (`expression`, `type`, `decimals` or `format`), and what is wrong where.
struct ComputedColumnError: Error, Sendable {
    var column: Int
    var member: String
    var error: ExpressionError
}

/// A table's computed columns, checked against its columns and ready to work out: each
/// column's compiled expression, the order they are worked out in (every one after the
/// columns it reads), and for each column the computed ones that follow from it.
struct ComputedColumns: Sendable {
    /// Computed columns' indices, each after every computed column it reads.
    private(set) var order: [Int] = []
    /// By column index: the compiled expression of a computed column, `nil` for a stored one.
    private(set) var programs: [CompiledExpression?] = []
    /// By column index: the computed columns whose values follow from it, directly or through
    /// others, in ``order``.
    private(set) var dependents: [[Int]] = []
    /// By column index: the columns a computed column's expression names.
    private(set) var reads: [[Int]] = []
    /// The computed columns whose values follow from a view's rows and order, by column index:
    /// they store nothing (their program gives empty) and are worked out as a read shows them.
    private(set) var viewOrder: [Int: ViewOrderFunction] = [:]

    /// Whether the table has no computed column.
    var isEmpty: Bool { order.isEmpty }

    /// The computed columns that follow from `column` (none when it has no dependents).
    func dependents(of column: Int) -> [Int] {
        column < dependents.count ? dependents[column] : []
    }

    /// The value the computed column `column` has for `row`.
    func value(of column: Int, type: ColumnType, row: ExpressionRow) -> CellValue {
        programs[column]!.evaluate(row).cellValue(of: type)
    }

    /// Checks every computed column of `columns` against the others and returns the columns
    /// with their types and display rules worked out, and the compiled set. Refuses a name
    /// that is no column, a cycle, a type mismatch, or display settings the type does not take.
    static func resolve(_ columns: [Column]) throws(ComputedColumnError) -> (
        columns: [Column], computed: ComputedColumns
    ) {
        let computedIndices = columns.indices.filter { columns[$0].isComputed }
        guard !computedIndices.isEmpty else { return (columns, ComputedColumns()) }
        // Names first: which columns each expression reads.
        let names = ExpressionScope(columns: columns, types: Array(repeating: .number, count: columns.count))
        var named: [Int: [(column: Int, offset: Int)]] = [:]
        // Each expression is parsed once, here; the trees are compiled below.
        var trees: [Int: SyntaxNode] = [:]
        for index in computedIndices {
            let references: [WrittenReference]
            do throws(ExpressionError) {
                (trees[index], references) = try ExpressionParser.parse(columns[index].expression!.source)
            } catch {
                throw ComputedColumnError(column: index, member: "expression", error: error)
            }
            var found: [(column: Int, offset: Int)] = []
            for reference in references {
                switch names.resolve(reference.name) {
                case .success(let column): found.append((column, reference.offset))
                case .failure(let error):
                    throw ComputedColumnError(
                        column: index,
                        member: "expression",
                        error: ExpressionError(error.message, at: reference.offset)
                    )
                }
            }
            named[index] = found
        }
        // Then the order: each computed column after the computed columns it reads.
        var remaining: [Int: Int] = [:]  // computed column → computed columns it reads, not yet placed
        var readers: [Int: [Int]] = [:]
        for index in computedIndices {
            let computedReads = Set(named[index]!.map(\.column).filter { columns[$0].isComputed })
            remaining[index] = computedReads.count
            for read in computedReads { readers[read, default: []].append(index) }
        }
        var order: [Int] = []
        var ready = computedIndices.filter { remaining[$0] == 0 }
        while let next = ready.popLast() {
            order.append(next)
            for reader in readers[next] ?? [] {
                remaining[reader]! -= 1
                if remaining[reader] == 0 { ready.append(reader) }
            }
        }
        if order.count < computedIndices.count {
            let placed = Set(order)
            let stuck = computedIndices.first { !placed.contains($0) }!
            let reference = named[stuck]!.first { columns[$0.column].isComputed && !placed.contains($0.column) }!
            let message =
                reference.column == stuck
                ? "\(columns[stuck].key) cannot read itself."
                : "\(columns[stuck].key) reads \(columns[reference.column].key), which is computed from "
                    + "\(columns[stuck].key): a cycle."
            throw ComputedColumnError(
                column: stuck,
                member: "expression",
                error: ExpressionError(message, at: reference.offset)
            )
        }
        // Then each expression, in that order, knowing the types of what it reads.
        var types: [ExpressionType?] = columns.map { $0.isComputed ? nil : ExpressionType($0.type) }
        var resolved = columns
        var computed = ComputedColumns()
        computed.order = order
        computed.programs = Array(repeating: nil, count: columns.count)
        computed.reads = Array(repeating: [], count: columns.count)
        for index in order {
            let scope = ExpressionScope(columns: resolved, types: types)
            let expression = columns[index].expression!
            let program: CompiledExpression
            do throws(ExpressionError) {
                let tree = trees[index]!
                if let function = try ViewOrderFunction.recognize(
                    tree,
                    in: scope,
                    viewOrder: { computed.viewOrder[$0] != nil }
                ) {
                    computed.viewOrder[index] = function
                    program = CompiledExpression(type: .number, reads: function.summed.map { [$0] } ?? []) { _ in .empty
                    }
                } else {
                    program = try ExpressionCompiler.compile(tree: tree, in: scope)
                    if let read = named[index]!.first(where: { computed.viewOrder[$0.column] != nil }) {
                        throw ExpressionError(
                            "\(columns[read.column].key) follows the order of the rows a view shows: "
                                + "only a read of that view has its values, so no other column may use them.",
                            at: read.offset
                        )
                    }
                }
            } catch {
                throw ComputedColumnError(column: index, member: "expression", error: error)
            }
            let type = program.type.columnType!
            if let declared = expression.declaredType, declared != type {
                throw ComputedColumnError(
                    column: index,
                    member: "type",
                    error: ExpressionError(
                        "The expression gives \(ExpressionCompiler.article(program.type)), not \(declared.rawValue).",
                        at: 0
                    )
                )
            }
            do throws(ValidationFailure) {
                resolved[index].rules = try ColumnRules(
                    type: type,
                    decimals: expression.decimals,
                    style: expression.style
                )
            } catch {
                throw ComputedColumnError(
                    column: index,
                    member: expression.decimals != nil && type != .number ? "decimals" : "format",
                    error: ExpressionError(error.message, at: 0)
                )
            }
            resolved[index].expression!.declaredType = type
            types[index] = program.type
            computed.programs[index] = program
            computed.reads[index] = program.reads
        }
        // What follows from each column: the computed columns reading it, then those reading
        // them, in the working order.
        var follows: [Set<Int>] = Array(repeating: [], count: columns.count)
        for index in order {
            for read in computed.reads[index] { follows[read].insert(index) }
        }
        var dependents: [[Int]] = Array(repeating: [], count: columns.count)
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        for column in columns.indices {
            var reached: Set<Int> = []
            var stack = Array(follows[column])
            while let next = stack.popLast() {
                if reached.insert(next).inserted { stack.append(contentsOf: follows[next]) }
            }
            dependents[column] = reached.sorted { position[$0]! < position[$1]! }
        }
        computed.dependents = dependents
        return (resolved, computed)
    }
}
