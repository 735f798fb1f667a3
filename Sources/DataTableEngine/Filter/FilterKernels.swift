import Synchronization

/// Conditions worked out a column at a time: a number or text condition reads its column's
/// array straight, 64 slots to a word of bits, with no cell made and no reference counted per
/// row. ``RowFilter/admit(_:into:of:)`` uses them for the terms that have one and asks the
/// others row by row.
extension FilterCondition {
    /// Clears the bits of the slots in `words` (64 slots a word, slot = 64 × word + bit; those
    /// past `slotCount` are never set) whose cell this condition refuses. `false`, having done
    /// nothing, when the condition has no such form for its column.
    func refuse(
        in store: ColumnStore,
        words: Range<Int>,
        slotCount: Int,
        bits: UnsafeMutableBufferPointer<UInt64>,
        outcomes: CodedOutcomes? = nil
    ) -> Bool {
        switch store.type {
        case .number:
            if let (low, high) = numberRange() {
                // A range, tested inline: no call a row. (NaN, an empty cell, is in none.)
                func keep<Number: StoredNumber>(_ numbers: [Number]) {
                    numbers.withUnsafeBufferPointer { numbers in
                        Self.keep(words, slotCount: slotCount, bits: bits) {
                            let number = numbers[$0].storedNumber
                            return number >= low && number <= high
                        }
                    }
                }
                switch store.numbers.storage {
                case .int16(let numbers): keep(numbers)
                case .int32(let numbers): keep(numbers)
                case .double(let numbers): keep(numbers)
                }
                return true
            }
            guard let test = numberTest() else { return false }
            func keep<Number: StoredNumber>(_ numbers: [Number]) {
                numbers.withUnsafeBufferPointer { numbers in
                    Self.keep(words, slotCount: slotCount, bits: bits) { test(numbers[$0].storedNumber) }
                }
            }
            switch store.numbers.storage {
            case .int16(let numbers): keep(numbers)
            case .int32(let numbers): keep(numbers)
            case .double(let numbers): keep(numbers)
            }
            return true
        case .text:
            guard let test = textTest() else { return false }
            if store.isCoded {
                let dictionary = store.dictionary
                // Each different text is tested once (once for every piece of the rows, with
                // `outcomes`); a slot's code says how it came out.
                func tested() -> [Bool] {
                    (0..<dictionary.codeCount).map { test(dictionary.text(of: $0)) }
                }
                let passes = outcomes?.passes(of: self, make: tested) ?? tested()
                func keep<Code: FixedWidthInteger>(_ codes: [Code]) {
                    codes.withUnsafeBufferPointer { codes in
                        Self.keep(words, slotCount: slotCount, bits: bits) { passes[Int(codes[$0])] }
                    }
                }
                switch store.codes.storage {
                case .one(let codes): keep(codes)
                case .two(let codes): keep(codes)
                case .four(let codes): keep(codes)
                }
                return true
            }
            store.strings.withUnsafeBufferPointer { strings in
                Self.keep(words, slotCount: slotCount, bits: bits) { test(strings[$0]) }
            }
            return true
        default:
            return false
        }
    }

    /// Keeps the bits of `words` whose slot passes `test`.
    @inline(__always)
    private static func keep(
        _ words: Range<Int>,
        slotCount: Int,
        bits: UnsafeMutableBufferPointer<UInt64>,
        _ test: (Int) -> Bool
    ) {
        for word in words where bits[word] != 0 {
            let first = word << 6
            var passing: UInt64 = 0
            for bit in 0..<min(64, slotCount - first) where test(first + bit) {
                passing |= 1 << UInt64(bit)
            }
            bits[word] &= passing
        }
    }

    /// The closed range of numbers this condition admits, when it is one: `<` and `>` as the
    /// next double inward, "not empty" as every number; `nil` for any other condition.
    private func numberRange() -> (low: Double, high: Double)? {
        var values: [Double] = []
        for operand in operands {
            guard case .number(let value) = operand, value.isFinite else { return nil }
            values.append(value)
        }
        switch self.operator {
        case .notEmpty where values.isEmpty: return (-.infinity, .infinity)
        case .equal where values.count == 1: return (values[0], values[0])
        case .less where values.count == 1: return (-.infinity, values[0].nextDown)
        case .lessOrEqual where values.count == 1: return (-.infinity, values[0])
        case .greater where values.count == 1: return (values[0].nextUp, .infinity)
        case .greaterOrEqual where values.count == 1: return (values[0], .infinity)
        case .between where values.count == 2: return (values[0], values[1])
        default: return nil
        }
    }

