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
    var lines: [String] {
        let widths = headers.indices.map { column in
            ([headers[column]] + rows.map { column < $0.count ? $0[column] : "" }).map(DisplayWidth.cells).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            let padded = headers.indices.map { column in
                Self.pad(column < cells.count ? cells[column] : "", to: widths[column], alignments[column])
            }
            return padded.joined(separator: "  ").trimmingTrailingSpaces()
        }
        return [line(headers), widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")]
            + rows.map(line)
    }

    /// The table as `Output.listFormat` says: aligned (a rule of "─" on a terminal, "-"
    /// otherwise), CSV or TSV.
    func print() {
        switch Output.listFormat {
        case .aligned:
            let onTerminal = isatty(STDOUT_FILENO) == 1
            for (index, line) in lines.enumerated() {
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
