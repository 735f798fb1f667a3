import CSV

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
        header = Self.fields(bytes, [first]).first ?? []
        ranges = Array(index.ranges.dropFirst())
        lines = Array(index.lines.dropFirst())
    }

    var recordCount: Int { ranges.count }

    func plan(given columns: [Column]?, locale: DisplayLocale?) throws(TableError) -> LoadPlan {
        let keys = header.map { $0.trimmingWhitespace }
        if let columns { return try LoadPlan.matching(keys: keys, columns: columns) }
        let sample = Self.fields(bytes, Array(ranges.prefix(TableLoader.sampleSize))).map { fields in
            Dictionary(zip(keys, fields), uniquingKeysWith: { first, _ in first })
        }
        return try LoadPlan.inferring(keys: keys, samples: sample, locale: locale)
    }

    func parse(records: Range<Int>, plan: LoadPlan, progress: (Int) -> Void) -> ChunkResult {
        var result = ChunkResult(plan: plan, capacity: records.count)
        let positions = header.map { plan.fieldColumns[$0.trimmingWhitespace] }
        var tally = ProgressTally()
        var record = records.lowerBound
        Self.forEachRecord(bytes, Array(ranges[records])) { fields in
            // One record per range: the index ends lines where the parser does.
            guard record < records.upperBound else { return }
            tally.count(progress)
            let line = lines[record]
            record += 1
            if fields.count != header.count {
                result.problem(
                    line: line,
                    "This row has \(fields.count) field\(fields.count == 1 ? "" : "s"); the header has \(header.count)."
                )
                return
            }
            let slot = result.beginRow(line: line)
            for (position, field) in fields.enumerated() {
                guard let column = positions[position] else { continue }
                result.store(.text(field), column: column, slot: slot, line: line, plan: plan)
            }
            result.endRow(slot: slot, line: line, plan: plan)
        }
        tally.flush(progress)
        return result
    }

    /// The fields of the records in `ranges`, parsed by the CSV library.
    private static func fields(_ bytes: [UInt8], _ ranges: [Range<Int>]) -> [[String]] {
        var rows: [[String]] = []
        forEachRecord(bytes, ranges) { rows.append($0) }
        return rows
    }

    /// Calls `body` with each record's fields. The records are handed to the parser as one text
    /// joined by line feeds, so blank lines are already gone and every row is one record.
    private static func forEachRecord(_ bytes: [UInt8], _ ranges: [Range<Int>], _ body: ([String]) -> Void) {
        guard !ranges.isEmpty else { return }
        var joined: [UInt8] = []
        joined.reserveCapacity(ranges.reduce(0) { $0 + $1.count + 1 })
        for range in ranges {
            joined.append(contentsOf: bytes[range])
            joined.append(UInt8(ascii: "\n"))
        }
        guard let reader = try? CSVReader(string: String(decoding: joined, as: UTF8.self)) else { return }
        while let row = reader.next() { body(row) }
    }
}
