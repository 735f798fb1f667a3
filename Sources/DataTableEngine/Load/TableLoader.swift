import Foundation
import Synchronization

/// Reads CSV, NDJSON or JSON text into ``LoadedRows``: for the columns given, or for columns whose
/// types are inferred from the first rows. Bad rows are reported by line and nothing is loaded.
///
/// Large inputs are split at record boundaries and parsed on every core.
public enum TableLoader {
    /// Rows looked at to infer column types.
    static let sampleSize = 1000
    /// Rows per progress report.
    static let progressStep = 100_000

    /// Parses `text`. `columns` are the table's columns when loading into one; `nil` infers them,
    /// with `locale` telling day-first from month-first dates (`01/02/2024`) that the values
    /// alone do not. `progress` is called now and then with rows parsed so far and rows in all.
    public static func parse(
        _ text: String,
        format: DataFormat,
        columns: [Column]?,
        locale: DisplayLocale? = nil,
        progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws(TableError) -> LoadedRows {
        try parse(bytes: Array(text.utf8), format: format, columns: columns, locale: locale, progress: progress)
    }

    /// ``parse(_:format:columns:locale:progress:)`` for text given as its UTF-8 bytes, which
    /// must be valid (``UTF8Check``).
    public static func parse(
        bytes: [UInt8],
        format: DataFormat,
        columns: [Column]?,
        locale: DisplayLocale? = nil,
        progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws(TableError) -> LoadedRows {
        var bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let input: any LoadInput
        switch format {
        case .csv: input = try CSVInput(bytes)
        case .ndjson: input = try JSONInput(bytes, layout: .lines)
        case .json: input = try JSONInput(bytes, layout: .array)
        }
        var plan = try input.plan(given: columns, locale: locale)
        while true {
            var outcome = parseChunks(input, plan: plan, progress: progress)
            outcome.demoted.formUnion(plan.unreadable(outcome))
            if outcome.demoted.isEmpty || plan.inferred.isEmpty {
                if !outcome.problems.isEmpty {
                    throw .invalidValues(Array(outcome.problems.prefix(Table.problemLimit)))
                }
                plan.inferDecimals(outcome.fractionDigits)
                return LoadedRows(
                    columns: plan.columns,
                    chunks: outcome.chunks,
                    lines: outcome.lines,
                    dateForms: Dictionary(uniqueKeysWithValues: plan.dateForms.map { (plan.columns[$0].key, $1) })
                )
            }
            // A later row did not fit an inferred type: read that column as text.
            for column in outcome.demoted { plan.demote(column) }
        }
    }

    struct Outcome {
        var chunks: [[ColumnStore]] = []
        var lines: [Int] = []
        var problems: [CellProblem] = []
        var demoted: Set<Int> = []
        /// The fewest and most decimal places written, by inferred number column.
        var fractionDigits: [Int: ClosedRange<Int>] = [:]
        /// Inferred number columns with a value whose fraction ends in 0 (`1.50`).
        var trailingZeros: Set<Int> = []
    }

    private static func parseChunks(
        _ input: any LoadInput,
        plan: LoadPlan,
        progress: @escaping @Sendable (Int, Int) -> Void
    ) -> Outcome {
        let total = input.recordCount
        let chunkCount = max(1, min(ProcessInfo.processInfo.activeProcessorCount, total / 10_000))
        let bounds = (0...chunkCount).map { $0 * total / chunkCount }
        let done = Atomic(0)
        let parsed = ConcurrentPieces.map(chunkCount) { chunk in
            var result = input.parse(records: bounds[chunk]..<bounds[chunk + 1], plan: plan) { rows in
                let now = done.add(rows, ordering: .relaxed).newValue
                progress(now, total)
            }
            result.finish()
            return result
        }
        var outcome = Outcome()
        for result in parsed {
            outcome.chunks.append(result.stores)
            outcome.lines += result.lines
            outcome.problems += result.problems
            outcome.demoted.formUnion(result.demoted)
            outcome.trailingZeros.formUnion(result.trailingZeros)
            for case (let column, let places?) in result.fractionDigits.enumerated() {
                let seen = outcome.fractionDigits[column]
                outcome.fractionDigits[column] =
                    seen.map { min($0.lowerBound, places.lowerBound)...max($0.upperBound, places.upperBound) } ?? places
            }
        }
        outcome.problems.sort { ($0.line ?? 0) < ($1.line ?? 0) }
        return outcome
    }
}

/// Which input field feeds which column, and which columns had their types inferred.
struct LoadPlan: Sendable {
    var columns: [Column]
    /// For each input field (CSV header position or NDJSON member), the column it fills.
    var fieldColumns: [String: Int]
    /// Input fields naming computed columns: passed over (their values come from the
    /// expression), so that a table's export loads back into it.
    var computedFields: Set<String> = []
    var inferred: Set<Int> {
        didSet { setChecks() }
    }
    /// By column: an inferred number column, whose values' decimal places are counted.
    private(set) var countsDecimals: [Bool] = []
    /// By column: an inferred column of a type other than text, whose values must each be
    /// written as the type writes them back.
    private(set) var checksWrittenForm: [Bool] = []
    /// By column: an inferred date, time, duration or boolean column (``writesBack(_:)``).
    private(set) var comparesExportText: [Bool] = []
    /// Inferred date columns written in a form other than ISO's, by column.
    var dateForms: [Int: DateForm] = [:]
    /// By column: how its fields can be read from their bytes.
    private(set) var readings: [FieldReading] = []
    /// The columns that require a value, which a row must not leave out.
    private(set) var requiredColumns: [Int] = []
    /// By column: a text column whose texts are coded as they are read (``TextInterner``);
    /// `nil`: every text column.
    var interned: [Bool]?
    /// By column: about how many different texts a coded text column holds (empty: unknown).
    var expectedTexts: [Int] = []

    init(columns: [Column], fieldColumns: [String: Int], inferred: Set<Int>) {
        self.columns = columns
        self.fieldColumns = fieldColumns
        self.inferred = inferred
        setChecks()
    }

    /// The per-column flags the row loop reads, from which columns are inferred and their types.
    private mutating func setChecks() {
        let types = columns.indices.map { inferred.contains($0) ? columns[$0].type : nil }
        countsDecimals = types.map { $0 == .number }
        checksWrittenForm = types.map { $0 != nil && $0 != .text }
        comparesExportText = types.map { $0.map(Self.writesBack) ?? false }
        readings = columns.indices.map { FieldReading(columns[$0].rules, inferred: inferred.contains($0)) }
        requiredColumns = columns.indices.filter { columns[$0].rules.required }
    }

    mutating func demote(_ column: Int) {
        let old = columns[column]
        columns[column] = Column(key: old.key, label: old.label, rules: try! ColumnRules(type: .text))
        inferred.remove(column)
        dateForms[column] = nil
    }

    /// The inferred number columns whose values could not all be written back as they came:
    /// one ends in a 0 after the point (`1.50`) and they do not all have the same decimal
    /// places (1 to 12), which ``inferDecimals(_:)`` would make the column's.
    func unreadable(_ outcome: TableLoader.Outcome) -> Set<Int> {
        outcome.trailingZeros.filter { column in
            guard inferred.contains(column), let places = outcome.fractionDigits[column] else { return false }
            return places.lowerBound != places.upperBound || !(1...12).contains(places.lowerBound)
        }
    }

    /// Gives each inferred number column whose values all have the same decimal places (1 to
    /// 12: `57.00`, `45.30`) that many `decimals`, so they show as written.
    mutating func inferDecimals(_ fractionDigits: [Int: ClosedRange<Int>]) {
        for (column, places) in fractionDigits where places.lowerBound == places.upperBound {
            guard inferred.contains(column), (1...12).contains(places.lowerBound) else { continue }
            let old = columns[column]
            columns[column] = Column(
                key: old.key,
                label: old.label,
                rules: try! ColumnRules(type: .number, decimals: places.lowerBound)
            )
        }
    }

    /// Columns for `keys` with types that fit every sampled value; dates in one of the forms of
    /// ``DateForm`` (day or month first told apart by `locale` when the values cannot).
    static func inferring(
        keys: [String],
        samples: [[String: String]],
        locale: DisplayLocale?
    ) throws(TableError) -> LoadPlan {
        var columns: [Column] = []
        var fieldColumns: [String: Int] = [:]
        var dateForms: [Int: DateForm] = [:]
        for (index, key) in keys.enumerated() {
            guard !key.isEmpty, !key.hasPrefix("$") else {
                throw .invalidArgument(
                    "Column \(index + 1) of the header is empty or starts with $; name every column.",
                    field: "text"
                )
            }
            guard fieldColumns[key] == nil else {
                throw .invalidArgument("The header names the column \(key) twice.", field: "text")
            }
            fieldColumns[key] = index
            let values = samples.compactMap { $0[key] }.filter { !$0.isEmpty }
            // Spaces alone are text a person wrote, which only a text column keeps.
            let type = values.contains { $0.allSatisfy(\.isWhitespace) } ? ColumnType.text : inferType(values)
            if type == .text, let form = DateForm.common(to: values, locale: locale) {
                dateForms[index] = form
                let style = DisplayStyle(locale: form.locale)
                columns.append(Column(key: key, rules: try! ColumnRules(type: .date, style: style)))
                continue
            }
            columns.append(Column(key: key, rules: try! ColumnRules(type: type)))
        }
        var plan = LoadPlan(columns: columns, fieldColumns: fieldColumns, inferred: Set(columns.indices))
        plan.dateForms = dateForms
        return plan
    }

    /// The narrowest type every value parses as and is written back as, unchanged: number
    /// (no leading zeros, sign, spaces or exponent, at most 15 significant digits), date
    /// (`2024-03-15`), datetime (ISO 8601), time (`09:30`), duration (`1h 30m`), boolean
    /// (`true`, `false`), else text. So `09929` stays text, not the number 9929 or a duration.
    static func inferType(_ values: [String]) -> ColumnType {
        guard !values.isEmpty else { return .text }
        for type in [ColumnType.number, .date, .datetime, .time, .duration, .boolean] {
            if type == .number, !values.allSatisfy(NumberText.isWrittenExactly) { continue }
            let rules = try! ColumnRules(type: type)
            if values.allSatisfy({ value in
                guard let parsed = try? rules.parse(.text(value)) else { return false }
                return !writesBack(type) || exportText(parsed, rules) == value
            }) {
                return type
            }
        }
        return .text
    }

    /// The text an export writes for a date, time, duration or boolean value.
    static func exportText(_ value: CellValue, _ rules: ColumnRules) -> String {
        if case .boolean(let truth) = value { return truth ? "true" : "false" }
        return rules.displayText(value)
    }

    /// Whether an inferred column of `type` is kept only when each value is written back as it
    /// came (``exportText(_:_:)``). A datetime is written back in one form of the many ISO 8601
    /// has, and a number is checked by its text alone.
    static func writesBack(_ type: ColumnType) -> Bool {
        switch type {
        case .date, .time, .duration, .boolean: true
        default: false
        }
    }

    /// The plan for loading into existing `columns`: every input field must name one.
    static func matching(keys: [String], columns: [Column]) throws(TableError) -> LoadPlan {
        var fieldColumns: [String: Int] = [:]
        var computedFields: Set<String> = []
        for key in keys {
            if let index = columns.firstIndex(where: { $0.key == key || $0.label == key }), columns[index].isComputed {
                computedFields.insert(key)
                continue
            }
            guard let index = columns.firstIndex(where: { $0.key == key || $0.label == key }) else {
                throw .invalidArgument(
                    "The data has a column \(key), which the table does not have (its columns: "
                        + columns.map(\.key).joined(separator: ", ") + ").",
                    field: "columns"
                )
            }
            fieldColumns[key] = index
        }
        var plan = LoadPlan(columns: columns, fieldColumns: fieldColumns, inferred: [])
        plan.computedFields = computedFields
        return plan
    }
}

/// A parsed input that can be read in chunks of records.
protocol LoadInput: Sendable {
    var recordCount: Int { get }
    func plan(given columns: [Column]?, locale: DisplayLocale?) throws(TableError) -> LoadPlan
    func parse(records: Range<Int>, plan: LoadPlan, progress: (Int) -> Void) -> ChunkResult
}
