/// What one chunk of records turned into.
struct ChunkResult: Sendable {
    var stores: [ColumnStore]
    var lines: [Int] = []
    var problems: [CellProblem] = []
    var demoted: Set<Int> = []
    /// The fewest and most decimal places written, by column (inferred number columns only).
    var fractionDigits: [ClosedRange<Int>?] = []
    /// Inferred number columns with a value whose fraction ends in 0.
    var trailingZeros: Set<Int> = []

    init(plan: LoadPlan, capacity: Int) {
        fractionDigits = Array(repeating: nil, count: plan.columns.count)
        // Every slot a row may take, empty, so that a row only writes the values it has. A
        // coded text column's slots hold codes until the chunk is done.
        let interners: [TextInterner?] = plan.columns.indices.map {
            guard plan.columns[$0].type == .text, plan.interned?[$0] != false else { return nil }
            let expected = plan.expectedTexts.isEmpty ? 0 : min(capacity, plan.expectedTexts[$0])
            return TextInterner(expecting: expected)
        }
        stores = plan.columns.indices.map {
            interners[$0] != nil
                ? ColumnStore(type: .text) : ColumnStore(type: plan.columns[$0].type, emptySlots: capacity)
        }
        textCodes = interners.map { $0 != nil ? Array(repeating: 0, count: capacity) : [] }
        self.interners = interners
        filled = Array(repeating: false, count: plan.columns.count)
        self.capacity = capacity
        lines.reserveCapacity(capacity)
    }

    /// How many problems are kept: the first ones, by line (``keepFirstProblems()``).
    private var problemCap = Table.problemLimit
    /// Columns the current row has been given a value for.
    private var filled: [Bool]
    /// How many slots the stores have.
    private var capacity: Int
    /// By text column: each slot's code from the column's interner (empty for other columns).
    private var textCodes: [[UInt32]]
    /// By text column: its different texts so far (`nil` for other columns).
    private var interners: [TextInterner?]

    /// Starts the next row, all empty; returns its slot.
    mutating func beginRow(line: Int) -> UInt32 {
        let slot = UInt32(lines.count)
        lines.append(line)
        makeSlots(upTo: lines.count)
        for column in filled.indices { filled[column] = false }
        return slot
    }

    /// Leaves out the slots made for rows that were not read (refused ones); call once done.
    mutating func finish() {
        for column in stores.indices {
            if let interner = interners[column] {
                textCodes[column].removeSubrange(lines.count...)
                stores[column] = interner.store(codes: textCodes[column])!
                textCodes[column] = []
                interners[column] = nil
            } else {
                stores[column].removeSlots(from: lines.count)
                stores[column].narrowNumbers()
            }
        }
    }

    /// Ends the row: columns it left out must accept an empty value.
    mutating func endRow(slot: UInt32, line: Int, plan: LoadPlan) {
        for column in plan.requiredColumns where !filled[column] {
            store(.null, column: column, slot: slot, line: line, plan: plan)
        }
    }

    /// Stores the field `bytes`, which `column`'s ``FieldReading`` did not take, the general way.
    private mutating func storeDeclined(
        bytes: UnsafeBufferPointer<UInt8>,
        column: Int,
        slot: UInt32,
        line: Int,
        plan: LoadPlan
    ) {
        if bytes.isEmpty, !plan.columns[column].rules.required {
            // Empty, as the new row's slot already is.
            filled[column] = true
            return
        }
        store(.text(String(decoding: bytes, as: UTF8.self)), column: column, slot: slot, line: line, plan: plan)
    }

