/// CSV text split into records; the first record is the header, which names the columns.
struct CSVInput: LoadInput {
    private let bytes: [UInt8]
    private let header: [String]
    /// The records' byte ranges and lines, the header's first (kept with it: not copied).
    private let ranges: [Range<Int>]
    private let lines: [Int]

    init(_ bytes: [UInt8]) throws(TableError) {
        let index = bytes.withUnsafeBufferPointer { RecordIndex($0) }
        if let line = index.unclosedQuoteLine {
            throw .invalidValues([
                CellProblem(
                    line: line,
                    column: "",
                    input: "",
                    message: "A quoted field starts here and is never closed."
                )
            ])
        }
        guard let first = index.ranges.first else {
            throw .invalidArgument("The CSV is empty; it needs a header row naming the columns.", field: "text")
        }
        self.bytes = bytes
        header = bytes.withUnsafeBufferPointer { CSVFields.strings($0, [first]).first ?? [] }
        ranges = index.ranges
        lines = index.lines
    }

    var recordCount: Int { ranges.count - 1 }

    func plan(given columns: [Column]?, locale: DisplayLocale?) throws(TableError) -> LoadPlan {
        let keys = header.map { $0.trimmingWhitespace }
        var plan: LoadPlan
        if let columns {
            plan = try LoadPlan.matching(keys: keys, columns: columns)
        } else {
            let rows = bytes.withUnsafeBufferPointer {
                CSVFields.strings($0, ranges.dropFirst().prefix(TableLoader.sampleSize))
            }
            let sample = rows.map { fields in
                Dictionary(zip(keys, fields), uniquingKeysWith: { first, _ in first })
            }
            plan = try LoadPlan.inferring(keys: keys, samples: sample, locale: locale)
        }
        markInternedColumns(of: &plan, keys: keys)
        return plan
    }

    /// Marks in `plan` the text columns whose values repeat, judged from records spread
    /// through the input (``DistinctEstimate``), with about how many different texts each has.
    private func markInternedColumns(of plan: inout LoadPlan, keys: [String]) {
        var interned = Array(repeating: false, count: plan.columns.count)
        var expected = Array(repeating: 0, count: plan.columns.count)
        defer {
            plan.interned = interned
            plan.expectedTexts = expected
        }
        let texts = keys.indices.filter { position in
            plan.fieldColumns[keys[position]].map { plan.columns[$0].type == .text } ?? false
        }
        guard !texts.isEmpty else { return }
        let sampled = DistinctEstimate.sampled(of: recordCount).map { ranges[$0 + 1] }
        let rows = bytes.withUnsafeBufferPointer { CSVFields.strings($0, sampled) }.filter { $0.count == keys.count }
        for position in texts {
            let column = plan.fieldColumns[keys[position]]!
            let estimate = DistinctEstimate.estimate(rows.map { $0[position] }, total: recordCount)
            interned[column] = DistinctEstimate.repeats(estimate: estimate, total: recordCount)
            expected[column] = Int(min(estimate, Double(recordCount)))
        }
    }

    /// Records split at a time, before their fields are stored.
    static let blockSize = 256

    /// Reads the records in blocks: a block's records are split first, then its fields are
    /// stored a column at a time (``ChunkResult/storeColumn(_:_:firstSlot:lines:plan:hashes:declined:)``),
    /// each column's reading chosen once for the block and its values written straight into
    /// the column's store.
    func parse(records: Range<Int>, plan: LoadPlan, progress: (Int) -> Void) -> ChunkResult {
        var result = ChunkResult(plan: plan, capacity: records.count)
        let filledColumns = header.indices.compactMap { position in
            plan.fieldColumns[header[position].trimmingWhitespace].map { (position: position, column: $0) }
        }
        // Required columns the header does not name: each row leaves them empty.
        let leftEmpty = plan.requiredColumns.filter { column in !filledColumns.contains { $0.column == column } }
        var tally = ProgressTally()
        var splitter = CSVFields()
        var firsts: [Int] = []
        var rowLines: [Int] = []
        var hashes: [UInt64] = []
        var declined: [Int] = []
        bytes.withUnsafeBufferPointer { bytes in
            for start in stride(from: records.lowerBound, to: records.upperBound, by: Self.blockSize) {
                splitter.clear()
                firsts.removeAll(keepingCapacity: true)
                rowLines.removeAll(keepingCapacity: true)
                result.beginBlockProblems()
                for record in start..<min(records.upperBound, start + Self.blockSize) {
                    tally.count(progress)
                    let first = splitter.fields.count
                    splitter.splitMore(bytes, ranges[record + 1])
                    let count = splitter.fields.count - first
                    guard count == header.count else {
                        result.problem(
                            line: lines[record + 1],
                            "This row has \(count) field\(count == 1 ? "" : "s"); the header has \(header.count)."
                        )
                        continue
                    }
                    firsts.append(first)
                    rowLines.append(lines[record + 1])
                }
                let firstSlot = result.beginRows(lines: rowLines)
                splitter.withColumns(in: bytes, rows: firsts) { fields in
                    for (position, column) in filledColumns {
                        result.storeColumn(
                            column,
                            fields(position),
                            firstSlot: firstSlot,
                            lines: rowLines,
                            plan: plan,
                            hashes: &hashes,
                            declined: &declined
                        )
                    }
                }
                for (offset, line) in rowLines.enumerated() {
                    for column in leftEmpty {
                        result.store(.null, column: column, slot: UInt32(firstSlot + offset), line: line, plan: plan)
                    }
                }
                result.keepFirstProblems()
            }
        }
        tally.flush(progress)
        return result
    }
}