    /// The test of a stored number (NaN: empty) this condition makes, as ``admits(_:table:)``
    /// decides it; `nil` for an operator or operands it has no such test for.
    private func numberTest() -> ((Double) -> Bool)? {
        var values: [Double] = []
        for operand in operands {
            guard case .number(let value) = operand else { return nil }
            values.append(value)
        }
        // Comparisons with NaN are false: an empty cell meets none of these.
        switch self.operator {
        case .empty: return { $0.isNaN }
        case .notEmpty: return { !$0.isNaN }
        case .equal where values.count == 1: return { [value = values[0]] in $0 == value }
        case .notEqual where values.count == 1: return { [value = values[0]] in $0.isNaN || $0 != value }
        case .less where values.count == 1: return { [value = values[0]] in $0 < value }
        case .lessOrEqual where values.count == 1: return { [value = values[0]] in $0 <= value }
        case .greater where values.count == 1: return { [value = values[0]] in $0 > value }
        case .greaterOrEqual where values.count == 1: return { [value = values[0]] in $0 >= value }
        case .between where values.count == 2: return { [low = values[0], high = values[1]] in $0 >= low && $0 <= high }
        case .oneOf where !values.isEmpty: return { values.contains($0) }
        default: return nil
        }
    }

    /// The test of a stored text ("": empty) this condition makes for equality, as
    /// ``admits(_:table:)`` decides it (the same bytes); `nil` for other operators.
    private func textTest() -> ((String) -> Bool)? {
        var values: [String] = []
        for operand in operands {
            guard case .text(let value) = operand, !value.isEmpty else { return nil }
            values.append(value)
        }
        switch self.operator {
        case .empty: return { $0.isEmpty }
        case .notEmpty: return { !$0.isEmpty }
        case .equal where values.count == 1: return { [value = values[0]] in $0 == value }
        case .notEqual where values.count == 1: return { [value = values[0]] in $0 != value }
        case .oneOf where !values.isEmpty: return { values.contains($0) }
        default: return nil
        }
    }
}

extension FilterTerm {
    /// Clears the bits of the slots in `words` (as ``FilterCondition/refuse(in:words:slotCount:bits:)``)
    /// whose rows the term refuses, a column at a time: a condition by its own form, a group
    /// of all terms as each in turn, a group of any as the union of what each keeps, and a
    /// term that must not hold as what that term refuses. `false`, having done nothing, when a
    /// condition within has no such form.
    func refuse(
        in table: Table,
        words: Range<Int>,
        slotCount: Int,
        bits: UnsafeMutableBufferPointer<UInt64>,
        outcomes: CodedOutcomes? = nil
    ) -> Bool {
        switch self {
        case .condition(let condition):
            return condition.refuse(
                in: table.stores[condition.column],
                words: words,
                slotCount: slotCount,
                bits: bits,
                outcomes: outcomes
            )
        case .all(let terms):
            return Self.kept(among: bits, words: words) { copy in
                terms.allSatisfy {
                    $0.refuse(in: table, words: words, slotCount: slotCount, bits: copy, outcomes: outcomes)
                }
            } apply: { kept in
                for word in words { bits[word] = kept[word] }
            }
        case .any(let terms):
            var union = [UInt64](repeating: 0, count: words.count)
            for term in terms {
                let done = Self.kept(among: bits, words: words) { copy in
                    term.refuse(in: table, words: words, slotCount: slotCount, bits: copy, outcomes: outcomes)
                } apply: { kept in
                    for (offset, word) in words.enumerated() { union[offset] |= kept[word] }
                }
                guard done else { return false }
            }
            for (offset, word) in words.enumerated() { bits[word] &= union[offset] }
            return true
        case .not(let term):
            return Self.kept(among: bits, words: words) { copy in
                term.refuse(in: table, words: words, slotCount: slotCount, bits: copy, outcomes: outcomes)
            } apply: { kept in
                for word in words { bits[word] &= ~kept[word] }
            }
        }
    }

    /// Runs `refuse` on a copy of the bits of `words` and, when it could (`true`), hands the
    /// bits it kept to `apply`; says whether it could. The copy is as long as `bits` but only
    /// its `words` are written or read.
    private static func kept(
        among bits: UnsafeMutableBufferPointer<UInt64>,
        words: Range<Int>,
        refuse: (UnsafeMutableBufferPointer<UInt64>) -> Bool,
        apply: (UnsafeMutableBufferPointer<UInt64>) -> Void
    ) -> Bool {
        let copy = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: words.upperBound)
        defer { copy.deallocate() }
        for word in words { copy[word] = bits[word] }
        guard refuse(copy) else { return false }
        apply(copy)
        return true
    }
}