    mutating func store(_ input: CellInput, column: Int, slot: UInt32, line: Int, plan: LoadPlan) {
        filled[column] = true
        // An inferred column keeps its type only while every value comes back as written.
        if plan.checksWrittenForm[column], case .text(let text) = input, !text.isEmpty,
            text.allSatisfy(\.isWhitespace) || plan.countsDecimals[column] && !NumberText.isWrittenExactly(text)
        {
            demoted.insert(column)
            return
        }
        do throws(ValidationFailure) {
            let value = try plan.columns[column].rules.parse(input)
            if plan.comparesExportText[column], case .text(let text) = input, !text.isEmpty,
                LoadPlan.exportText(value, plan.columns[column].rules) != text
            {
                demoted.insert(column)
                return
            }
            if interners[column] != nil {
                textCodes[column][Int(slot)] =
                    if case .text(let text) = value { interners[column]!.code(of: text) } else { 0 }
            } else {
                stores[column][slot] = value
            }
            if plan.countsDecimals[column], case .text(let text) = input, !value.isEmpty {
                let places = Self.decimalPlaces(text)
                noteDecimalPlaces(places...places, column: column)
                if places > 0, text.utf8.last == UInt8(ascii: "0") { trailingZeros.insert(column) }
            }
        } catch {
            if plan.inferred.contains(column) {
                demoted.insert(column)
            } else if problems.count < problemCap {
                problems.append(
                    CellProblem(
                        line: line,
                        column: plan.columns[column].key,
                        input: input.draftText,
                        message: error.message
                    )
                )
            }
        }
    }

    /// Writes each of `fields` that `reading` takes into `values` at its row's slot (from
    /// `firstSlot`), and adds the rows of the others to `declined`.
    private static func read<Value>(
        _ fields: FieldColumn,
        into values: inout [Value],
        from firstSlot: Int,
        declined: inout [Int],
        _ reading: (UnsafeBufferPointer<UInt8>) -> Value?
    ) {
        values.withUnsafeMutableBufferPointer { values in
            for row in 0..<fields.count {
                if let value = reading(fields[row]) { values[firstSlot + row] = value } else { declined.append(row) }
            }
        }
    }

    /// Widens the decimal places seen in `column` to take in `places`.
    private mutating func noteDecimalPlaces(_ places: ClosedRange<Int>, column: Int) {
        fractionDigits[column] =
            fractionDigits[column].map { min($0.lowerBound, places.lowerBound)...max($0.upperBound, places.upperBound) }
            ?? places
    }

