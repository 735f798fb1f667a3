import Foundation

/// Newline-delimited JSON: one object per line, members named by column key.
struct NDJSONInput: LoadInput {
    private let bytes: [UInt8]
    private let ranges: [Range<Int>]
    private let lines: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
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
        self.ranges = ranges
        self.lines = lines
    }

    var recordCount: Int { ranges.count }

    func plan(given columns: [Column]?) throws(TableError) -> LoadPlan {
        var keys: [String] = []
        var samples: [[String: String]] = []
        for record in 0..<min(ranges.count, TableLoader.sampleSize) {
            guard case .object(let members) = Self.object(bytes[ranges[record]]) else { continue }
            var sample: [String: String] = [:]
            for (key, value) in members {
                if !keys.contains(key) { keys.append(key) }
                if case .value(let input) = value { sample[key] = input.draftText }
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
            throw .invalidArgument("The NDJSON has no objects to take column names from.", field: "text")
        }
        // JSON objects have no member order, so inferred columns come in key order.
        return try LoadPlan.inferring(keys: keys.sorted(), samples: samples)
    }

    func parse(records: Range<Int>, plan: LoadPlan, progress: (Int) -> Void) -> ChunkResult {
        var result = ChunkResult(plan: plan, capacity: records.count)
        var tally = ProgressTally()
        for record in records {
            tally.count(progress)
            let line = lines[record]
            switch Self.object(bytes[ranges[record]]) {
            case .invalid(let message):
                result.problem(line: line, message)
            case .object(let members):
                if let unknown = members.keys.first(where: { plan.fieldColumns[$0] == nil }) {
                    result.problem(line: line, "There is no column \(unknown).")
                    continue
                }
                let slot = result.beginRow(line: line)
                for (key, value) in members {
                    let column = plan.fieldColumns[key]!
                    switch value {
                    case .value(let input): result.store(input, column: column, slot: slot, line: line, plan: plan)
                    case .unsupported(let kind):
                        result.problem(line: line, "\(key) is \(kind); give a string, a number or null.")
                    }
                }
                result.endRow(slot: slot, line: line, plan: plan)
            }
        }
        tally.flush(progress)
        return result
    }

    enum Member {
        case value(CellInput)
        case unsupported(String)
    }

    enum Record {
        case object([String: Member])
        case invalid(String)
    }

    static func object(_ bytes: ArraySlice<UInt8>) -> Record {
        guard let parsed = try? JSONSerialization.jsonObject(with: Data(bytes)) else {
            return .invalid("This line is not valid JSON.")
        }
        guard let members = parsed as? [String: Any] else { return .invalid("This line is not a JSON object.") }
        var record: [String: Member] = [:]
        for (key, value) in members {
            switch value {
            case is NSNull: record[key] = .value(.null)
            case let text as String: record[key] = .value(.text(text))
            case let number as NSNumber:
                // Booleans arrive as NSNumber too; their type code is "c".
                if String(cString: number.objCType) == "c" {
                    record[key] = .value(.boolean(number.boolValue))
                } else {
                    record[key] = .value(.number(number.doubleValue))
                }
            case is [Any]: record[key] = .unsupported("an array")
            default: record[key] = .unsupported("an object")
            }
        }
        return .object(record)
    }
}