extension RowFilter {
    /// Sets the bits of the slots in `words` of `table` whose rows the filter admits (64 slots a
    /// word): terms whose conditions all have a column-at-a-time form first, each over the
    /// whole run (``FilterTerm/refuse(in:words:slotCount:bits:)``), then the other terms and
    /// the search for the slots still in, row by row.
    /// `found` is ``searchFound(in:)`` of the same table, or empty.
    func admit(
        _ words: Range<Int>,
        into bits: UnsafeMutableBufferPointer<UInt64>,
        of table: Table,
        found: [[Bool]] = [],
        outcomes: CodedOutcomes? = nil
    ) {
        let slotCount = table.slotCount
        for word in words {
            let left = slotCount - (word << 6)
            bits[word] = left >= 64 ? .max : left > 0 ? (1 << UInt64(left)) - 1 : 0
        }
        var others: [FilterTerm] = []
        for term in terms
        where !term.refuse(in: table, words: words, slotCount: slotCount, bits: bits, outcomes: outcomes) {
            others.append(term)
        }
        if !others.isEmpty {
            for word in words where bits[word] != 0 {
                var remaining = bits[word]
                while remaining != 0 {
                    let bit = remaining.trailingZeroBitCount
                    remaining &= remaining - 1
                    let slot = UInt32((word << 6) + bit)
                    if !others.allSatisfy({ $0.admits(slot, in: table) }) { bits[word] &= ~(1 << UInt64(bit)) }
                }
            }
        }
        if !search.isEmpty { search(words, in: bits, of: table, found: found) }
    }

    /// Clears the bits of the slots in `words` none of whose cells contains the search text:
    /// a column at a time, each over the rows still in that no column before it matched, its
    /// store and display format read once (row by row, each cell's read would count
    /// references).
    private func search(
        _ words: Range<Int>,
        in bits: UnsafeMutableBufferPointer<UInt64>,
        of table: Table,
        found: [[Bool]]
    ) {
        var matched = [UInt64](repeating: 0, count: words.count)
        searchBytes.withUnsafeBufferPointer { needle in
            for column in table.columns.indices {
                let store = table.stores[column]
                let codeFound = found.isEmpty ? [] : found[column]
                let format = table.columns[column].rules.displayFormat
                var text = SmallText()
                for (offset, word) in words.enumerated() {
                    var remaining = bits[word] & ~matched[offset]
                    while remaining != 0 {
                        let bit = remaining.trailingZeroBitCount
                        remaining &= remaining - 1
                        let slot = UInt32((word << 6) + bit)
                        let hit: Bool
                        if !codeFound.isEmpty {
                            hit = codeFound[Int(store.codes[Int(slot)])]
                        } else if store.type == .text || store.type == .image {
                            // The stored text is the display text: searched where it lies.
                            var stored = store.text(at: slot)
                            hit = stored.withUTF8 { Self.contains($0, folded: needle, ascii: searchIsASCII) }
                        } else {
                            text.removeAll()
                            format.append(store[slot], to: &text)
                            hit = text.withBytes { Self.contains($0, folded: needle, ascii: searchIsASCII) }
                        }
                        if hit { matched[offset] |= 1 << UInt64(bit) }
                    }
                }
            }
        }
        for (offset, word) in words.enumerated() { bits[word] &= matched[offset] }
    }
}

/// What a text condition makes of each different text of a coded column, worked out once for a
/// run of a filter over every piece of a table's rows and shared by the pieces (each would
/// otherwise test every text of the column again: 200,000 regular expression matches a piece).
final class CodedOutcomes: Sendable {
    private let kept = Mutex<[(condition: FilterCondition, passes: [Bool])]>([])

    init() {}

    /// `condition`'s outcome for each code, made by `make` the first time it is asked for (under
    /// the lock: a piece that asks meanwhile waits for it rather than testing too).
    func passes(of condition: FilterCondition, make: () -> [Bool]) -> [Bool] {
        kept.withLock { kept in
            if let found = kept.first(where: { $0.condition == condition }) { return found.passes }
            let made = make()
            kept.append((condition, made))
            return made
        }
    }
}
