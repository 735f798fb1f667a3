import Testing

@testable import DataTableEngine

/// Computed columns in the engine: defined, checked, worked out, kept current by edits, adds,
/// loads, undo and alter, and refused with the member and the place at fault.
@Suite struct ComputedColumnTests {
    static func number(_ key: String, label: String? = nil) throws -> Column {
        Column(key: key, label: label, rules: try ColumnRules(type: .number))
    }

    static func text(_ key: String) throws -> Column { Column(key: key, rules: try ColumnRules(type: .text)) }

    static func computed(_ key: String, _ source: String, type: ColumnType? = nil, decimals: Int? = nil) -> Column {
        Column(key: key, expression: ColumnExpression(source: source, declaredType: type, decimals: decimals))
    }

    /// qty, weight (labelled "Unit weight"), item; value = qty × weight; heavy = value > 10.
    static func stock() throws -> Table {
        try Table(
            name: "stock",
            columns: [
                try number("qty"), try number("weight", label: "Unit weight"), try text("item"),
                computed("value", "qty * [Unit weight]", decimals: 1), computed("heavy", "value > 10"),
            ]
        )
    }

    static func values(_ table: Table, _ key: String) -> [CellValue] {
        let index = table.columnIndex(of: key)!
        return table.rows(from: 0, count: table.rowCount).map { $0.values[index] }
    }

    @Test func valuesAreWorkedOutTypedAndShownWithTheirDecimals() throws {
        var table = try Self.stock()
        #expect(table.column("value")!.type == .number)
        #expect(table.column("heavy")!.type == .boolean)
        _ = try table.add(
            [
                RowInput(values: ["qty": .number(3), "weight": .number(2.5), "item": .text("Bolt")]),
                RowInput(values: ["qty": .number(10), "item": .text("Nut")]),
            ],
            now: 0
        )
        #expect(Self.values(table, "value") == [.number(7.5), .empty])
        #expect(Self.values(table, "heavy") == [.boolean(false), .empty])
        #expect(table.column("value", asShown: true) == ["7.5", ""])
        _ = try table.edit([CellEdit(id: .number(2), column: "weight", input: .number(1.5))])
        #expect(Self.values(table, "value") == [.number(7.5), .number(15)])
        #expect(Self.values(table, "heavy") == [.boolean(false), .boolean(true)])
        #expect(table.lastChange.cells["heavy"] == [.number(2)])
        #expect(table.lastChange.cells["value"] == [.number(2)])
    }