    /// The decimal places written in a number's text (`45.30` → 2); -1 for an exponent form,
    /// which never gives a column decimals.
    static func decimalPlaces(_ text: String) -> Int {
        var places = -1
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return -1
            case UInt8(ascii: "."): places = 0
            case UInt8(ascii: "0")...UInt8(ascii: "9"): if places >= 0 { places += 1 }
            default: break
            }
        }
        return max(0, places)
    }

    mutating func problem(line: Int, _ message: String) {
        if problems.count < problemCap {
            problems.append(CellProblem(line: line, column: "", input: "", message: message))
        }
    }

    // MARK: A block of rows, a column at a time

    /// Starts a row for each of `rowLines`, all empty; returns the first one's slot.
    mutating func beginRows(lines rowLines: [Int]) -> Int {
        let first = lines.count
        lines += rowLines
        makeSlots(upTo: lines.count)
        return first
    }

    /// Adds empty slots to every store until there are `count`.
    private mutating func makeSlots(upTo count: Int) {
        guard count > capacity else { return }
        for column in stores.indices {
            for _ in capacity..<count {
                if interners[column] != nil { textCodes[column].append(0) } else { stores[column].appendEmpty() }
            }
        }
        capacity = count
    }

    /// Problems of a block's rows are found a column at a time, so not in the order of their
    /// lines: until ``keepFirstProblems()`` ends the block, every one is kept, unless a block
    /// before it already found as many as are reported.
    mutating func beginBlockProblems() {
        problemCap = problems.count < Table.problemLimit ? .max : Table.problemLimit
    }

    /// Keeps the first problems by line (in the order they were found within one line: a row's
    /// columns from left to right), as many as are reported.
    mutating func keepFirstProblems() {
        problemCap = Table.problemLimit
        guard problems.count > Table.problemLimit else { return }
        problems = problems.enumerated()
            .sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }
            .prefix(Table.problemLimit)
            .map(\.element)
    }

    /// Stores `fields`, one for each of the rows at slots from `firstSlot` (whose lines are
    /// `rowLines`), in `column`: in one pass for the fields its ``FieldReading`` takes, through
    /// the typed store's memory, then the ones it declined (`declined` is scratch room).
    ///
    /// A coded column hashes the block's fields first, asking for each one's place in its
    /// interner's table to be brought into the cache, then looks them up: for a column of
    /// many different texts, most of those places miss the cache, and this way the misses wait
    /// together rather than one after another.
    mutating func storeColumn(
        _ column: Int,
        _ fields: FieldColumn,
        firstSlot: Int,
        lines rowLines: [Int],
        plan: LoadPlan,
        hashes: inout [UInt64],
        declined: inout [Int]
    ) {
        declined.removeAll(keepingCapacity: true)
        let count = fields.count
        switch plan.readings[column] {
        case .text:
            if var interner = interners[column] {
                interners[column] = nil
                if hashes.count < count { hashes = Array(repeating: 0, count: count) }
                hashes.withUnsafeMutableBufferPointer { hashes in
                    for row in 0..<count {
                        let bytes = fields[row]
                        guard !bytes.isEmpty else { continue }
                        let hash = interner.hash(bytes)
                        hashes[row] = hash
                        interner.prefetch(hash: hash)
                    }
                    textCodes[column].withUnsafeMutableBufferPointer { codes in
                        for row in 0..<count {
                            let bytes = fields[row]
                            if FieldBytes.startsVisible(bytes) {
                                codes[firstSlot + row] = interner.code(of: bytes, hash: hashes[row])
                            } else {
                                declined.append(row)
                            }
                        }
                    }
                }
                interners[column] = interner
            } else {
                var heapBytes = 0
                stores[column].strings.withUnsafeMutableBufferPointer { strings in
                    for row in 0..<count {
                        let bytes = fields[row]
                        if FieldBytes.startsVisible(bytes) {
                            let text = String(decoding: bytes, as: UTF8.self)
                            if bytes.count > 15 { heapBytes += ColumnStore.heapBytes(of: text) }
                            strings[firstSlot + row] = text
                        } else {
                            declined.append(row)
                        }
                    }
                }
                stores[column].textHeapBytes += heapBytes
            }
        case .number(let decimals):
            let countsDecimals = plan.countsDecimals[column]
            var fewest = Int.max
            var most = Int.min
            var trailingZero = false
            stores[column].numbers.withDoubles { numbers in
                for row in 0..<count {
                    let bytes = fields[row]
                    guard let (value, places) = FieldBytes.exactNumber(bytes), places <= decimals ?? places else {
                        declined.append(row)
                        continue
                    }
                    numbers[firstSlot + row] = value
                    if countsDecimals {
                        fewest = min(fewest, places)
                        most = max(most, places)
                        if places > 0, bytes[bytes.count - 1] == UInt8(ascii: "0") { trailingZero = true }
                    }
                }
            }
            if fewest <= most { noteDecimalPlaces(fewest...most, column: column) }
            if trailingZero { trailingZeros.insert(column) }
        case .isoDate:
            Self.read(
                fields,
                into: &stores[column].smallIntegers,
                from: firstSlot,
                declined: &declined,
                FieldBytes.isoDate
            )
        case .duration(let seconds):
            Self.read(
                fields,
                into: &stores[column].largeIntegers,
                from: firstSlot,
                declined: &declined,
                seconds ? FieldBytes.durationOrSeconds : FieldBytes.duration
            )
        case .general:
            declined.append(contentsOf: 0..<count)
        }
        for row in declined {
            storeDeclined(
                bytes: fields[row],
                column: column,
                slot: UInt32(firstSlot + row),
                line: rowLines[row],
                plan: plan
            )
        }
    }
}
