import CSV
import Foundation

extension Table {
    /// The rows (or only the selected ones) in the current order, as CSV with a header of
    /// column keys, or as NDJSON objects; values are written as a person would type them, so
    /// the text loads back unchanged. Returns the text and how many rows it holds.
    public func export(_ format: DataFormat, selectedOnly: Bool = false) -> (text: String, rows: Int) {
        switch format {
        case .csv: exportCSV(selectedOnly: selectedOnly)
        case .ndjson: exportNDJSON(selectedOnly: selectedOnly)
        }
    }

    private func exportCSV(selectedOnly: Bool) -> (text: String, rows: Int) {
        let stream = OutputStream(toMemory: ())
        stream.open()
        var rows = 0
        do {
            let writer = try CSVWriter(stream: stream)
            try writer.write(row: columns.map(\.key))
            var failure: (any Error)?
            forEachRow(selectedOnly: selectedOnly) { _, values in
                guard failure == nil else { return }
                do {
                    try writer.write(row: zip(columns, values).map { $0.rules.displayText($1) })
                    rows += 1
                } catch {
                    failure = error
                }
            }
            writer.stream.close()
        } catch {
            return ("", 0)
        }
        let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
        return (String(decoding: data, as: UTF8.self) + "\n", rows)
    }

    private func exportNDJSON(selectedOnly: Bool) -> (text: String, rows: Int) {
        var text = ""
        var rows = 0
        forEachRow(selectedOnly: selectedOnly) { _, values in
            var object: [String: Any] = [:]
            for (column, value) in zip(columns, values) {
                switch value {
                case .empty: object[column.key] = NSNull()
                case .number(let number): object[column.key] = number
                case .duration(let seconds): object[column.key] = seconds
                default: object[column.key] = column.rules.displayText(value)
                }
            }
            if let line = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.sortedKeys, .withoutEscapingSlashes]
            ) {
                text += String(decoding: line, as: UTF8.self)
                text += "\n"
                rows += 1
            }
        }
        return (text, rows)
    }
}
