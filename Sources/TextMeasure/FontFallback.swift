import CHarfBuzz
import Synchronization

/// Characters a face lacks are measured with a face that has them, as a text renderer draws
/// them: for each such character fontconfig names the fonts whose charset holds it (best
/// first), and the first that opens takes the run of characters it covers.
///
/// Fallback faces are opened once for the whole process and shared; each face remembers which
/// ones it fell back to, so a layout can name them.
final class FontFallback: Sendable {
    /// Fallback faces by file and index, shared by every face.
    private static let opened = Mutex<[String: FontFace]>([:])

    /// What was found for a character this face lacks: a fallback face, or none.
    private let chosen = Mutex<[UInt32: FontFace?]>([:])

    /// The fallback faces used so far, in the order they were first used.
    var used: [FontFace] {
        chosen.withLock { chosen in
            var seen: Set<String> = []
            return chosen.values.compactMap { $0 }.filter { seen.insert($0.identity).inserted }
                .sorted { $0.identity < $1.identity }
        }
    }

    /// The face to measure `scalar` with when the face lacks it; `nil` when no installed font has
    /// it (the face's own "missing glyph" box is measured then).
    func face(for scalar: UInt32) -> FontFace? {
        if let known = chosen.withLock({ $0[scalar] }) { return known }
        // A face already chosen for another character may have this one too: most text needs one.
        let reused = chosen.withLock { chosen in
            chosen.values.compactMap { $0 }.first { $0.has(scalar) }
        }
        let face = reused ?? Self.open(FontLocator.covering(scalar))
        chosen.withLock { $0[scalar] = face }
        return face
    }

    /// The first of `candidates` that opens (a fontconfig font outside the font directories, or
    /// one HarfBuzz cannot read, is skipped).
    private static func open(_ candidates: [FontLocator.Located]) -> FontFace? {
        for candidate in candidates {
            let key = "\(candidate.path)#\(candidate.index)"
            if let face = opened.withLock({ $0[key] }) { return face }
            guard
                let face = try? FontFace(
                    path: candidate.path,
                    index: candidate.index,
                    family: candidate.family,
                    style: candidate.style,
                    fallingBack: false
                )
            else { continue }
            return opened.withLock { opened in
                if let raced = opened[key] { return raced }
                opened[key] = face
                return face
            }
        }
        return nil
    }
}
