import Foundation

extension Table {
    /// The rows (or only the selected ones) in the current order, as CSV with a header of
    /// column keys, as NDJSON objects, or as one JSON array of those objects; values are written
    /// as a person would type them, so the text loads back unchanged. Returns the text and how
    /// many rows it holds.
    ///
    /// CSV: one line per row after the header, each ended by `\n`; a field is quoted when it
    /// holds `"`, `,`, CR or LF, with quotes doubled. NDJSON: one object per row and line, keys
    /// sorted, empty cells `null`, numbers and durations (in seconds) as JSON numbers, other
    /// values as their display text. JSON: `[`, the NDJSON objects each on a line of its own and
    /// ended by a comma but the last, then `]` on a line (`[]` when there are no rows).
    public func export(_ format: DataFormat, selectedOnly: Bool = false, within filter: UInt64? = nil) -> (
        text: String, rows: Int
    ) {
        // Chunks kept as they come and copied once into the text: no buffer grows by copying.
        var chunks: [[UInt8]] = []
        let rows = export(format, selectedOnly: selectedOnly, within: filter, chunkBytes: 1 << 22) { chunk, _ in
            chunks.append(chunk)
        }
        let text = String(unsafeUninitializedCapacity: chunks.reduce(0) { $0 + $1.count }) { text in
            var written = 0
            for chunk in chunks {
                written += UnsafeMutableBufferPointer(rebasing: text[written...]).initialize(fromContentsOf: chunk)
            }
            return written
        }
        return (text, rows)
    }

    /// The same bytes as ``export(_:selectedOnly:)``, handed to `emit` in pieces as they are
    /// written, for streaming a reply or writing a file without holding the whole text.
    ///
    /// A chunk is handed on once it holds `chunkBytes` bytes or more, always at the end of a
    /// row (so it may exceed `chunkBytes` by up to a row; in JSON a row's comma starts the next
    /// chunk), and once at the end with what is
    /// left; chunks are never empty. `rowsSoFar` counts the rows written up to the end of the
    /// chunk. Chunks are written into one buffer that is emptied and reused after each `emit`;
    /// keeping a chunk is safe (it is a value) but makes the next one start in a new buffer.
    /// An error from `emit` ends the export. Returns how many rows were written.
    public func export(
        _ format: DataFormat,
        selectedOnly: Bool = false,
        within filter: UInt64? = nil,
        chunkBytes: Int,
        _ emit: (_ chunk: [UInt8], _ rowsSoFar: Int) throws -> Void
    ) rethrows -> Int {
        let cells = columns.indices.map { ExportCells(column: columns[$0], store: stores[$0]) }
        // The cells in the order a row lists them: NDJSON's in key order, each after its key.
        var rowCells = cells
        if format != .csv {
            rowCells = jsonKeyOrder().map { cells[$0] }
            for (position, cell) in rowCells.enumerated() { cell.makeJSONPrefix(first: position == 0) }
        }
        var writer = ExportWriter(capacity: max(0, min(chunkBytes, 1 << 20)) + 4096)
        if format == .json { writer.append(UInt8(ascii: "[")) }
        if format == .csv {
            writeCSVHeader(to: &writer)
            if writer.count >= chunkBytes {
                try emit(writer.bytes, 0)
                writer.removeAll()
            }
        }

        var rows = 0
        let shown = filter.flatMap(filterIndex)
        let count = shownCount(shown)
        var position = 0
        let sums = viewOrderColumns.isEmpty ? [:] : viewOrderSums(ViewRows(filter: shown))
        while position < count {
            // A batch of rows at a time: `emit` can be called (and throw) between rows, and
            // each column's values are gathered before the rows are written.
            var slots = shownSlots(shown, from: position, limit: 4096)
            // The view-order columns' values as the view's rows give them, selected or not.
            var viewOrder: [Int: [CellValue]] = [:]
            for column in viewOrderColumns.keys {
                viewOrder[column] = viewOrderValues(
                    column,
                    rows: ViewRows(filter: shown),
                    from: position,
                    slots: slots,
                    sums: sums
                )
            }
            position += slots.count
            if selectedOnly {
                let kept = slots.indices.filter { flags[Int(slots[$0])].selected }
                slots = kept.map { slots[$0] }
                viewOrder = viewOrder.mapValues { values in kept.map { values[$0] } }
            }
            for (column, cell) in cells.enumerated() {
                if let values = viewOrder[column] {
                    cell.take(values)
                } else {
                    cell.gather(slots)
                }
            }
            for row in slots.indices {
                switch format {
                case .csv: Self.writeCSVRow(row, of: rowCells, to: &writer)
                case .ndjson: Self.writeJSONRow(row, of: rowCells, to: &writer)
                case .json:
                    writer.append(rows == 0 ? UInt8(ascii: "\n") : UInt8(ascii: ","))
                    if rows > 0 { writer.append(UInt8(ascii: "\n")) }
                    Self.writeJSONRow(row, of: rowCells, to: &writer, ending: false)
                }
                rows += 1
                if writer.count >= chunkBytes {
                    try emit(writer.bytes, rows)
                    writer.removeAll()
                }
            }
        }
        if format == .json {
            if rows > 0 { writer.append(UInt8(ascii: "\n")) }
            writer.append(UInt8(ascii: "]"))
            writer.append(UInt8(ascii: "\n"))
        }
        if writer.count > 0 { try emit(writer.bytes, rows) }
        return rows
    }

