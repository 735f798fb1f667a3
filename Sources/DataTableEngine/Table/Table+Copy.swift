import TextMeasure

/// The selected rows' shown columns as a reader sees them (FUIContentCopyable): each cell's
/// display text, whole (not cut to its column), with the column labels above, ready to put on a
/// clipboard as tab-separated values, aligned plain text and an HTML table.
public struct CopiedRows: Sendable, Hashable {
    /// The keys of the columns copied, in their shown order.
    public var keys: [String]
    /// Their labels.
    public var labels: [String]
    /// Per column, whether its text lines up on the right (numbers, durations, or as told).
    public var trailing: [Bool]
    /// Per row, in the current order, each column's display text.
    public var rows: [[String]]

    /// A cell's text on one line: a tab or line break shows, and copies, as a space.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0.isNewline }) else { return text }
        return String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
    }

    /// The labels, then each row, one line each, cells separated by tabs.
    public var tsv: String {
        ([labels] + rows).map { $0.map(Self.oneLine).joined(separator: "\t") + "\n" }.joined()
    }

    /// The labels, then each row, in columns padded to their widest text in terminal cells and
    /// two spaces apart (right-aligned where the column lines up on the right), with no spaces
    /// after a line's last text.
    public var text: String {
        let lines = ([labels] + rows).map { $0.map(Self.oneLine) }
        var widths = [Int](repeating: 0, count: keys.count)
        for line in lines {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], DisplayWidth.cells(cell)) }
        }
        return lines.map { line in
            var out = ""
            for (index, cell) in line.enumerated() {
                let pad = String(repeating: " ", count: widths[index] - DisplayWidth.cells(cell))
                if index > 0 { out += "  " }
                out += trailing[index] ? pad + cell : cell + pad
            }
            while out.last == " " { out.removeLast() }
            return out + "\n"
        }.joined()
    }

    /// An HTML table: the labels as `th` in `thead`, the rows as `td` in `tbody`, every text
    /// escaped.
    public var html: String {
        func escaped(_ text: String) -> String {
            var out = ""
            for character in Self.oneLine(text) {
                switch character {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                default: out.append(character)
                }
            }
            return out
        }
        func cell(_ tag: String, _ text: String, _ index: Int) -> String {
            trailing[index]
                ? "<\(tag) style=\"text-align:right\">\(escaped(text))</\(tag)>" : "<\(tag)>\(escaped(text))</\(tag)>"
        }
        var out = "<table><thead><tr>"
        for (index, label) in labels.enumerated() { out += cell("th", label, index) }
        out += "</tr></thead><tbody>"
        for row in rows {
            out += "<tr>"
            for (index, text) in row.enumerated() { out += cell("td", text, index) }
            out += "</tr>"
        }
        return out + "</tbody></table>"
    }
}

extension Table {
    /// The selected rows, in the current order (`within` a view's filter: those it shows), in
    /// the columns a view with `overrides` and `order` shows (hidden columns and those that
    /// drive an accessory left out), or the columns `keys` names, in that order.
    public func copiedSelection(
        columns overrides: [String: ColumnLayout] = [:],
        order: [String] = [],
        keys: [String]? = nil,
        within filter: UInt64? = nil
    ) throws(TableError) -> CopiedRows {
        let hints = try viewHints(overrides)
        let shown: [Int]
        if let keys {
            shown = try columnIndices(keys) { .invalidArgument("columns names \($0) twice.", field: "columns") }
        } else {
            shown = try shownColumns(hints, order: order)
        }
        let slots = selectedSlotsInOrder(within: filter)
        let rows = slots.map { slot in shown.map { columns[$0].rules.displayText(cell($0, slot)) } }
        return CopiedRows(
            keys: shown.map { columns[$0].key },
            labels: shown.map { columns[$0].label },
            trailing: shown.map { (hints[$0].align ?? Self.defaultAlignment(columns[$0].type)) == .trailing },
            rows: rows
        )
    }
}
