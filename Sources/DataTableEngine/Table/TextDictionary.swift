import Foundation
import Synchronization

/// The different texts of a dictionary-coded text column (``ColumnStore/codes``), each kept once
/// with a code and the number of slots that hold it.
///
/// Code 0 is the empty text, always there and never counted. A text no slot holds any more is
/// freed at once and its code used again, so the dictionary never holds more texts than the
/// column has different values.
struct TextDictionary: Sendable {
    /// Each code's text ("" for code 0 and for free codes).
    private(set) var texts: [String] = [""]
    /// How many slots hold each code (code 0: not counted).
    private(set) var uses: [UInt32] = [0]
    /// The codes of the texts slots hold, found by their texts' bytes: two spellings of one
    /// character (a precomposed `é` and `e` with a combining accent), equal as Swift strings,
    /// are different texts of a column.
    private var codes = HashSlots()
    private var free: [UInt32] = []
    /// Bytes the texts keep outside their array slots (``ColumnStore/heapBytes(of:)``).
    private(set) var heapBytes = 0
    /// The texts' places in text order, once asked for; a new one when a text comes or goes
    /// after they were asked for or while a copy shares it (the copy keeps the old one, still
    /// right for it).
    private var ranking = Ranking()

    init() {}

    /// A dictionary of `texts` (code 0 must be ""; each text once) with the counts `uses`;
    /// texts used by no slot are freed.
    init(texts: [String], uses: [UInt32]) {
        precondition(texts.first == "" && texts.count == uses.count, "a dictionary starts with the empty text")
        self.texts = texts
        self.uses = uses
        codes.reserve(texts.count)
        for code in 1..<texts.count {
            if uses[code] == 0 {
                self.texts[code] = ""
                free.append(UInt32(code))
            } else {
                codes.insert(UInt32(code), hash: Self.hash(texts[code]))
                heapBytes += ColumnStore.heapBytes(of: texts[code])
            }
        }
    }

    /// Each code's place in the order of its text (``TextRanking``; free codes, whose text is
    /// "", among the empty ones): worked out on first use and kept until a text comes or goes,
    /// so that sorting by the column and listing its values again cost no sort of the texts.
    var places: [UInt64] { ranking.places(of: texts) }

    /// How many different texts (other than the empty one) slots hold.
    var count: Int { texts.count - 1 - free.count }

    /// The largest code a slot may hold now.
    var largestCode: UInt32 { UInt32(texts.count - 1) }

    /// The largest code a slot may hold once `more` texts the dictionary lacks are used (free
    /// codes are given again before new ones).
    func largestCode(adding more: Int) -> UInt32 {
        UInt32(clamping: texts.count - 1 + max(0, more - free.count))
    }

    /// Roughly the memory the dictionary holds: each text's slot, its bytes, its count and its
    /// entry in the table of codes.
    var estimatedBytes: Int { texts.count * (16 + 4 + 24) + heapBytes }

    /// The code of `text`, if a slot holds it ("" is 0).
    func code(of text: String) -> UInt32? {
        text.isEmpty ? 0 : codes.find(Self.hash(text)) { Self.spelled(texts[Int($0)], text) }
    }

    /// The code of `text` for `count` more slots, given a code first when no slot held it.
    mutating func use(_ text: String, count: UInt32 = 1) -> UInt32 {
        guard !text.isEmpty else { return 0 }
        let (code, added) = use(text, count: count, hash: Self.hash(text))
        if added { textsChanged() }
        return code
    }

    /// ``use(_:count:)`` for a text (not empty) whose hash is `hash`; says whether the text is
    /// new, for the caller to call ``textsChanged()``.
    private mutating func use(_ text: String, count: UInt32, hash: UInt64) -> (code: UInt32, added: Bool) {
        if let code = codes.find(hash, matches: { Self.spelled(texts[Int($0)], text) }) {
            uses[Int(code)] += count
            return (code, false)
        }
        let code: UInt32
        if let reused = free.popLast() {
            code = reused
            texts[Int(code)] = text
            uses[Int(code)] = count
        } else {
            code = UInt32(texts.count)
            texts.append(text)
            uses.append(count)
        }
        codes.insert(code, hash: hash)
        heapBytes += ColumnStore.heapBytes(of: text)
        return (code, true)
    }

