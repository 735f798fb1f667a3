import CRegex

/// A regular expression for the filter operator `matches`, in RE2's syntax: matching takes time
/// linear in the text whatever the pattern (no backtracking, so no pattern can make a filter of a
/// million rows cost more than a plain one). Features that need backtracking (back-references,
/// look-around) are refused when the pattern is compiled.
///
/// A pattern matches when it is found anywhere in the text (anchor it with `^` and `$` for the
/// whole text); case counts unless the pattern starts with `(?i)`.
public final class TextPattern: Sendable, Equatable {
    /// The pattern as given.
    public let source: String
    /// The compiled expression. RE2 expressions are immutable once compiled and may be matched
    /// from several threads at once, so sharing one between copies of a filter is safe.
    private nonisolated(unsafe) let compiled: OpaquePointer

    /// The longest pattern taken, in UTF-8 bytes.
    public static let maximumLength = 4096
    /// The most memory a compiled pattern may take (RE2's own default).
    static let memoryLimit: Int64 = 8 << 20

    /// Compiles `source`; a pattern RE2 cannot compile, or one longer than
    /// ``maximumLength``, throws the reason.
    public init(_ source: String) throws(ValidationFailure) {
        guard source.utf8.count <= Self.maximumLength else {
            throw ValidationFailure("A pattern is at most \(Self.maximumLength) bytes.")
        }
        var error = [CChar](repeating: 0, count: 256)
        var text = source
        let compiled = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { pattern in
                datatabled_regex_compile(pattern.baseAddress, pattern.count, Self.memoryLimit, &error, error.count)
            }
        }
        guard let compiled else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ValidationFailure("Not a pattern this filter takes: \(reason).")
        }
        self.source = source
        self.compiled = compiled
    }

    deinit { datatabled_regex_free(compiled) }

    /// Whether the pattern is found in the UTF-8 `text`.
    func finds(in text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.withMemoryRebound(to: CChar.self) { datatabled_regex_finds(compiled, $0.baseAddress, $0.count) != 0 }
    }

    /// Whether the pattern is found in `text`.
    func finds(in text: String) -> Bool {
        var text = text
        return text.withUTF8 { finds(in: $0) }
    }

    public static func == (left: TextPattern, right: TextPattern) -> Bool { left.source == right.source }
}
