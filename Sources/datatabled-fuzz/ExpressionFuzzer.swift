import DataTableEngine

/// Feeds one input to the expression language as the expression of a computed column, beside
/// a column of every type: the parser and the checker must refuse it or take it, and a taken
/// expression must be worked out for a full row and an empty one, in time linear in its size.
/// A crash or a hang is a finding.
enum ExpressionFuzzer {
    /// The stored columns every input's expression may name.
    static let columns: [Column] = [
        Column(key: "n", label: "Number", rules: try! ColumnRules(type: .number)),
        Column(key: "t", label: "Text", rules: try! ColumnRules(type: .text)),
        Column(key: "d", rules: try! ColumnRules(type: .date)),
        Column(key: "tm", rules: try! ColumnRules(type: .time)),
        Column(key: "dt", rules: try! ColumnRules(type: .datetime)),
        Column(key: "du", rules: try! ColumnRules(type: .duration)),
        Column(key: "b", rules: try! ColumnRules(type: .boolean)),
        Column(key: "p", rules: try! ColumnRules(type: .picker, options: ["low", "high"])),
    ]

    static let full = RowInput(values: [
        "n": .number(-2.5), "t": .text("a Bolt, 東京"), "d": .text("2024-02-29"), "tm": .text("09:30"),
        "dt": .text("2024-03-15T12:30:00.250Z"), "du": .text("1h 30m"), "b": .boolean(true), "p": .text("high"),
    ])

    static func run(_ bytes: [UInt8]) {
        guard bytes.count <= 2 * ExpressionLimits.maximumBytes, let source = String(validating: bytes, as: UTF8.self)
        else { return }
        let computed = Column(key: "x", expression: ColumnExpression(source: source))
        guard var table = try? Table(name: "fuzz", columns: columns + [computed]) else { return }
        _ = try? table.add([full, RowInput(values: [:])], now: 0)
        for row in table.rows(from: 0, count: table.rowCount) {
            _ = table.columns.last!.rules.displayText(row.values.last!)
        }
    }
}
