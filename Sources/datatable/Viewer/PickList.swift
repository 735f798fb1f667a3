import DataTableProtocol
import TextMeasure

/// The pick list `f` opens (a set filter): the cursor column's values, each with how many rows
/// have it among those the view's other conditions let through (`distinct`), most first. Typing
/// narrows it to the values starting with what was typed; space marks values; Enter keeps the
/// rows with a marked value (or, none marked, the highlighted one).
struct PickList {
    /// The column's key and label.
    let column: String
    let label: String
    /// The values listed, and how many there are in all (the list holds at most ``limit``).
    var values: [DistinctRequest.DistinctValue] = []
    var distinct = 0
    var prefix = ""
    var highlighted = 0
    /// The first value on screen.
    var top = 0
    /// The values marked, as the daemon gave them, in the order they were marked.
    var marked: [JSONValue] = []

    /// The most values a list holds.
    static let limit = 1000

    /// The request that lists the values for ``prefix``.
    func request(table: String) -> DistinctRequest {
        DistinctRequest(
            table: table,
            column: column,
            prefix: prefix.isEmpty ? nil : prefix,
            order: .count,
            limit: Self.limit
        )
    }

    /// Takes the daemon's list; the highlight stays on its value when it is still there.
    mutating func take(_ reply: DistinctRequest.Response, highlighting wanted: JSONValue? = nil) {
        let current: JSONValue? =
            wanted ?? (values.indices.contains(highlighted) ? Optional(values[highlighted].value) : Optional.none)
        values = reply.values
        distinct = reply.distinct
        highlighted = current.flatMap { value in values.firstIndex { $0.value == value } } ?? 0
        top = 0
    }

    /// Moves the highlight by `step`, keeping it on screen in `height` lines.
    mutating func move(by step: Int, height: Int) {
        guard !values.isEmpty else { return }
        highlighted = max(0, min(values.count - 1, highlighted + step))
        if highlighted < top { top = highlighted }
        if highlighted >= top + height { top = highlighted - height + 1 }
    }

    mutating func toggleHighlighted() {
        guard values.indices.contains(highlighted) else { return }
        let value = values[highlighted].value
        if let index = marked.firstIndex(of: value) { marked.remove(at: index) } else { marked.append(value) }
    }

    /// The term that keeps the rows with a picked value: the marked ones (in the order they
    /// were marked, listed or not), or the highlighted one; an empty cell picked is `empty`.
    /// `nil` when nothing can be picked.
    var term: FilterTermParam? {
        let picked =
            marked.isEmpty ? (values.indices.contains(highlighted) ? [values[highlighted].value] : []) : marked
        guard !picked.isEmpty else { return nil }
        let given = picked.filter { $0 != .null }
        var terms: [FilterTermParam] = []
        if given.count == 1 { terms.append(.condition(column: column, op: .equal, value: given[0])) }
        if given.count > 1 { terms.append(.condition(column: column, op: .oneOf, values: given)) }
        if given.count < picked.count { terms.append(.condition(column: column, op: .empty)) }
        return terms.count == 1 ? terms[0] : .any(terms)
    }

    /// The lines drawn in place of the rows: a title, then a line per value on screen ("[x]",
    /// its text, its count at the right), the highlighted one reversed.
    func lines(width: Int, height: Int) -> [String] {
        var title = WindowText.Canvas(width: width)
        let shown = values.count < distinct ? "\(values.count) of \(distinct)" : "\(distinct)"
        let narrowed = prefix.isEmpty ? "" : " starting “\(prefix)”"
        title.write(" \(label): \(shown) value\(distinct == 1 ? "" : "s")\(narrowed)", x: 0, width: width)
        title.style(x: 0, width: width, "1;4")
        var lines = [title.styledText]
        let countWidth = values.map { DisplayWidth.cells(String($0.count)) }.max() ?? 1
        for index in top..<min(values.count, top + max(1, height - 1)) {
            var line = WindowText.Canvas(width: width)
            let value = values[index]
            let box = marked.contains(value.value) ? "[x] " : "[ ] "
            line.write(
                box + (value.value == .null ? "(empty)" : value.text),
                x: 0,
                width: max(0, width - countWidth - 2)
            )
            let count = String(value.count)
            line.write(count, x: width - 1 - DisplayWidth.cells(count), width: DisplayWidth.cells(count))
            if index == highlighted { line.style(x: 0, width: width, "7") }
            lines.append(line.styledText)
        }
        return lines
    }
}
