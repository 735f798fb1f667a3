import DataTableEngine
import DataTableProtocol
import Foundation

/// `scroll` replies are the largest and most frequent: they write themselves, straight from
/// the engine's window, with no typed response in between.
extension ScrollReply: DirectJSON {
    var expectedBytes: Int {
        // The cells' text, and for each row and column its members (measured: about 110 and 130
        // bytes).
        window.text.byteCount + window.rows.count * 128 + window.columns.count * 160 + 512
    }

    func write(to writer: inout JSONWriter) {
        let window = window
        writer.raw(#"{"accessories":{"#)
        if let left = leftAccessory {
            writer.raw(#""left":"#)
            writer.accessory(left)
        }
        if let right = rightAccessory {
            if leftAccessory != nil { writer.comma() }
            writer.raw(#""right":"#)
            writer.accessory(right)
        }
        writer.raw(#"},"columns":["#)
        for (index, (column, state)) in zip(window.columns, columnStates).enumerated() {
            if index > 0 { writer.comma() }
            writer.raw(#"{"align":"#)
            writer.string(column.align.rawValue)
            if let binding = column.binding {
                writer.raw(#","binding":"#)
                writer.string(binding.rawValue)
            }
            writer.raw(#","header":"#)
            writer.strings(column.header)
            writer.raw(#","key":"#)
            writer.string(column.key)
            writer.raw(#","lines":"#)
            writer.int(column.lines)
            if state.readOnly { writer.raw(#","readOnly":true"#) }
            if let sort = state.sort {
                writer.raw(#","sort":"#)
                writer.string(sort)
            }
            if column.sticky { writer.raw(#","sticky":true"#) }
            writer.raw(#","width":"#)
            writer.int(column.width)
            writer.raw(#","x":"#)
            writer.int(column.x)
            writer.raw("}")
        }
        writer.raw(#"],"contentHeight":"#)
        writer.int(window.contentHeight)
        writer.raw(#","contentWidth":"#)
        writer.int(window.contentWidth)
        writer.raw(#","errors":"#)
        writer.int(errors)
        if let filter = window.filterDescription {
            writer.raw(#","filter":"#)
            writer.string(filter)
        }
        if let first = window.firstVisible {
            writer.raw(#","first":"#)
            writer.int(first)
        }
        writer.raw(#","header":{"height":"#)
        writer.int(window.headerHeight)
        writer.raw(#","shadow":"#)
        writer.bool(window.shadow)
        writer.raw("}")
        if let hiddenNew = window.hiddenNew {
            writer.raw(#","hiddenNew":"#)
            writer.int(hiddenNew)
        }
        if let last = window.lastVisible {
            writer.raw(#","last":"#)
            writer.int(last)
        }
        if let lost {
            // Rare (once after a column under the view is dropped): encoded as the typed reply is.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let json = try? encoder.encode(lost) {
                writer.raw(#","lost":"#)
                json.withUnsafeBytes { writer.append($0.bindMemory(to: UInt8.self)) }
            }
        }
        writer.raw(#","mode":"#)
        writer.string(window.plan.mode.rawValue)
        writer.raw(#","newAbove":"#)
        writer.int(window.newAbove)
        writer.raw(#","rows":["#)
        // Most of a reply is its rows: make room for them at once.
        writer.reserve(window.rows.count * (48 + window.columns.count * 16))
        window.text.withBytes { text in
            for (index, row) in window.rows.enumerated() {
                if index > 0 { writer.comma() }
                writer.row(row, columns: window.columns, text: text, cells: window.text, rules: valueRules)
            }
        }
        writer.raw("]")
        if let sections = window.sections { writer.sections(sections, reply: self) }
        writer.raw(#","selected":"#)
        writer.int(selected)
        if let shown = window.shownCount {
            writer.raw(#","shown":"#)
            writer.int(shown)
        }
        writer.raw(#","table":"#)
        writer.string(table)
        writer.raw(#","total":"#)
        writer.int(window.rowCount)
        writer.raw(#","unit":"#)
        writer.string(window.plan.unit.rawValue)
        writer.raw(#","version":"#)
        writer.int(version)
        writer.raw(#","viewport":{"height":"#)
        writer.int(window.height)
        writer.raw(#","width":"#)
        writer.int(window.width)
        writer.raw(#","x":"#)
        writer.int(window.x)
        writer.raw(#","y":"#)
        writer.int(window.y)
        writer.raw("}}")
    }
}

extension JSONWriter {
    /// `{"kind":…,"width":…,"x":…}`.
    fileprivate mutating func accessory(_ accessory: LayoutPlan.PlacedAccessory) {
        raw(#"{"kind":"#)
        string(accessory.kind.rawValue)
        raw(#","width":"#)
        int(accessory.width)
        raw(#","x":"#)
        int(accessory.x)
        raw("}")
    }

    /// One row of a window, its members sorted; `false`, empty and zero members left out as
    /// ``ScrollRequest/Row`` leaves them out.
    fileprivate mutating func row(
        _ row: ScrollWindow.Row,
        columns: [ScrollWindow.Column],
        text: UnsafeBufferPointer<UInt8>,
        cells: WindowText,
        rules: [ColumnRules]
    ) {
        raw(#"{"cells":["#)
        for cell in row.cellRange {
            if cell > row.cellRange.lowerBound { comma() }
            let utf8 = UnsafeBufferPointer(rebasing: text[cells.range(of: cell)])
            if cells.isPlain {
                plainString(utf8: utf8)
            } else {
                string(utf8: utf8)
            }
        }
        raw("]")
        // By column key, sorted; a key drawn twice keeps its first draft.
        if !row.drafts.isEmpty {
            var seen = Set<String>()
            draftsMember(
                row.drafts.filter { seen.insert(columns[$0.column].key).inserted }
                    .sorted { columns[$0.column].key < columns[$1.column].key },
                key: { columns[$0.column].key },
                draft: \.draft
            )
        }
        if let drillDown = row.drillDown { raw(drillDown ? #","drillDown":true"# : #","drillDown":false"#) }
        raw(#","height":"#)
        int(row.height)
        if let highlight = ScrollReply.highlight(row.highlight) {
            raw(#","highlight":"#)
            double(highlight)
        }
        raw(#","id":"#)
        rowID(row.id)
        raw(#","index":"#)
        int(row.index)
        keysMember("readOnly", row.readOnly) { columns[$0].key }
        if row.selected { raw(#","selected":true"#) }
        if let syncStatus = row.syncStatus {
            raw(#","syncStatus":"#)
            string(syncStatus)
        }
        if row.tall { raw(#","tall":true"#) }
        if let values = row.values {
            raw(#","values":["#)
            for (index, value) in zip(values, rules).enumerated() {
                if index > 0 { comma() }
                self.value(WireValues.json(value.0, rules: value.1))
            }
            raw("]")
        }
        raw(#","version":"#)
        int(Int(row.version))
        raw(#","y":"#)
        int(row.y)
        raw("}")
    }

}

extension JSONWriter {
    /// `,"sections":{…}`, members sorted.
    fileprivate mutating func sections(_ sections: ScrollWindow.Sections, reply: ScrollReply) {
        raw(#","sections":{"column":"#)
        string(sections.column)
        if sections.columns.count > 1 {
            raw(#","columns":["#)
            for (position, column) in sections.columns.enumerated() {
                if position > 0 { comma() }
                string(column)
            }
            raw("]")
        }
        raw(#","count":"#)
        int(sections.count)
        if let grandTotal = sections.grandTotal {
            raw(#","grandTotal":{"aggregates":"#)
            aggregates(grandTotal.aggregates, reply: reply)
            raw(#","height":"#)
            int(grandTotal.height)
            raw(#","placement":"#)
            string(grandTotal.placement.rawValue)
            raw(#","y":"#)
            int(grandTotal.y)
            raw("}")
        }
        if let index = sections.index {
            raw(#","index":["#)
            for (position, entry) in index.enumerated() {
                if position > 0 { comma() }
                raw(#"{"title":"#)
                string(entry.title)
                raw(#","y":"#)
                int(entry.y)
                raw("}")
            }
            raw("]")
        }
        raw(#","inset":"#)
        int(sections.inset)
        raw(#","shown":["#)
        for (position, section) in sections.shown.enumerated() {
            if position > 0 { comma() }
            raw("{")
            if !section.aggregates.isEmpty {
                raw(#""aggregates":"#)
                aggregates(section.aggregates, reply: reply)
                comma()
            }
            if section.collapsed { raw(#""collapsed":true,"#) }
            raw(#""count":"#)
            int(section.count)
            if let footerY = section.footerY {
                raw(#","footerY":"#)
                int(footerY)
            }
            raw(#","height":"#)
            int(section.height)
            let nested = sections.columns.count > 1
            if nested {
                raw(#","level":"#)
                int(section.level)
                raw(#","path":["#)
                for (position, title) in section.path.enumerated() {
                    if position > 0 { comma() }
                    string(title)
                }
                raw("]")
            }
            if section.sticky { raw(#","sticky":true"#) }
            raw(#","title":"#)
            string(section.title)
            raw(#","y":"#)
            int(section.y)
            raw("}")
        }
        raw(#"],"style":"#)
        string(sections.style.rawValue)
        if sections.shown.contains(where: { !$0.aggregates.isEmpty }) {
            raw(#","totals":"#)
            string(sections.totals.rawValue)
        }
        raw("}")
    }

    /// `[{"column":…,"function":…,"text":…,"value":…}, …]`, members sorted, `value` absent when none.
    private mutating func aggregates(_ results: [AggregateResult], reply: ScrollReply) {
        raw("[")
        for (position, result) in results.enumerated() {
            if position > 0 { comma() }
            let wire = reply.aggregateReply(result)
            raw(#"{"column":"#)
            string(wire.column)
            raw(#","function":"#)
            string(wire.function.rawValue)
            raw(#","text":"#)
            string(wire.text)
            if let value = wire.value {
                raw(#","value":"#)
                self.value(value)
            }
            raw("}")
        }
        raw("]")
    }
}
