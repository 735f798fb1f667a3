import Foundation
import Synchronization

/// The different texts of a dictionary-coded text column (``ColumnStore/codes``), each kept once
/// with a code and the number of slots that hold it.
///
/// Code 0 is the empty text, always there and never counted. A text no slot holds any more is
/// freed at once and its code used again, so the dictionary never holds more texts than the
/// column has different values.
struct TextDictionary: Sendable {
    /// Every text's bytes, one after another (a freed text's stay until ``compact()``).
    private var bytes: [UInt8] = []
    /// Where each code's bytes start in ``bytes``.
    private var starts: [Int] = [0]
    /// How many bytes each code's text has (0 for code 0 and for free codes).
    private var lengths: [UInt32] = [0]
    /// How many slots hold each code (code 0: not counted).
    private(set) var uses: [UInt32] = [0]
    /// The codes of the texts slots hold, found by their texts' bytes: two spellings of one
    /// character (a precomposed `é` and `e` with a combining accent), equal as Swift strings,
    /// are different texts of a column.
    private var codes = HashSlots()
    private var free: [UInt32] = []
    /// Bytes of ``bytes`` that belong to no text (freed ones).
    private var garbage = 0
    /// The texts' places in text order, once asked for; a new one when a text comes or goes
    /// after they were asked for or while a copy shares it (the copy keeps the old one, still
    /// right for it).
    private var ranking = Ranking()

    init() {}

    /// A dictionary of `texts` (code 0 must be ""; each text once) with the counts `uses`;
    /// texts used by no slot are freed.
    init(texts: [String], uses: [UInt32]) {
        precondition(texts.first == "" && texts.count == uses.count, "a dictionary starts with the empty text")
        var arena: [UInt8] = []
        var ends = [0]
        ends.reserveCapacity(texts.count)
        for text in texts {
            if !text.isEmpty { arena.append(contentsOf: text.utf8) }
            ends.append(arena.count)
        }
        ends.removeFirst()
        self.init(arena: arena, ends: ends, uses: uses)
    }

    /// A dictionary whose code `c` has the bytes of `arena` from `ends[c - 1]` to `ends[c]`
    /// (valid UTF-8; code 0 ends at 0; each text once), with the counts `uses`; texts used by
    /// no slot are freed. The arena is kept as it is: a load's texts become a dictionary with
    /// no string made.
    init(arena: [UInt8], ends: [Int], uses: [UInt32]) {
        precondition(ends.first == 0 && ends.count == uses.count, "a dictionary starts with the empty text")
        bytes = arena
        self.uses = uses
        starts = [Int](repeating: 0, count: ends.count)
        lengths = [UInt32](repeating: 0, count: ends.count)
        codes.reserve(ends.count)
        arena.withUnsafeBufferPointer { arena in
            for code in 1..<ends.count {
                let start = ends[code - 1]
                let length = ends[code] - start
                starts[code] = start
                if uses[code] == 0 {
                    free.append(UInt32(code))
                    garbage += length
                } else {
                    lengths[code] = UInt32(length)
                    let text = UnsafeBufferPointer(rebasing: arena[start..<ends[code]])
                    codes.insert(UInt32(code), hash: SeededHash.bytes(text))
                }
            }
        }
        self.uses[0] = 0
    }

    /// Each code's place in the order of its text (``TextRanking``; free codes, whose text is
    /// "", among the empty ones): worked out on first use and kept until a text comes or goes,
    /// so that sorting by the column and listing its values again cost no sort of the texts.
    var places: [UInt64] { ranking.places(of: self) }

    /// How many codes there are, free ones and the empty text's included: every code is below.
    var codeCount: Int { lengths.count }

    /// How many different texts (other than the empty one) slots hold.
    var count: Int { codeCount - 1 - free.count }

    /// The largest code a slot may hold now.
    var largestCode: UInt32 { UInt32(codeCount - 1) }

    /// The largest code a slot may hold once `more` texts the dictionary lacks are used (free
    /// codes are given again before new ones).
    func largestCode(adding more: Int) -> UInt32 {
        UInt32(clamping: codeCount - 1 + max(0, more - free.count))
    }

    /// Roughly the memory the dictionary holds: the texts' bytes, and per code where they lie,
    /// its count and its entry in the table of codes.
    var estimatedBytes: Int { bytes.capacity + codeCount * (8 + 4 + 4 + 12) }