    /// Every text `other` holds, with its count, as ``use(_:count:)`` takes them one by one;
    /// returns this dictionary's code for each of `other`'s codes (free ones: 0).
    ///
    /// The texts are hashed a block at a time and their buckets asked for before any is looked
    /// up: in a dictionary of many texts most lookups miss the cache, and this way the misses
    /// wait together.
    mutating func use(everyTextOf other: TextDictionary) -> [UInt32] {
        var codeFor = [UInt32](repeating: 0, count: other.texts.count)
        reserve(count + other.count)
        let block = 256
        var hashes = [UInt64](repeating: 0, count: block)
        var changed = false
        for start in stride(from: 1, to: other.texts.count, by: block) {
            let end = min(other.texts.count, start + block)
            for code in start..<end where other.uses[code] > 0 {
                let hash = Self.hash(other.texts[code])
                hashes[code - start] = hash
                codes.prefetch(hash)
            }
            for code in start..<end where other.uses[code] > 0 {
                let (mine, added) = use(other.texts[code], count: other.uses[code], hash: hashes[code - start])
                codeFor[code] = mine
                changed = changed || added
            }
        }
        if changed { textsChanged() }
        return codeFor
    }

    /// Makes room for `total` different texts without growing again (a merge that adds many).
    mutating func reserve(_ total: Int) {
        texts.reserveCapacity(total + 1)
        uses.reserveCapacity(total + 1)
        codes.reserve(total)
    }

    /// One slot fewer holds `code`; the text is freed when none does.
    mutating func release(_ code: UInt32) {
        guard code != 0 else { return }
        let index = Int(code)
        uses[index] -= 1
        guard uses[index] == 0 else { return }
        let text = texts[index]
        codes.remove(Self.hash(text), matches: { $0 == code })
        heapBytes -= ColumnStore.heapBytes(of: text)
        texts[index] = ""
        free.append(code)
        textsChanged()
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
        var counts = [UInt32](repeating: 0, count: texts.count)
        for code in codes { counts[Int(code)] += 1 }
        counts[0] = 0
        return TextDictionary(texts: texts, uses: counts)
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
            compactTexts.append(texts[Int(code)])
            counts.append(1)
            return mine
        }
        counts[0] = 0
        return (rewritten, TextDictionary(texts: compactTexts, uses: counts))
    }
}

extension TextDictionary {
    /// The hash of `text`'s bytes (``SeededHash``).
    fileprivate static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { SeededHash.bytes($0) }
    }

    /// Whether two texts are the same bytes.
    fileprivate static func spelled(_ left: String, _ right: String) -> Bool {
        var left = left
        var right = right
        return left.withUTF8 { left in
            right.withUTF8 { right in
                left.count == right.count
                    && (left.isEmpty || TextInterner.same(left.baseAddress!, right.baseAddress!, left.count))
            }
        }
    }
}

extension TextDictionary {
    /// The places of one set of texts, shared by the copies of a dictionary that hold them.
    fileprivate final class Ranking: Sendable {
        private let kept = Mutex<[UInt64]?>(nil)

        /// Whether places were worked out here.
        var holdsPlaces: Bool { kept.withLock { $0 != nil } }

        /// The places of `texts`, worked out on the first call (outside the lock: two first
        /// calls at once each work them out, and either result is kept).
        func places(of texts: [String]) -> [UInt64] {
            if let places = kept.withLock({ $0 }) { return places }
            let places = TextRanking.places(of: texts)
            kept.withLock { $0 = places }
            return places
        }
    }
}
