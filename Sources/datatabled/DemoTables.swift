import DataTableEngine
import Foundation

/// The table `--demo` starts with: the "Stock Summary" of the Fiori data table examples
/// (item, rack, quantity, weight) with a received date, a status picker, a lead time and notes
/// that may wrap to two lines, sorted newest first. Its natural width is more than 1024 points,
/// so a layout at that width truncates (or, scrolling sideways, scrolls).
enum DemoTables {
    /// The demo table's name.
    static let stockSummaryName = "stock"

    static func catalog(rows: Int = 10) -> TableCatalog {
        var catalog = TableCatalog()
        do {
            try catalog.insert(try stockSummary(rows: rows))
        } catch {
            preconditionFailure("the demo table is invalid: \(error)")
        }
        return catalog
    }

    /// The table with its ten rows, and generated ones up to `rows`; sorted newest first once
    /// every row is in (one sort, not a sorted insert per row).
    static func stockSummary(rows count: Int = 10) throws -> Table {
        var table = try Table(
            name: stockSummaryName,
            columns: [
                Column(
                    key: "item",
                    label: "Item",
                    rules: try ColumnRules(type: .text, required: true, maxLength: 40),
                    layout: ColumnLayout(width: -1, sticky: true)
                ),
                Column(key: "rack", label: "Rack", rules: try ColumnRules(type: .text, pattern: "[A-Z][0-9]{1,2}")),
                Column(
                    key: "qty",
                    label: "Qty",
                    rules: try ColumnRules(type: .number, minimum: .number(0), decimals: 0)
                ),
                Column(
                    key: "weight",
                    label: "Weight (kg)",
                    rules: try ColumnRules(type: .number, minimum: .number(0), decimals: 2)
                ),
                Column(key: "received", label: "Received", rules: try ColumnRules(type: .date)),
                Column(
                    key: "status",
                    label: "Status",
                    rules: try ColumnRules(type: .picker, options: ["In Stock", "Low", "Reorder", "Discontinued"])
                ),
                Column(key: "lead", label: "Lead Time", rules: try ColumnRules(type: .duration)),
                Column(
                    key: "notes",
                    label: "Notes",
                    rules: try ColumnRules(type: .text, maxLength: 200),
                    layout: ColumnLayout(lines: 2)
                ),
            ]
        )
        let rows: [(String, String, Double, Double, String, String, String, String)] = [
            ("Ball Bearing 6204", "A1", 1_250, 0.11, "2024-05-02", "In Stock", "2h", "Sealed both sides"),
            ("Hex Bolt M8×40", "A2", 8_400, 0.02, "2024-05-06", "In Stock", "1h 30m", ""),
            (
                "Hydraulic Pump HP-20", "B4", 6, 18.5, "2024-04-18", "Low", "3d",
                "Two units held for the press line; check the seals before issuing"
            ),
            ("Conveyor Belt 5 m", "C1", 14, 22.75, "2024-03-29", "In Stock", "2d", "Store flat"),
            (
                "Servo Motor SM-400", "B2", 3, 4.2, "2024-05-10", "Reorder", "1d 4h",
                "Supplier changed the connector in April: order the new cable kit with every motor"
            ),
            ("Pressure Gauge 0–10 bar", "D3", 42, 0.35, "2024-02-14", "In Stock", "6h", "Calibrated 2024-02"),
            ("Safety Valve SV-12", "D1", 0, 1.8, "2024-01-22", "Discontinued", "0m", "Replaced by SV-14"),
            ("Copper Pipe 15 mm × 3 m", "E2", 120, 1.26, "2024-05-08", "In Stock", "4h", ""),
            ("Air Filter AF-7", "A4", 9, 0.6, "2024-04-30", "Low", "1d", "Fits compressor C-2 only"),
            ("Timing Belt T5-600", "C3", 57, 0.09, "2024-05-01", "In Stock", "5h 15m", ""),
        ]
        _ = try table.add(
            rows.map { item, rack, qty, weight, received, status, lead, notes in
                RowInput(values: [
                    "item": .text(item), "rack": .text(rack), "qty": .number(qty), "weight": .number(weight),
                    "received": .text(received), "status": .text(status), "lead": .text(lead), "notes": .text(notes),
                ])
            },
            now: 0
        )
        try addGenerated(to: &table, upTo: count)
        try table.sort(by: [SortKey(column: "received", descending: true)])
        // The starting rows are not a change anyone made.
        table.forgetHistory()
        return table
    }

    /// Fills `table` up to `count` rows with generated stock: deterministic items, racks,
    /// quantities, weights, dates (older than the hand-written rows), statuses and lead times.
    static func addGenerated(to table: inout Table, upTo count: Int) throws {
        let names = ["Bearing", "Bolt", "Valve", "Gasket", "Filter", "Belt", "Pump", "Gauge", "Seal", "Spring"]
        let statuses = ["In Stock", "Low", "Reorder", "Discontinued"]
        var next = table.rowCount
        while next < count {
            let batch = (next..<min(count, next + 100_000)).map { row in
                let day = 1 + (row * 7919) % 28
                let month = 1 + (row * 31) % 12
                return RowInput(values: [
                    "item": .text("\(names[row % names.count]) \(String(format: "%05d", row))"),
                    "rack": .text("\(Character(UnicodeScalar(UInt8(65 + row % 26))))\(row % 100)"),
                    "qty": .number(Double((row * 7) % 1000)),
                    "weight": .number(Double((row * 13) % 5000) / 100),
                    "received": .text(String(format: "%04d-%02d-%02d", 2023 - row % 20, month, day)),
                    "status": .text(statuses[row % statuses.count]),
                    "lead": .text("\(row % 9)h \(row % 60)m"),
                    "notes": .text(row % 5 == 0 ? "Check before issuing" : ""),
                ])
            }
            _ = try table.add(batch, now: 0)
            next = table.rowCount
        }
    }
}