    /// The CSV header: the column keys as fields, then `\n`.
    private func writeCSVHeader(to writer: inout ExportWriter) {
        for (index, column) in columns.enumerated() {
            if index > 0 { writer.append(UInt8(ascii: ",")) }
            writer.appendCSVField(column.key)
        }
        writer.append(UInt8(ascii: "\n"))
    }

    /// A CSV line: the batch's `row` of each column, separated by commas, then `\n`.
    private static func writeCSVRow(_ row: Int, of cells: [ExportCells], to writer: inout ExportWriter) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { writer.append(UInt8(ascii: ",")) }
            cell.writeCSV(row: row, to: &writer)
        }
        writer.append(UInt8(ascii: "\n"))
    }

    /// An NDJSON line: the batch's `row` of each column after its key, in braces, then `\n`
    /// unless `ending` is false (an element of a JSON array).
    private static func writeJSONRow(
        _ row: Int,
        of cells: [ExportCells],
        to writer: inout ExportWriter,
        ending: Bool = true
    ) {
        writer.append(UInt8(ascii: "{"))
        for cell in cells { cell.writeJSON(row: row, to: &writer) }
        writer.append(UInt8(ascii: "}"))
        if ending { writer.append(UInt8(ascii: "\n")) }
    }

    /// The column indices in the order NDJSON lists keys.
    ///
    /// `JSONSerialization`'s `.sortedKeys` on Linux sorts with
    /// `compare(_:options: [.numeric, .caseInsensitive, .forcedOrdering], locale: .system)`, so
    /// this does too (`"a2"` before `"A10"` before `"b"`). That comparison is a total order on
    /// ASCII keys; for some mixes of non-ASCII keys (`ß` against `ss`, digits of other scripts)
    /// it is not, and the old output then depended on hash seeds and changed from one process
    /// to the next, so no one order could match it.
    private func jsonKeyOrder() -> [Int] {
        columns.indices.sorted { left, right in
            let a = columns[left].key
            let b = columns[right].key
            let options: NSString.CompareOptions = [.numeric, .caseInsensitive, .forcedOrdering]
            return a.compare(b, options: options, range: a.startIndex..<a.endIndex, locale: NSLocale.system)
                == .orderedAscending
        }
    }
}

/// One column's values for an export, read straight from its store: no ``CellValue`` and, for
/// every type but text, no string per cell. A class, so the row loop does not copy its arrays.
private final class ExportCells {
    let key: String
    let rules: ColumnRules
    let store: ColumnStore
    /// NDJSON: what goes before the value, `"key":` (after a comma but in the first column).
    private var jsonPrefix: [UInt8] = []
    // The values of the batch being written, in row order; only the array of the store's type
    // is used.
    private var strings: [String] = []
    private var numbers: [Double] = []
    private var smallIntegers: [Int32] = []
    private var largeIntegers: [Int64] = []
    /// A coded column's texts by code, made once for the whole export on its first batch.
    private var texts: [String]?

    init(column: Column, store: ColumnStore) {
        key = column.key
        rules = column.rules
        self.store = store
    }

    func makeJSONPrefix(first: Bool) {
        var writer = ExportWriter(capacity: key.utf8.count + 4)
        if !first { writer.append(UInt8(ascii: ",")) }
        writer.appendJSONString(key)
        writer.append(UInt8(ascii: ":"))
        jsonPrefix = writer.bytes
    }

