extension RowFilter {
    /// Whether the row in `slot` of `table` meets every term and, with a search text, has a
    /// cell whose display text contains it.
    func admits(_ slot: UInt32, in table: Table) -> Bool {
        for term in terms where !term.admits(slot, in: table) {
            return false
        }
        return search.isEmpty || searchFinds(slot, in: table)
    }

    /// By column of `table`: for a coded text column, whether each of its different texts
    /// (by code) contains the search text; empty for the other columns. Worked out once, it
    /// lets ``admit(_:into:of:found:)`` read a row's code in place of searching its text.
    func searchFound(in table: Table) -> [[Bool]] {
        table.stores.map { store in
            guard store.isCoded, !search.isEmpty else { return [] }
            let dictionary = store.dictionary
            return searchBytes.withUnsafeBufferPointer { needle in
                (0..<dictionary.codeCount).map { code in
                    dictionary.withBytes(of: code) { Self.contains($0, folded: needle, ascii: searchIsASCII) }
                }
            }
        }
    }

    /// Whether the row in `slot` of `table` has a cell whose display text contains the search
    /// text (which is not empty).
    func searchFinds(_ slot: UInt32, in table: Table) -> Bool {
        searchBytes.withUnsafeBufferPointer { needle in
            var text = SmallText()
            // Stores and rules are read where they lie: a copy of each per cell would cost more
            // than the search.
            for column in table.columns.indices {
                switch table.stores[column].type {
                case .text, .image:
                    // The stored text is the display text: searched where it lies.
                    var stored = table.stores[column].text(at: slot)
                    if stored.withUTF8({ Self.contains($0, folded: needle, ascii: searchIsASCII) }) { return true }
                default:
                    text.removeAll()
                    table.columns[column].rules.displayFormat.append(table.cell(column, slot), to: &text)
                    if text.withBytes({ Self.contains($0, folded: needle, ascii: searchIsASCII) }) { return true }
                }
            }
            return false
        }
    }

    /// Whether `text` contains `needle` (folded to lower case), ignoring case.
    static func contains(_ text: String, folded needle: String) -> Bool {
        var text = text
        var needle = needle
        return text.withUTF8 { text in
            needle.withUTF8 { needle in contains(text, folded: needle, ascii: !needle.contains { $0 >= 0x80 }) }
        }
    }

    /// Whether the UTF-8 `bytes` contain `needle` (folded to lower case, `ascii` when all of it
    /// is), ignoring case: ASCII letters compared folded byte by byte; text with other letters
    /// folded as a whole.
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, folded needle: UnsafeBufferPointer<UInt8>, ascii: Bool)
        -> Bool
    {
        guard needle.count <= bytes.count else { return false }
        guard ascii else {
            // Folding may change the length of non-ASCII text: fold it whole.
            let folded = TextKey.folded(String(decoding: bytes, as: UTF8.self))
            return folded.contains(String(decoding: needle, as: UTF8.self))
        }
        guard let first = needle.first else { return true }
        let last = bytes.count - needle.count
        var start = 0
        while start <= last {
            if fold(bytes[start]) == first {
                var matched = 1
                while matched < needle.count, fold(bytes[start + matched]) == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// Whether `text` starts with `prefix` (folded to lower case), ignoring case.
    static func startsWith(_ text: String, folded prefix: String) -> Bool {
        TextKey.folded(text).hasPrefix(prefix)
    }

    @inline(__always) private static func fold(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}

extension FilterTerm {
    /// Whether the row in `slot` of `table` meets the term (groups stop at the first term that
    /// decides them).
    func admits(_ slot: UInt32, in table: Table) -> Bool {
        switch self {
        case .condition(let condition): condition.admits(table.cell(condition.column, slot), table: table)
        case .any(let terms): terms.contains { $0.admits(slot, in: table) }
        case .all(let terms): terms.allSatisfy { $0.admits(slot, in: table) }
        case .not(let term): !term.admits(slot, in: table)
        }
    }
}

extension FilterCondition {
    /// Whether `value`, a cell of this condition's column, meets it.
    func admits(_ value: CellValue, table: Table) -> Bool {
        switch self.operator {
        case .empty: return value.isEmpty
        case .notEmpty: return !value.isEmpty
        case .notEqual: return value.isEmpty || value != operands[0]
        default: break
        }
        guard !value.isEmpty else { return false }
        switch self.operator {
        // Equal in the sort's order is equal as values (text: the same bytes), without the
        // case folding an order comparison of text takes.
        case .equal: return value == operands[0]
        case .less: return ValueOrder.compare(value, operands[0]) < 0
        case .lessOrEqual: return ValueOrder.compare(value, operands[0]) <= 0
        case .greater: return ValueOrder.compare(value, operands[0]) > 0
        case .greaterOrEqual: return ValueOrder.compare(value, operands[0]) >= 0
        case .between:
            return ValueOrder.compare(value, operands[0]) >= 0 && ValueOrder.compare(value, operands[1]) <= 0
        case .oneOf: return operands.contains(value)
        case .contains, .startsWith:
            guard case .text(let needle) = operands[0] else { return false }
            let shown = table.columns[column].rules.displayText(value)
            return self.operator == .contains
                ? RowFilter.contains(shown, folded: needle) : RowFilter.startsWith(shown, folded: needle)
        case .matches:
            guard let pattern else { return false }
            if case .text(let text) = value { return pattern.finds(in: text) }
            return pattern.finds(in: table.columns[column].rules.displayText(value))
        case .empty, .notEmpty, .notEqual: return true
        }
    }
}
