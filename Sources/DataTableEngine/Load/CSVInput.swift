/// CSV text split into records; the first record is the header, which names the columns.
struct CSVInput: LoadInput {
    private let bytes: [UInt8]
    private let header: [String]
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
        ranges = Array(index.ranges.dropFirst())
        lines = Array(index.lines.dropFirst())
    }

    var recordCount: Int { ranges.count }

    func plan(given columns: [Column]?, locale: DisplayLocale?) throws(TableError) -> LoadPlan {
        let keys = header.map { $0.trimmingWhitespace }
        var plan: LoadPlan
        if let columns {
            plan = try LoadPlan.matching(keys: keys, columns: columns)
        } else {
            let rows = bytes.withUnsafeBufferPointer { CSVFields.strings($0, ranges.prefix(TableLoader.sampleSize)) }
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
        let sampled = DistinctEstimate.sampled(of: ranges.count).map { ranges[$0] }
        let rows = bytes.withUnsafeBufferPointer { CSVFields.strings($0, sampled) }.filter { $0.count == keys.count }
        for position in texts {
            let column = plan.fieldColumns[keys[position]]!
            let estimate = DistinctEstimate.estimate(rows.map { $0[position] }, total: ranges.count)
            interned[column] = DistinctEstimate.repeats(estimate: estimate, total: ranges.count)
            expected[column] = Int(min(estimate, Double(ranges.count)))
        }
    }

    func parse(records: Range<Int>, plan: LoadPlan, progress: (Int) -> Void) -> ChunkResult {
        var result = ChunkResult(plan: plan, capacity: records.count)
        let positions = header.map { plan.fieldColumns[$0.trimmingWhitespace] }
        var tally = ProgressTally()
        var splitter = CSVFields()
        bytes.withUnsafeBufferPointer { bytes in
            for record in records {
                tally.count(progress)
                let line = lines[record]
                splitter.split(bytes, ranges[record])
                let fields = splitter.fields
                if fields.count != header.count {
                    result.problem(
                        line: line,
                        "This row has \(fields.count) field\(fields.count == 1 ? "" : "s"); the header has \(header.count)."
                    )
                    continue
                }
                let slot = result.beginRow(line: line)
                for (position, field) in fields.enumerated() {
                    guard let column = positions[position] else { continue }
                    splitter.withBytes(of: field, in: bytes) { fieldBytes in
                        result.store(bytes: fieldBytes, column: column, slot: slot, line: line, plan: plan)
                    }
                }
                result.endRow(slot: slot, line: line, plan: plan)
            }
        }
        tally.flush(progress)
        return result
    }
}
