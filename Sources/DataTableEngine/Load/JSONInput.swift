/// JSON rows: newline-delimited objects (NDJSON, one a line), or one array of objects (a JSON
/// file as most programs write it), members named by column key. Inferred columns come in the
/// order their keys are first written: the first object's order, then keys later objects add.
struct JSONInput: LoadInput {
    /// How the objects are laid out.
    enum Layout {
        /// One object a line.
        case lines
        /// The elements of one array.
        case array
    }

    private let bytes: [UInt8]
    private let layout: Layout
    private let ranges: [Range<Int>]
    private let lines: [Int]

    init(_ bytes: [UInt8], layout: Layout) throws(TableError) {
        self.bytes = bytes
        self.layout = layout
        switch layout {
        case .lines: (ranges, lines) = Self.lineRanges(bytes)
        case .array: (ranges, lines) = try Self.elementRanges(bytes)
        }
    }

    var recordCount: Int { ranges.count }

    /// The lines that hold more than spaces.
    private static func lineRanges(_ bytes: [UInt8]) -> ([Range<Int>], [Int]) {
        var ranges: [Range<Int>] = []
        var lines: [Int] = []
        var start = 0
        var line = 1
        for index in 0...bytes.count {
            guard index == bytes.count || bytes[index] == UInt8(ascii: "\n") else { continue }
            if bytes[start..<index].contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
                ranges.append(start..<index)
                lines.append(line)
            }
            start = index + 1
            line += 1
        }
        return (ranges, lines)
    }

    /// The elements of the array that is the whole text, each with the line it starts on. Only
    /// the array's own structure is read here (strings and brackets, for where an element ends);
    /// each element is read in full when its chunk is parsed.
    private static func elementRanges(_ bytes: [UInt8]) throws(TableError) -> ([Range<Int>], [Int]) {
        var ranges: [Range<Int>] = []
        var lines: [Int] = []
        var line = 1
        var position = 0
        func problem(_ message: String) -> TableError {
            .invalidValues([CellProblem(line: line, column: "", input: "", message: message)])
        }
        func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x0A:
                    line += 1
                    position += 1
                case 0x20, 0x09, 0x0D: position += 1
                default: return
                }
            }
        }
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "[") else {
            throw problem("A JSON file of rows is one array of objects: [{\"item\":\"Bolt\"}, …].")
        }
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                skipWhitespace()
                let start = position
                let startLine = line
                // To the end of the element: a comma or the closing bracket outside any string,
                // object or array of its own.
                var depth = 0
                var inString = false
                var escaped = false
                while position < bytes.count {
                    let byte = bytes[position]
                    if byte == 0x0A { line += 1 }
                    if inString {
                        if escaped {
                            escaped = false
                        } else if byte == UInt8(ascii: "\\") {
                            escaped = true
                        } else if byte == UInt8(ascii: "\"") {
                            inString = false
                        }
                    } else if byte == UInt8(ascii: "\"") {
                        inString = true
                    } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                        depth += 1
                    } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                        if depth == 0 { break }
                        depth -= 1
                    } else if byte == UInt8(ascii: ","), depth == 0 {
                        break
                    }
                    position += 1
                }
                guard position < bytes.count else {
                    throw problem("The array that starts the file is never closed with ].")
                }
                ranges.append(start..<position)
                lines.append(startLine)
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == UInt8(ascii: "]") else {
                    throw problem("A } here closes nothing the array opened.")
                }
                position += 1
                break
            }
        }
        skipWhitespace()
        guard position == bytes.count else {
            throw problem("Only one array of objects may be in the file; more text follows it here.")
        }
        return (ranges, lines)
    }

    /// What one record is called in messages.
    private var recordName: String { layout == .lines ? "line" : "element of the array" }

    func plan(given columns: [Column]?, locale: DisplayLocale?) throws(TableError) -> LoadPlan {
        var keys: [String] = []
        var seen: Set<String> = []
        var samples: [[String: String]] = []
        for record in 0..<min(ranges.count, TableLoader.sampleSize) {
            guard let members = try? JSONObjectReader.members(of: bytes[ranges[record]]) else { continue }
            var sample: [String: String] = [:]
            for (key, value) in members {
                if seen.insert(key).inserted { keys.append(key) }
                switch value {
                case .value(let input): sample[key] = input.draftText
                case .number(let literal): sample[key] = literal
                case .unsupported: break
                }
            }
            samples.append(sample)
        }
        if let columns {
            return LoadPlan(
                columns: columns,
                fieldColumns: Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.key, $0) }),
                inferred: []
            )
        }
        guard !keys.isEmpty else {
            throw .invalidArgument(
                "The \(layout == .lines ? "NDJSON" : "JSON") has no objects to take column names from.",
                field: "text"
            )
        }
        return try LoadPlan.inferring(keys: keys, samples: samples, locale: locale)
    }

    /// A JSON number for `column`: its text as written for a text column and for an inferred
    /// number column (whose values are checked as written), else the number (a duration's
    /// seconds, a datetime's instant, a number column's value).
    static func input(_ literal: String, for column: Int, _ plan: LoadPlan) -> CellInput {
        if plan.columns[column].type == .text || plan.countsDecimals[column] { return .text(literal) }
        return .number(Double(literal) ?? .infinity)
    }

    func parse(records: Range<Int>, plan: LoadPlan, progress: (Int) -> Void) -> ChunkResult {
        var result = ChunkResult(plan: plan, capacity: records.count)
        var tally = ProgressTally()
        for record in records {
            tally.count(progress)
            let line = lines[record]
            let members: [(key: String, value: JSONObjectReader.Member)]
            do {
                members = try JSONObjectReader.members(of: bytes[ranges[record]])
            } catch .notAnObject {
                result.problem(line: line, "This \(recordName) is not a JSON object.")
                continue
            } catch {
                result.problem(line: line, "This \(recordName) is not valid JSON.")
                continue
            }
            if let unknown = members.first(where: {
                plan.fieldColumns[$0.key] == nil && !plan.computedFields.contains($0.key)
            }) {
                result.problem(line: line, "There is no column \(unknown.key).")
                continue
            }
            let slot = result.beginRow(line: line)
            for (key, value) in members {
                guard let column = plan.fieldColumns[key] else { continue }
                switch value {
                case .value(let input): result.store(input, column: column, slot: slot, line: line, plan: plan)
                case .number(let literal):
                    result.store(
                        Self.input(literal, for: column, plan),
                        column: column,
                        slot: slot,
                        line: line,
                        plan: plan
                    )
                case .unsupported(let kind):
                    result.problem(line: line, "\(key) is \(kind); give a string, a number or null.")
                }
            }
            result.endRow(slot: slot, line: line, plan: plan)
        }
        tally.flush(progress)
        return result
    }
}
