@testable import DataTableEngine

/// Tables for the engine tests.
enum Fixtures {
    /// A stock table: item (text), rack (text), qty (number), received (date), grade (picker).
    static func stock(key: String? = nil, readOnly: Bool = false) throws -> Table {
        try Table(
            name: "stock",
            columns: [
                Column(key: "item", rules: try ColumnRules(type: .text, required: true)),
                Column(key: "rack", rules: try ColumnRules(type: .text)),
                Column(key: "qty", rules: try ColumnRules(type: .number, minimum: .number(0), decimals: 0)),
                Column(key: "received", rules: try ColumnRules(type: .date)),
                Column(key: "grade", rules: try ColumnRules(type: .picker, options: ["Low", "Medium", "High"])),
            ],
            key: key,
            readOnly: readOnly
        )
    }

    static func row(_ values: [String: CellInput]) -> RowInput { RowInput(values: values) }

    static func row(item: String, qty: Double? = nil, received: String? = nil, rack: String? = nil) -> RowInput {
        var values: [String: CellInput] = ["item": .text(item)]
        if let qty { values["qty"] = .number(qty) }
        if let received { values["received"] = .text(received) }
        if let rack { values["rack"] = .text(rack) }
        return RowInput(values: values)
    }
}

extension Table {
    /// The values of `column` in the current order, as display text.
    func column(_ key: String, asShown: Bool = true) -> [String] {
        let index = columns.firstIndex { $0.key == key }!
        return rows(from: 0, count: rowCount).map { columns[index].rules.displayText($0.values[index]) }
    }

    /// The ids in the current order.
    var ids: [RowID] { rows(from: 0, count: rowCount).map(\.id) }
}