    /// Copies the values in `slots` out of the store, in order, for the next rows. The rows of
    /// a sorted table lie all over the store; reading one column in a tight loop lets those
    /// scattered reads overlap, where reading them row by row between the writing waits for
    /// each in turn.
    func gather(_ slots: [UInt32]) {
        switch store.type {
        case .text, .image:
            if store.isCoded {
                if texts == nil { texts = store.dictionary.allTexts }
                let texts = texts!
                let codes = store.codes
                strings = slots.map { texts[Int(codes[Int($0)])] }
            } else {
                let source = store.strings
                strings = slots.map { source[Int($0)] }
            }
        case .number:
            let source = store.numbers
            numbers = slots.map { source[Int($0)] }
        case .date, .time, .picker, .boolean:
            let source = store.smallIntegers
            smallIntegers = slots.map { source[Int($0)] }
        case .duration, .datetime:
            let source = store.largeIntegers
            largeIntegers = slots.map { source[Int($0)] }
        }
    }

    /// Takes `values` (numbers or empty) for the next rows in place of the store's: a column
    /// worked out from the view's order.
    func take(_ values: [CellValue]) {
        numbers = values.map { if case .number(let number) = $0 { number } else { .nan } }
    }

    /// The cell as ``ColumnRules/displayText(_:)`` shows it without the column's style (a
    /// style's separators and date order would not load again), as a CSV field; empty cells are
    /// empty fields. Only text, image and picker values can hold a character that needs quotes
    /// (a decimal comma in a number would be quoted too); dates, times, durations and plain
    /// numbers are digits, signs, `.` `:` `e` `+`, unit letters and spaces.
    func writeCSV(row: Int, to writer: inout ExportWriter) {
        switch store.type {
        case .text, .image:
            let text = strings[row]
            if !text.isEmpty { writer.appendCSVField(text) }
        case .number:
            let number = numbers[row]
            guard !number.isNaN else { return }
            if let decimals = rules.decimals {
                writer.appendFixedNumberField(number, decimals: decimals)
            } else {
                writer.appendPlainNumber(number)
            }
        case .date:
            let days = smallIntegers[row]
            if days != .min { writer.appendDate(days) }
        case .time:
            let seconds = smallIntegers[row]
            if seconds != .min { writer.appendTime(seconds) }
        case .duration:
            let seconds = largeIntegers[row]
            if seconds != .min { writer.appendDuration(seconds) }
        case .picker:
            let option = smallIntegers[row]
            if option != .min, let text = pickerText(option) { writer.appendCSVField(text) }
        case .boolean:
            let value = smallIntegers[row]
            if value != .min { writer.append(string: value != 0 ? "true" : "false") }
        case .datetime:
            // The instant in UTC, as it loads again whatever the column's zone.
            let milliseconds = largeIntegers[row]
            if milliseconds != .min { writer.append(string: DateTimeSyntax.isoText(milliseconds)) }
        }
    }

    /// A date or time as a JSON string (digits, `-` and `:` only: nothing to escape), or `null`
    /// when empty.
    private static func writeQuoted(
        _ value: Int32,
        to writer: inout ExportWriter,
        _ write: (inout ExportWriter, Int32) -> Void
    ) {
        guard value != .min else { return writer.appendNull() }
        writer.append(UInt8(ascii: "\""))
        write(&writer, value)
        writer.append(UInt8(ascii: "\""))
    }

    /// The cell as an NDJSON member (after its key): `null` when empty, numbers (whatever
    /// their `decimals`) and durations (seconds) as JSON numbers, everything else as its
    /// display text in a JSON string (a picker choice outside the options as `""`).
    func writeJSON(row: Int, to writer: inout ExportWriter) {
        writer.append(jsonPrefix)
        switch store.type {
        case .text, .image:
            let text = strings[row]
            if text.isEmpty { writer.appendNull() } else { writer.appendJSONString(text) }
        case .number:
            let number = numbers[row]
            if number.isNaN { writer.appendNull() } else { writer.appendJSONNumber(number) }
        case .date: Self.writeQuoted(smallIntegers[row], to: &writer) { $0.appendDate($1) }
        case .time: Self.writeQuoted(smallIntegers[row], to: &writer) { $0.appendTime($1) }
        case .duration:
            let seconds = largeIntegers[row]
            if seconds == .min { writer.appendNull() } else { writer.appendInteger(seconds) }
        case .picker:
            let option = smallIntegers[row]
            guard option != .min else {
                writer.appendNull()
                return
            }
            writer.appendJSONString(pickerText(option) ?? "")
        case .boolean:
            let value = smallIntegers[row]
            writer.append(string: value == .min ? "null" : value != 0 ? "true" : "false")
        case .datetime:
            let milliseconds = largeIntegers[row]
            if milliseconds == .min {
                writer.appendNull()
            } else {
                writer.appendJSONString(DateTimeSyntax.isoText(milliseconds))
            }
        }
    }

    private func pickerText(_ option: Int32) -> String? {
        rules.options.indices.contains(Int(option)) ? rules.options[Int(option)] : nil
    }
}
