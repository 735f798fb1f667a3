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
    /// How many records ahead a coded column's field is looked up in the cache
    /// (``ChunkResult/prefetch(_:column:)``).
    static let lookahead = 4

    /// Reads the records in blocks: a block's records are split first, so that while one
    /// record's fields are stored, the coded texts of one a few records on are already on their
    /// way into the cache (a lookup at random in a table of 200,000 texts misses it otherwise).
    func parse(records: Range<Int>, plan: LoadPlan, progress: (Int) -> Void) -> ChunkResult {
        var result = ChunkResult(plan: plan, capacity: records.count)
        let positions = header.map { plan.fieldColumns[$0.trimmingWhitespace] }
        let coded = positions.indices.compactMap { position in
            positions[position].flatMap { result.codes($0) ? (position, $0) : nil }
        }
        var tally = ProgressTally()
        var splitter = CSVFields()
        var firsts: [Int] = []
        bytes.withUnsafeBufferPointer { bytes in
            for start in stride(from: records.lowerBound, to: records.upperBound, by: Self.blockSize) {
                let block = start..<min(records.upperBound, start + Self.blockSize)
                splitter.clear()
                firsts.removeAll(keepingCapacity: true)
                for record in block {
                    firsts.append(splitter.fields.count)
                    splitter.splitMore(bytes, ranges[record + 1])
                }
                firsts.append(splitter.fields.count)
                for (offset, record) in block.enumerated() {
                    let later = offset + Self.lookahead
                    if !coded.isEmpty, later < block.count, firsts[later + 1] - firsts[later] == header.count {
                        for (position, column) in coded {
                            splitter.withBytes(of: splitter.fields[firsts[later] + position], in: bytes) {
                                result.prefetch($0, column: column)
                            }
                        }
                    }
                    tally.count(progress)
                    let line = lines[record + 1]
                    let count = firsts[offset + 1] - firsts[offset]
                    if count != header.count {
                        result.problem(
                            line: line,
                            "This row has \(count) field\(count == 1 ? "" : "s"); the header has \(header.count)."
                        )
                        continue
                    }
                    let slot = result.beginRow(line: line)
                    for position in 0..<count {
                        guard let column = positions[position] else { continue }
                        splitter.withBytes(of: splitter.fields[firsts[offset] + position], in: bytes) { fieldBytes in
                            result.store(bytes: fieldBytes, column: column, slot: slot, line: line, plan: plan)
                        }
                    }
                    result.endRow(slot: slot, line: line, plan: plan)
                }
            }
        }
        tally.flush(progress)
        return result
    }
}
