import DataTableProtocol
import TextMeasure

/// A `scroll` reply in cell units drawn as lines of text: each column at its x, each cell
/// aligned in its width, the selection checkbox and drill-down chevron in their accessories, the
/// header on top. The daemon decided every width and cut every text; this only places them.
struct WindowText {
    let window: JSONValue

    struct Column {
        var x: Int
        var width: Int
        var trailing: Bool
        var center: Bool
        var header: [String]
        /// A sticky first column is drawn last, over the columns scrolling under it.
        var sticky: Bool
        /// List mode: the object-view place.
        var binding: String?

        /// List mode: the line of the row the place is on, and whether it sits on the right.
        var listPlace: (line: Int, trailing: Bool)? {
            switch binding {
            case "headline": (0, false)
            case "subheadline": (1, false)
            case "footnote": (2, false)
            case "status": (0, true)
            case "substatus": (1, true)
            default: nil
            }
        }
    }

    var columns: [Column] {
        (window["columns"]?.arrayValue ?? []).map { column in
            Column(
                x: column["x"]?.intValue ?? 0,
                width: column["width"]?.intValue ?? 0,
                trailing: column["align"]?.stringValue == "trailing",
                center: column["align"]?.stringValue == "center",
                header: column["header"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                sticky: column["sticky"]?.boolValue == true,
                binding: column["binding"]?.stringValue
            )
        }
    }

    var width: Int { window["viewport"]?["width"]?.intValue ?? 80 }

    /// The header's lines.
    var headerLines: [String] { headerCanvases().map(\.text) }

    /// The header, one canvas a line.
    func headerCanvases() -> [Canvas] {
        let columns = columns
        let count = window["header"]?["height"]?.intValue ?? 1
        return (0..<count).map { line in
            var canvas = Canvas(width: width)
            for column in Self.drawingOrder(columns) {
                let label = line < column.header.count ? column.header[line] : ""
                canvas.place(label, x: column.x, width: column.width, column)
            }
            drawAccessories(on: &canvas, left: "", right: "")
            return canvas
        }
    }

    /// The rows of the window.
    var rows: [JSONValue] { window["rows"]?.arrayValue ?? [] }

    /// Each row's lines (two for a tall row), with `marker(row)` in the left accessory.
    func rowLines(marker: (JSONValue) -> String) -> [[String]] {
        rows.map { row in rowCanvases(row, marker: marker(row)).map(\.text) }
    }

    /// One row, a canvas for each of its lines: the columns, then the accessories over
    /// whatever scrolled under them.
    func rowCanvases(_ row: JSONValue, marker: String) -> [Canvas] {
        let columns = columns
        // The chevron on rows that drill down (every row, unless the daemon says otherwise).
        let hasChevron = window["accessories"]?["right"]?["kind"]?.stringValue == "chevron"
        let chevron = hasChevron && row["drillDown"]?.boolValue != false ? "›" : ""
        let height = max(1, row["height"]?.intValue ?? 1)
        let cells = row["cells"]?.arrayValue?.map { $0.stringValue ?? "" } ?? []
        return (0..<height).map { line in
            var canvas = Canvas(width: width)
            if window["mode"]?.stringValue == "list" {
                for (column, text) in zip(columns, cells) {
                    guard let place = column.listPlace, place.line == line else { continue }
                    var aligned = column
                    aligned.trailing = place.trailing
                    canvas.place(text, x: column.x, width: column.width, aligned)
                }
                drawAccessories(on: &canvas, left: line == 0 ? marker : "", right: line == 0 ? chevron : "")
                return canvas
            }
            for (column, text) in Self.drawingOrder(zip(columns, cells)) {
                let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
                canvas.place(line < parts.count ? String(parts[line]) : "", x: column.x, width: column.width, column)
            }
            drawAccessories(on: &canvas, left: line == 0 ? marker : "", right: line == 0 ? chevron : "")
            return canvas
        }
    }

    /// `left` and `right` in the accessories, blanking what scrolled under them.
    func drawAccessories(on canvas: inout Canvas, left: String, right: String) {
        for (side, text) in [("left", left), ("right", right)] {
            guard let accessory = window["accessories"]?[side], let x = accessory["x"]?.intValue,
                let width = accessory["width"]?.intValue
            else { continue }
            canvas.write(TextTable.pad(text, to: width, .leading), x: x, width: width)
        }
    }

    /// The whole window: header, rows, and a status line.
    var lines: [String] {
        let rows = rowLines { $0["selected"]?.boolValue == true ? "[x]" : "[ ]" }.flatMap { $0 }
        return headerLines + rows + [status]
    }

    /// Scrolling columns first, then the sticky one over them.
    static func drawingOrder(_ columns: [Column]) -> [Column] {
        columns.filter { !$0.sticky } + columns.filter(\.sticky)
    }

    static func drawingOrder(_ pairs: Zip2Sequence<[Column], [String]>) -> [(Column, String)] {
        pairs.filter { !$0.0.sticky } + pairs.filter { $0.0.sticky }
    }

    /// "rows 1–5 of 10 · 2 selected · 1 error", and the rows added above since the view last
    /// looked (this window's `newAbove`). In a filtered view the rows counted are those shown
    /// ("rows 1–5 of 6 shown").
    var status: String { status(newAbove: window["newAbove"]?.intValue ?? 0) }

    /// The status with `newAbove` new rows above ("↑ 2 new rows above").
    func status(newAbove: Int) -> String {
        let shown = window["shown"]?.intValue
        let total = shown.map { "\($0) shown" } ?? "\(window["total"]?.intValue ?? 0)"
        var parts: [String] = []
        if let first = window["first"]?.intValue, let last = window["last"]?.intValue {
            parts.append("rows \(first + 1)–\(last + 1) of \(total)")
        } else {
            parts.append("no rows of \(total)")
        }
        let selected = window["selected"]?.intValue ?? 0
        if selected > 0 { parts.append("\(selected) selected") }
        let errors = window["errors"]?.intValue ?? 0
        if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if newAbove > 0 { parts.append("↑ \(newAbove) new row\(newAbove == 1 ? "" : "s") above") }
        return parts.joined(separator: " · ")
    }

    /// One line of cells being filled in, each cell with an optional style (SGR parameters).
    struct Canvas {
        private var cells: [String]
        private var styles: [String?]

        init(width: Int) {
            cells = Array(repeating: " ", count: max(0, width))
            styles = Array(repeating: nil, count: max(0, width))
        }

        /// Gives cells `x ..< x + width` the style `sgr` ("7" reverse, "1;31" bold red, …). With
        /// `NO_COLOR` set, colours are left out (bold, underline and reverse stay).
        mutating func style(x: Int, width: Int, _ sgr: String) {
            let style = Output.colours ? sgr : Self.withoutColours(sgr)
            for cell in max(0, x)..<min(styles.count, max(0, x + width)) { styles[cell] = style }
        }

        /// `sgr` without its colour parameters (30–39, 40–49, 90–107).
        static func withoutColours(_ sgr: String) -> String? {
            let kept = sgr.split(separator: ";").filter { part in
                guard let code = Int(part) else { return true }
                return !((30...49).contains(code) || (90...107).contains(code))
            }
            return kept.isEmpty ? nil : kept.joined(separator: ";")
        }

        /// The whole width with its styles as ANSI escapes, ending with the style reset.
        var styledText: String {
            var text = ""
            var current: String?
            for (cell, style) in zip(cells, styles) {
                if style != current {
                    text += "\u{1B}[0m" + (style.map { "\u{1B}[\($0)m" } ?? "")
                    current = style
                }
                text += cell
            }
            return text + "\u{1B}[0m"
        }

        /// `text` aligned in the column's width at its x; a sticky column first blanks its cells.
        mutating func place(_ text: String, x: Int, width: Int, _ column: Column) {
            if column.sticky { write(String(repeating: " ", count: max(0, width)), x: x, width: width) }
            let used = DisplayWidth.cells(text)
            let slack = max(0, width - used)
            let offset = column.trailing ? slack : column.center ? slack / 2 : 0
            write(text, x: x + offset, width: width - offset)
        }

        /// `text` from cell `x` on, at most `width` cells, never past the line's end. A wide
        /// character takes its cell and blanks the next.
        mutating func write(_ text: String, x: Int, width: Int) {
            var position = x
            let end = min(cells.count, x + width)
            for character in text {
                let size = DisplayWidth.cells(character)
                if size == 0 {
                    // A mark with no width of its own joins the character before it.
                    if position > max(0, x) { cells[position - 1] += String(character) }
                    continue
                }
                if position + size > end { break }
                if position >= 0 {
                    cells[position] = String(character)
                    for extra in 1..<max(1, size) { cells[position + extra] = "" }
                }
                position += size
            }
        }

        var text: String { cells.joined().trimmingTrailingSpaces() }
    }
}
