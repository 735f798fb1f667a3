/// Text cut to fit a width: what to draw, and how much of the original it shows.
public struct FittedText: Sendable, Hashable {
    /// The text to draw, ending in "…" when cut.
    public var text: String
    /// Unicode scalars of the original shown before the "…" (all of them when not cut).
    public var kept: Int
    /// Whether the text was cut.
    public var truncated: Bool
}

extension TextStyle {
    /// What a cut-off text ends with.
    public static let ellipsis = "…"

    /// `text` as it fits on one line of `width` layout units: unchanged when it fits, else the
    /// longest run of whole characters (grapheme clusters) that fits with "…" after it.
    public func truncate(_ text: String, toWidth width: Double) -> FittedText {
        if self.width(text) <= width + 1e-9 {
            return FittedText(text: text, kept: text.unicodeScalars.count, truncated: false)
        }
        let characters = Array(text)
        // The largest count of leading characters that fits with the ellipsis; widths grow
        // with the count, so a binary search finds it.
        var low = 0
        var high = characters.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if self.width(String(characters[..<middle]) + Self.ellipsis) <= width + 1e-9 {
                low = middle
            } else {
                high = middle - 1
            }
        }
        var kept = characters[..<low]
        while let last = kept.last, last == " " { kept.removeLast() }
        let shown = String(kept)
        let result = self.width(shown + Self.ellipsis) <= width + 1e-9 ? shown + Self.ellipsis : ""
        return FittedText(text: result, kept: shown.unicodeScalars.count, truncated: true)
    }

    /// `text` broken into at most `maxLines` lines of `width` layout units, greedily by words
    /// (a word wider than a line is broken between characters); the last line is truncated
    /// with "…" when text remains.
    public func wrap(_ text: String, toWidth width: Double, maxLines: Int) -> [String] {
        var lines: [String] = []
        var rest = Substring(text).drop { $0 == " " }
        while lines.count < maxLines - 1, !rest.isEmpty, self.width(String(rest)) > width + 1e-9 {
            var fit: Substring.Index?
            var search = rest.startIndex
            while let space = rest[search...].firstIndex(of: " ") {
                if self.width(String(rest[..<space])) > width + 1e-9 { break }
                fit = space
                search = rest.index(after: space)
            }
            if let fit {
                lines.append(String(rest[..<fit]))
                rest = rest[fit...].drop { $0 == " " }
            } else {
                // The first word alone is too wide: break it where it stops fitting.
                let firstWord = rest.firstIndex(of: " ").map { rest[..<$0] } ?? rest
                var end = firstWord.index(after: firstWord.startIndex)
                while end < firstWord.endIndex,
                    self.width(String(firstWord[...end])) <= width + 1e-9
                {
                    end = firstWord.index(after: end)
                }
                lines.append(String(firstWord[..<end]))
                rest = rest[end...].drop { $0 == " " }
            }
        }
        if !rest.isEmpty || lines.isEmpty { lines.append(truncate(String(rest), toWidth: width).text) }
        return lines
    }
}