    @Test func computedCellsAreReadOnlyAndTakeNoValueWhenAdded() throws {
        var table = try Self.stock()
        _ = try table.add([RowInput(values: ["qty": .number(1), "weight": .number(1)])], now: 0)
        #expect(throws: TableError.readOnly(.number(1), column: "value")) {
            try table.edit([CellEdit(id: .number(1), column: "value", input: .number(5))])
        }
        #expect(table.columnIsReadOnly(key: "value"))
        #expect(throws: (any Error).self) {
            try table.add([RowInput(values: ["qty": .number(1), "value": .number(9)])], now: 0)
        }
        #expect(table.rowCount == 1)
    }

    @Test func aSortByAComputedColumnFollowsEditsOfWhatItReads() throws {
        var table = try Self.stock()
        _ = try table.add(
            (1...5).map {
                RowInput(values: ["qty": .number(Double($0)), "weight": .number(1), "item": .text("i\($0)")])
            },
            now: 0
        )
        try table.sort(by: [SortKey(column: "value", descending: true)])
        #expect(table.column("item") == ["i5", "i4", "i3", "i2", "i1"])
        _ = try table.edit([CellEdit(id: .number(1), column: "qty", input: .number(100))])
        #expect(table.column("item") == ["i1", "i5", "i4", "i3", "i2"])
        _ = try table.undo()
        #expect(table.column("item") == ["i5", "i4", "i3", "i2", "i1"])
        #expect(Self.values(table, "value").first == .number(5))
    }

    @Test func alterAddsRedefinesAndDropsAndUndoTakesEachBack() throws {
        var table = try Self.stock()
        _ = try table.add(
            [RowInput(values: ["qty": .number(2), "weight": .number(3), "item": .text("bolt")])],
            now: 0
        )
        var add = TableAlteration()
        add.add = [NewColumn(column: Self.computed("shout", "upper(item) & '!'"))]
        _ = try table.alter(add)
        #expect(Self.values(table, "shout") == [.text("BOLT!")])
        #expect(table.column("shout")!.type == .text)
        var redefine = TableAlteration()
        redefine.change = [Self.computed("value", "qty + [Unit weight]")]
        _ = try table.alter(redefine)
        #expect(Self.values(table, "value") == [.number(5)])
        _ = try table.undo()
        #expect(Self.values(table, "value") == [.number(6)])
        var rename = TableAlteration()
        rename.rename = [("qty", "count")]
        _ = try table.alter(rename)
        #expect(table.column("value")!.expression!.source == "count * [Unit weight]")
        _ = try table.edit([CellEdit(id: .number(1), column: "count", input: .number(4))])
        #expect(Self.values(table, "value") == [.number(12)])
        var drop = TableAlteration()
        drop.drop = ["heavy", "value"]
        _ = try table.alter(drop)
        #expect(table.column("value") == nil)
        _ = try table.undo()
        #expect(Self.values(table, "heavy") == [.boolean(true)])
    }

    /// Every refusal names the member and the place, and changes nothing.
    @Test(arguments: [
        ("qty * nothing", "columns[3].expression", 6),
        ("qty + item", "columns[3].expression", 4),
        ("len(qty)", "columns[3].expression", 4),
        ("round(qty, 1, 2)", "columns[3].expression", 0),
        ("[Nobody] + 1", "columns[3].expression", 0),
        ("'open", "columns[3].expression", 0),
        ("qty * (2", "columns[3].expression", 8),
        ("1 < 2 < 3", "columns[3].expression", 6),
        ("me + 1", "columns[3].expression", 0),
    ])
    func aBadExpressionIsRefusedAtItsPlace(source: String, field: String, offset: Int) throws {
        let columns = [
            try Self.number("qty"), try Self.text("item"), try Self.number("x"), Self.computed("me", source),
        ]
        do throws(TableError) {
            _ = try Table(name: "t", columns: columns)
            Issue.record("\(source) was taken")
        } catch {
            guard case .invalidExpression(_, let got, let at) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(got == field)
            #expect(at == offset)
        }
    }

    @Test func nestingAndLengthPastTheLimitsAreRefused() throws {
        let deep = String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40)
        #expect(throws: ExpressionError("The expression nests deeper than 32 levels here.", at: 32)) {
            try ExpressionParser.parse(deep)
        }
        let thirtyOne = String(repeating: "(", count: 31) + "1" + String(repeating: ")", count: 31)
        _ = try ExpressionParser.parse(thirtyOne)
        let long = "1" + String(repeating: " + 1", count: 1023)
        #expect(long.utf8.count == 4093)
        _ = try ExpressionParser.parse(long + "   ")
        #expect(throws: ExpressionError.self) { try ExpressionParser.parse(long + "    ") }
        // A long sum is one level, however many terms.
        let scope = ExpressionScope(columns: [], types: [])
        let sum = try ExpressionCompiler.compile(long, in: scope)
        #expect(sum.evaluate(ExpressionRow(stores: [], slot: 0)) == .number(1024))
    }

    @Test func aCycleADropOfAUsedColumnAndATypeChangeAreRefused() throws {
        #expect(
            throws: TableError.invalidExpression(
                "a: a reads b, which is computed from a: a cycle.",
                field: "columns[0].expression",
                offset: 0
            )
        ) {
            try Table(name: "t", columns: [Self.computed("a", "b + 1"), Self.computed("b", "a * 2")])
        }
        var table = try Self.stock()
        let before = table.version
        var drop = TableAlteration()
        drop.drop = ["weight"]
        #expect(
            throws: TableError.invalidExpression(
                "weight is used by the expression of value; drop value too, or change its expression in the same alter.",
                field: "drop",
                offset: 6
            )
        ) {
            try table.alter(drop)
        }
        var retype = TableAlteration()
        retype.change = [Self.computed("value", "item & 'x'")]
        #expect(throws: TableError.self) { try table.alter(retype) }
        #expect(table.version == before)
        #expect(table.column("value")!.expression!.source == "qty * [Unit weight]")
        // Dropped together with the column that uses it, or redefined without it: allowed.
        var both = TableAlteration()
        both.drop = ["weight"]
        both.change = [Self.computed("value", "qty * 2")]
        _ = try table.alter(both)
        #expect(table.column("weight") == nil)
    }

    @Test func aLoadWorksOutTheComputedCellsOfEveryRow() throws {
        var table = try Self.stock()
        let csv = "qty,weight,item,value\n2,3,a,999\n4,,b,\n"
        let loaded = try TableLoader.parse(csv, format: .csv, columns: table.columns)
        _ = try table.append(loaded)
        #expect(Self.values(table, "value") == [.number(6), .empty])
    }

    /// A result the column cannot hold, and could not be typed back, is empty.
    @Test func aValueOutsideItsTypesRangeIsEmpty() throws {
        var table = try Table(
            name: "t",
            columns: [
                try Self.number("n"),
                Self.computed("far", "date(n, 1, 1)"),
                Self.computed("ratio", "1 / (n - n)"),
                Self.computed("long", "days(n * 1000000000000)"),
            ]
        )
        _ = try table.add([RowInput(values: ["n": .number(20000)]), RowInput(values: ["n": .number(2024)])], now: 0)
        #expect(Self.values(table, "far") == [.empty, .date(days: CivilDate.days(year: 2024, month: 1, day: 1)!)])
        #expect(Self.values(table, "ratio") == [.empty, .empty])
        #expect(Self.values(table, "long") == [.empty, .empty])
    }

    @Test(arguments: [
        (2.675, 2, 2.68), (1.005, 2, 1.01), (-2.5, 0, -3), (1234.5, -2, 1200), (0.05, 1, 0.1), (9.99, 1, 10),
        (45, -2, 0), (55, -2, 100), (1e-7, 3, 0), (123.456, 5, 123.456),
    ])
    func roundWorksOnTheNumberAsWritten(number: Double, places: Int, expected: Double) {
        #expect(ExpressionMath.round(number, places: places) == expected)
    }
}
