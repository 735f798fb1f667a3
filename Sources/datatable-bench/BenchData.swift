import Foundation

/// The generated table: stock items with a key, two text columns, numbers, a date, a picker-like
/// grade and a duration, shaped like the Fiori "Stock Summary" example. One item in ten is
/// named in Japanese, so that layout in points measures text its font lacks (with a fallback).
enum BenchData {
    static let columnCount = 8
    static let header = "sku,item,rack,qty,weight,received,grade,lead"
    static let grades = ["Low", "Medium", "High"]

    static func sku(_ row: Int) -> String { "SKU-\(row)" }

    /// The fields of row `row`, deterministic.
    static func fields(_ row: Int) -> [String] {
        let day = 1 + (row * 7919) % 28
        let month = 1 + (row * 31) % 12
        return [
            sku(row),
            "\(row % 10 == 3 ? "ウィジェット" : "Widget") \((row * 48271) % 99991)",
            "R\(row % 40)-\(row % 7)",
            String((row * 7) % 1000),
            String(format: "%.2f", Double((row * 13) % 50000) / 100),
            String(format: "2024-%02d-%02d", month, day),
            grades[row % 3],
            "\(row % 9)h \(row % 60)m",
        ]
    }

    /// Writes the CSV; returns its size in bytes.
    static func writeCSV(rows: Int, to path: String) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var buffer = header + "\n"
        var total = 0
        for row in 0..<rows {
            buffer += fields(row).joined(separator: ",")
            buffer += "\n"
            if buffer.utf8.count > 1 << 20 {
                total += buffer.utf8.count
                try handle.write(contentsOf: Data(buffer.utf8))
                buffer = ""
            }
        }
        total += buffer.utf8.count
        try handle.write(contentsOf: Data(buffer.utf8))
        return total
    }

    /// Row `row` as a JSON object for `add`.
    static func rowJSON(_ row: Int) -> String {
        let keys = header.split(separator: ",")
        let members = zip(keys, fields(row)).map { key, value in
            key == "qty" || key == "weight" ? "\"\(key)\":\(value)" : "\"\(key)\":\"\(value)\""
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}
