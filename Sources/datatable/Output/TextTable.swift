import Foundation
import TextMeasure

/// Rows of text in aligned columns, measured in terminal cells (East Asian wide characters and
/// emoji take two, combining marks none), so they line up in a terminal.
struct TextTable {
    enum Alignment {
        case leading, trailing
    }

    var headers: [String]
    var alignments: [Alignment]
    var rows: [[String]] = []

    init(_ headers: [String], alignments: [Alignment]? = nil) {
        self.headers = headers
        self.alignments = alignments ?? headers.map { _ in .leading }
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    /// The table as lines: the header, a rule, the rows; two spaces between columns.
    var lines: [String] { lines(fitting: nil) }

    /// The table as lines no wider than `width` cells where the last column can wrap: its text
    /// goes on under itself, cut between words (a word longer than the room is cut where the
    /// room ends). Wider when the columns before it leave it less than 20 cells.
    func lines(fitting width: Int?) -> [String] {
        var widths = headers.indices.map { column in
            ([headers[column]] + rows.map { column < $0.count ? $0[column] : "" }).map(DisplayWidth.cells).max() ?? 0
        }
        let lastStart = widths.dropLast().reduce(0) { $0 + $1 + 2 }
        if let width, let last = widths.indices.last, width - lastStart >= 20 {
            widths[last] = min(widths[last], width - lastStart)
        }
        func line(_ cells: [String]) -> [String] {
            let last = headers.count - 1
            let pieces = Self.wrap(last < cells.count ? cells[last] : "", to: widths[last])
            let padded = headers.indices.map { column in
                column == last
                    ? pieces[0]
                    : Self.pad(column < cells.count ? cells[column] : "", to: widths[column], alignments[column])
            }
            let indent = String(repeating: " ", count: lastStart)
            return [padded.joined(separator: "  ").trimmingTrailingSpaces()] + pieces.dropFirst().map { indent + $0 }
        }
        return line(headers) + [widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")]
            + rows.flatMap(line)
    }

    /// `text` in pieces of at most `width` cells, cut after spaces where it can be.
    static func wrap(_ text: String, to width: Int) -> [String] {
        guard DisplayWidth.cells(text) > width, width > 0 else { return [text] }
        var pieces: [String] = []
        var current = ""
        var currentCells = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = String(word)
            var cells = DisplayWidth.cells(word)
            if currentCells > 0, currentCells + 1 + cells > width {
                pieces.append(current)
                current = ""
                currentCells = 0
            }
            // A word longer than a line is cut.
            while cells > width {
                var head = ""
                var headCells = 0
                for character in word {
                    let characterCells = DisplayWidth.cells(String(character))
                    if headCells + characterCells > width - currentCells - (currentCells > 0 ? 1 : 0) { break }
                    head.append(character)
                    headCells += characterCells
                }
                if head.isEmpty { break }
                pieces.append(currentCells > 0 ? current + " " + head : head)
                current = ""
                currentCells = 0
                word.removeFirst(head.count)
                cells = DisplayWidth.cells(word)
            }
            current += (currentCells > 0 ? " " : "") + word
            currentCells += (currentCells > 0 ? 1 : 0) + cells
        }
        if !current.isEmpty || pieces.isEmpty { pieces.append(current) }
        return pieces
    }

    /// The table as `Output.listFormat` says: aligned (a rule of "─" on a terminal, "-"
    /// otherwise), CSV or TSV.
    func print() {
        switch Output.listFormat {
        case .aligned:
            // On a terminal, fitted to its width rather than wrapped by it.
            let terminal = Output.terminalSize()
            let onTerminal = isatty(STDOUT_FILENO) == 1
            for (index, line) in lines(fitting: terminal?.columns).enumerated() {
                Swift.print(index == 1 && !onTerminal ? line.replacingOccurrences(of: "─", with: "-") : line)
            }
        case .csv:
            for row in [headers] + rows { Swift.print(row.map(Self.csvField).joined(separator: ",")) }
        case .tsv:
            for row in [headers] + rows { Swift.print(row.map(Self.tsvField).joined(separator: "\t")) }
        }
    }

    /// `text` as a CSV field: quoted when it holds a comma, a quote or a line break.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as a TSV field: tabs and line breaks become spaces.
    static func tsvField(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

    /// `text` padded with spaces to `width` cells.
    static func pad(_ text: String, to width: Int, _ alignment: Alignment) -> String {
        let room = String(repeating: " ", count: max(0, width - DisplayWidth.cells(text)))
        return alignment == .leading ? text + room : room + text
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return String(self[..<end])
    }
}
