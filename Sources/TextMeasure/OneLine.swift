/// Text as one line shows it: a tab, line feed, carriage return, vertical tab or form feed is a
/// space. Cells are measured and drawn this way, so a line break typed into a one-line cell
/// neither reaches a terminal raw nor counts as no width.
public enum OneLine {
    /// Whether `byte` (UTF-8) is a control character one line shows as a space.
    @inline(__always)
    public static func isSpaceLike(_ byte: UInt8) -> Bool {
        byte >= 0x09 && byte <= 0x0D
    }

    /// `text` with each tab and line break as a space; `text` itself when it has none.
    public static func text(_ text: String) -> String {
        guard text.utf8.contains(where: isSpaceLike) else { return text }
        return String(decoding: text.utf8.map { isSpaceLike($0) ? 0x20 : $0 }, as: UTF8.self)
    }
}
