/// Case-folded texts packed into one byte array, compared with `memcmp`.
struct FoldedTexts {
    private(set) var bytes: [UInt8] = []
    private(set) var starts: [Int] = [0]

    /// The text at `index`'s order key (``TextKey/prefix(_:)``): 0 for empty text, else a
    /// marker byte then its first seven folded bytes.
    func firstWord(_ index: Int) -> UInt64 {
        let start = starts[index]
        let end = min(start + 7, starts[index + 1])
        guard start < starts[index + 1] else { return 0 }
        var word: UInt64 = 1
        var position = start
        while position < end {
            word = word << 8 | UInt64(bytes[position])
            position += 1
        }
        return word << (8 * UInt64(7 - (end - start)))
    }

    /// Folded bytes 7 to 14 of the text at `index` (those after its order key's), big-endian,
    /// with zeros past its end: ordered as the texts are wherever they differ.
    func secondWord(_ index: Int) -> UInt64 { word(index, from: 7) }

    /// Folded bytes `offset` to `offset + 7` of the text at `index`, big-endian, with zeros past
    /// its end.
    func word(_ index: Int, from offset: Int) -> UInt64 {
        let start = starts[index] + offset
        let end = min(start + 8, starts[index + 1])
        var word: UInt64 = 0
        var position = start
        while position < end {
            word = word << 8 | UInt64(bytes[position])
            position += 1
        }
        return start < end ? word << (8 * UInt64(8 - (end - start))) : 0
    }

    /// How many folded bytes the text at `index` has.
    func length(_ index: Int) -> Int { starts[index + 1] - starts[index] }

    init(_ texts: [String]) {
        starts.reserveCapacity(texts.count + 1)
        bytes.reserveCapacity(texts.reduce(0) { $0 + $1.utf8.count })
        for text in texts {
            TextKey.appendFolded(text, to: &bytes)
            starts.append(bytes.count)
        }
    }
}
