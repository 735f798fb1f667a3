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
    ///
    /// Widths grow with the text, so the cut is found by doubling a prefix until it no longer
    /// fits and then a binary search within the last step: the work is proportional to what is
    /// shown (times a logarithm), not to the length of the text, however long it is.
    public func truncate(_ text: String, toWidth width: Double) -> FittedText {
        let characters = Array(text)
        guard let tooWide = firstTooWide(characters, width: width) else {
            return FittedText(text: text, kept: text.unicodeScalars.count, truncated: false)
        }
        // The largest count of leading characters that fits with the ellipsis: fewer than
        // `tooWide`, which does not fit even without it.
        var low = 0
        var high = tooWide - 1
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

    /// A count of leading characters of `characters` that is wider than `width`, at most twice
    /// the count that fits; `nil` when the whole text fits.
    private func firstTooWide(_ characters: [Character], width: Double) -> Int? {
        var count = min(characters.count, 64)
        while true {
            if self.width(String(characters[..<count])) > width + 1e-9 { return count }
            if count == characters.count { return nil }
            count = min(characters.count, count * 2)
        }
    }

    /// `text` broken into at most `maxLines` lines of `width` layout units, greedily by words
    /// (a word wider than a line is broken between characters, or with `breakingWords` false
    /// cut with "…" on a line of its own); the last line is truncated with "…" when text
    /// remains. Like ``truncate(_:toWidth:)``, each break is found by doubling then halving, so
    /// a long text costs what its shown lines cost.
    public func wrap(_ text: String, toWidth width: Double, maxLines: Int, breakingWords: Bool = true) -> [String] {
        var lines: [String] = []
        var rest = Array(text.drop { $0 == " " })
        while lines.count < maxLines - 1, !rest.isEmpty, firstTooWide(rest, width: width) != nil {
            // The longest run of whole words that fits: the last space before which it fits.
            let spaces = rest.indices.filter { rest[$0] == " " && $0 > 0 && rest[$0 - 1] != " " }
            let fitting = lastFitting(spaces.count, width: width) { String(rest[..<spaces[$0]]) }
            let end: Int
            if let fitting {
                end = spaces[fitting]
            } else if !breakingWords {
                // The first word alone is too wide: it is cut with "…", whole words stay whole.
                let word = rest.firstIndex(of: " ") ?? rest.count
                lines.append(truncate(String(rest[..<word]), toWidth: width).text)
                rest = Array(rest[word...].drop { $0 == " " })
                continue
            } else {
                // The first word alone is too wide: break it where it stops fitting (at least
                // one character, so the text always moves on).
                let word = rest.firstIndex(of: " ") ?? rest.count
                end = max(1, (lastFitting(word, width: width) { String(rest[...$0]) } ?? -1) + 1)
            }
            lines.append(String(rest[..<end]))
            rest = Array(rest[end...].drop { $0 == " " })
        }
        if !rest.isEmpty || lines.isEmpty { lines.append(truncate(String(rest), toWidth: width).text) }
        return lines
    }

    /// The last of `count` candidates, in order of growing width, whose text (`candidate`) fits
    /// in `width`, or `nil` when none does: found by doubling, then a binary search.
    private func lastFitting(_ count: Int, width: Double, _ candidate: (Int) -> String) -> Int? {
        func fits(_ index: Int) -> Bool { self.width(candidate(index)) <= width + 1e-9 }
        guard count > 0, fits(0) else { return nil }
        var low = 0
        var step = 1
        var high = count - 1
        while low + step <= high {
            if fits(low + step) {
                low += step
                step *= 2
            } else {
                high = low + step - 1
                break
            }
        }
        while low < high {
            let middle = (low + high + 1) / 2
            if fits(middle) { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