    /// The text with `code` ("" for code 0 and free codes), made from its bytes.
    func text(of code: Int) -> String {
        bytes.withUnsafeBufferPointer { bytes in Self.text(in: bytes, from: starts[code], count: Int(lengths[code])) }
    }

    /// The texts with `codes`, in their order. Where each text lies is read for every code
    /// first, in a loop of loads alone (the codes of rows far apart are far apart too, and
    /// their cache misses then overlap), and the texts are made after.
    func texts(of codes: [UInt32]) -> [String] {
        let places = codes.map { code in (start: starts[Int(code)], count: Int(lengths[Int(code)])) }
        return bytes.withUnsafeBufferPointer { bytes in
            places.map { Self.text(in: bytes, from: $0.start, count: $0.count) }
        }
    }

    /// The text of `count` bytes from `start` of the arena.
    private static func text(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> String {
        guard count > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + count]), as: UTF8.self)
    }

    /// Every code's text, in code order: O(texts), for work that reads each one.
    var allTexts: [String] { (0..<codeCount).map(text(of:)) }

    /// Calls `body` with the bytes of `code`'s text (empty for code 0 and free codes).
    func withBytes<Result>(of code: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { bytes in
            try body(UnsafeBufferPointer(rebasing: bytes[starts[code]..<starts[code] + Int(lengths[code])]))
        }
    }

    /// Whether `code`'s text is the bytes `text`.
    private func holds(_ code: UInt32, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let index = Int(code)
        guard Int(lengths[index]) == text.count else { return false }
        guard !text.isEmpty else { return true }
        return bytes.withUnsafeBufferPointer { bytes in
            TextInterner.same(bytes.baseAddress! + starts[index], text.baseAddress!, text.count)
        }
    }

    /// The code of `text`, if a slot holds it ("" is 0).
    func code(of text: String) -> UInt32? {
        guard !text.isEmpty else { return 0 }
        var text = text
        return text.withUTF8 { text in codes.find(SeededHash.bytes(text)) { holds($0, text) } }
    }

    /// The code of `text` for `count` more slots, given a code first when no slot held it.
    mutating func use(_ text: String, count: UInt32 = 1) -> UInt32 {
        guard !text.isEmpty else { return 0 }
        var text = text
        let (code, added) = text.withUTF8 { text in use(text, count: count, hash: SeededHash.bytes(text)) }
        if added { textsChanged() }
        return code
    }

    /// ``use(_:count:)`` for the bytes of a text (not empty) whose hash is `hash`; says whether
    /// the text is new, for the caller to call ``textsChanged()``.
    private mutating func use(_ text: UnsafeBufferPointer<UInt8>, count: UInt32, hash: UInt64) -> (
        code: UInt32, added: Bool
    ) {
        if let code = codes.find(hash, matches: { holds($0, text) }) {
            uses[Int(code)] += count
            return (code, false)
        }
        let code: UInt32
        if let reused = free.popLast() {
            code = reused
        } else {
            code = UInt32(codeCount)
            starts.append(0)
            lengths.append(0)
            uses.append(0)
        }
        starts[Int(code)] = bytes.count
        lengths[Int(code)] = UInt32(text.count)
        uses[Int(code)] = count
        bytes.append(contentsOf: text)
        codes.insert(code, hash: hash)
        return (code, true)
    }

    /// Every text `other` holds, with its count, as ``use(_:count:)`` takes them one by one;
    /// returns this dictionary's code for each of `other`'s codes (free ones: 0).
    ///
    /// The texts are hashed a block at a time and their buckets asked for before any is looked
    /// up: in a dictionary of many texts most lookups miss the cache, and this way the misses
    /// wait together.
    mutating func use(everyTextOf other: TextDictionary) -> [UInt32] {
        var codeFor = [UInt32](repeating: 0, count: other.codeCount)
        reserve(count + other.count, bytes: other.bytes.count - other.garbage)
        let block = 256
        var hashes = [UInt64](repeating: 0, count: block)
        var changed = false
        other.bytes.withUnsafeBufferPointer { otherBytes in
            func text(_ code: Int) -> UnsafeBufferPointer<UInt8> {
                let start = other.starts[code]
                return UnsafeBufferPointer(rebasing: otherBytes[start..<start + Int(other.lengths[code])])
            }
            for start in stride(from: 1, to: other.codeCount, by: block) {
                let end = min(other.codeCount, start + block)
                for code in start..<end where other.uses[code] > 0 {
                    let hash = SeededHash.bytes(text(code))
                    hashes[code - start] = hash
                    codes.prefetch(hash)
                }
                for code in start..<end where other.uses[code] > 0 {
                    let (mine, added) = use(text(code), count: other.uses[code], hash: hashes[code - start])
                    codeFor[code] = mine
                    changed = changed || added
                }
            }
        }
        if changed { textsChanged() }
        return codeFor
    }

    /// Makes room for `total` different texts of `byteCount` bytes in all without growing
    /// again (a merge that adds many).
    mutating func reserve(_ total: Int, bytes byteCount: Int = 0) {
        starts.reserveCapacity(total + 1)
        lengths.reserveCapacity(total + 1)
        uses.reserveCapacity(total + 1)
        bytes.reserveCapacity(bytes.count + byteCount)
        codes.reserve(total)
    }

    /// One slot fewer holds `code`; the text is freed when none does.
    mutating func release(_ code: UInt32) {
        guard code != 0 else { return }
        let index = Int(code)
        uses[index] -= 1
        guard uses[index] == 0 else { return }
        let hash = withBytes(of: index) { SeededHash.bytes($0) }
        codes.remove(hash, matches: { $0 == code })
        garbage += Int(lengths[index])
        lengths[index] = 0
        free.append(code)
        textsChanged()
        if garbage > 4096, garbage * 2 > bytes.count { compact() }
    }

    /// Writes the texts slots hold one after another again, leaving out the bytes of freed
    /// ones: O(bytes held), once at least half the bytes are freed ones, so O(1) for each text
    /// freed over time. Codes do not change.
    private mutating func compact() {
        var packed: [UInt8] = []
        packed.reserveCapacity(bytes.count - garbage)
        bytes.withUnsafeBufferPointer { bytes in
            for code in 1..<codeCount {
                let start = starts[code]
                starts[code] = packed.count
                packed.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<start + Int(lengths[code])]))
            }
        }
        bytes = packed
        garbage = 0
    }

    /// A text came or went: the places kept are wrong now, unless none are kept and no copy
    /// could keep them for its own texts (then the one ranking is kept, not made again for
    /// each of the texts a merge adds).
    private mutating func textsChanged() {
        if !isKnownUniquelyReferenced(&ranking) || ranking.holdsPlaces { ranking = Ranking() }
    }

    /// This dictionary's texts with their counts taken from `codes`: the dictionary of a store
    /// holding only those slots.
    func recounted(_ codes: [UInt32]) -> TextDictionary {
        var counts = [UInt32](repeating: 0, count: codeCount)
        for code in codes { counts[Int(code)] += 1 }
        counts[0] = 0
        return TextDictionary(texts: allTexts, uses: counts)
    }

    /// The texts of `codes` alone, numbered afresh in the order they first appear, and `codes`
    /// rewritten to those numbers: the dictionary of a store holding only those slots, made
    /// in O(`codes`) however many texts this one holds.
    func compacted(_ codes: [UInt32]) -> (codes: [UInt32], dictionary: TextDictionary) {
        var renumbered: [UInt32: UInt32] = [0: 0]
        var compactTexts = [""]
        var counts: [UInt32] = [0]
        let rewritten = codes.map { code in
            if let mine = renumbered[code] {
                counts[Int(mine)] += 1
                return mine
            }
            let mine = UInt32(compactTexts.count)
            renumbered[code] = mine
            compactTexts.append(text(of: Int(code)))
            counts.append(1)
            return mine
        }
        counts[0] = 0
        return (rewritten, TextDictionary(texts: compactTexts, uses: counts))
    }
}

extension TextDictionary {
    /// The places of one set of texts, shared by the copies of a dictionary that hold them.
    fileprivate final class Ranking: Sendable {
        private let kept = Mutex<[UInt64]?>(nil)

        /// Whether places were worked out here.
        var holdsPlaces: Bool { kept.withLock { $0 != nil } }

        /// The places of `dictionary`'s texts, worked out on the first call (outside the lock:
        /// two first calls at once each work them out, and either result is kept).
        func places(of dictionary: TextDictionary) -> [UInt64] {
            if let places = kept.withLock({ $0 }) { return places }
            let places = TextRanking.places(of: dictionary.allTexts)
            kept.withLock { $0 = places }
            return places
        }
    }
}
