import CMemoryHints
import Foundation

/// Gives each different text read into one column of a load chunk a code, keeping its bytes
/// once: a field is hashed and looked up straight from the input's bytes, so a text met again
/// makes no string. ``store(codes:)`` turns the codes into the chunk's store.
///
/// An open-addressed table of codes, probed linearly, kept at most half full, hashed by
/// ``SeededHash``.
struct TextInterner: Sendable {
    /// The bytes of every text, one after another.
    private var arena: [UInt8] = []
    /// Where each code's bytes end in ``arena`` (code 0, the empty text, ends at 0).
    private var ends: [Int] = [0]
    /// By place: a code in the low 32 bits and the high 32 bits of its text's hash above them,
    /// so that most texts that differ are told apart without reading them; 0 is a free place.
    private var table = [UInt64](repeating: 0, count: 1024)
    /// ``SeededHash/seed``, read once.
    private let seed = SeededHash.seed

    init() {}

    /// An interner with room for about `expected` different texts before its table grows.
    init(expecting expected: Int) {
        var size = 1024
        while size < (expected + 1) * 2 + 2 { size *= 2 }
        table = [UInt64](repeating: 0, count: size)
        ends.reserveCapacity(expected + 1)
    }

    /// How many codes there are, the empty text's included.
    var count: Int { ends.count }

    /// The code of the text spelled by `bytes` (valid UTF-8): a new one the first time.
    mutating func code(of bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard !bytes.isEmpty else { return 0 }
        return code(of: bytes, hash: hash(bytes))
    }

    /// The code of the text spelled by `bytes` (valid UTF-8, not empty), whose ``hash(_:)`` is
    /// `hash`.
    mutating func code(of bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> UInt32 {
        let mark = hash & 0xFFFF_FFFF_0000_0000
        let mask = table.count - 1
        var place = Int(truncatingIfNeeded: hash) & mask
        let found: UInt32? = table.withUnsafeBufferPointer { table in
            while true {
                let entry = table[place]
                if entry == 0 { return nil }
                if entry & 0xFFFF_FFFF_0000_0000 == mark, holds(UInt32(truncatingIfNeeded: entry), bytes) {
                    return UInt32(truncatingIfNeeded: entry)
                }
                place = (place + 1) & mask
            }
        }
        if let found { return found }
        let code = UInt32(ends.count)
        arena.append(contentsOf: bytes)
        ends.append(arena.count)
        table[place] = mark | UInt64(code)
        if ends.count * 2 > table.count { grow() }
        return code
    }

    /// Brings into the cache the place where ``code(of:hash:)`` will start looking for a text
    /// whose hash is `hash` (only a hint to the processor: nothing changes). Mutating only so
    /// that an interner held in an array is reached where it lies, not copied (a retain and
    /// release of each of its arrays).
    mutating func prefetch(hash: UInt64) {
        let place = Int(truncatingIfNeeded: hash) & (table.count - 1)
        table.withUnsafeBufferPointer { datatable_prefetch($0.baseAddress! + place) }
    }

    /// The code of `text`, as ``code(of:)-(UnsafeBufferPointer<UInt8>)`` gives it.
    mutating func code(of text: String) -> UInt32 {
        var text = text
        return text.withUTF8 { code(of: $0) }
    }

    /// Whether `code`'s bytes are `bytes`.
    private func holds(_ code: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = ends[Int(code) - 1]
        guard ends[Int(code)] - start == bytes.count else { return false }
        return arena.withUnsafeBufferPointer { arena in
            Self.same(UnsafeRawPointer(arena.baseAddress! + start), UnsafeRawPointer(bytes.baseAddress!), bytes.count)
        }
    }

    /// Whether the `count` bytes at `one` and at `other` are the same: most texts are short, and
    /// read here eight bytes at a time they are compared sooner than by a call to `memcmp`.
    @inline(__always)
    static func same(_ one: UnsafeRawPointer, _ other: UnsafeRawPointer, _ count: Int) -> Bool {
        if count > 32 { return memcmp(one, other, count) == 0 }
        var offset = 0
        while offset + 8 <= count {
            guard
                one.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == other.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < count {
            guard one.load(fromByteOffset: offset, as: UInt8.self) == other.load(fromByteOffset: offset, as: UInt8.self)
            else { return false }
            offset += 1
        }
        return true
    }

    /// Twice the places, each code placed again by its text's hash.
    private mutating func grow() {
        var grown = [UInt64](repeating: 0, count: table.count * 2)
        let mask = grown.count - 1
        arena.withUnsafeBufferPointer { arena in
            for code in 1..<ends.count {
                let start = ends[code - 1]
                let hashed = hash(UnsafeBufferPointer(rebasing: arena[start..<ends[code]]))
                var place = Int(truncatingIfNeeded: hashed) & mask
                while grown[place] != 0 { place = (place + 1) & mask }
                grown[place] = hashed & 0xFFFF_FFFF_0000_0000 | UInt64(code)
            }
        }
        table = grown
    }

    /// The hash of `bytes` (``SeededHash``).
    @inline(__always)
    func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 { SeededHash.bytes(bytes, seed: seed) }

    /// Whether every code's bytes are UTF-8 on their own (their bytes one after another may be
    /// UTF-8 when one text's last character is cut and the next one's bytes complete it).
    private var everyTextIsUTF8: Bool {
        arena.withUnsafeBufferPointer { arena in
            (1..<ends.count).allSatisfy {
                UTF8Check.isValid(UnsafeBufferPointer(rebasing: arena[ends[$0 - 1]..<ends[$0]]))
            }
        }
    }

    /// The text of every code, in code order; `nil` when `validating` and one is not UTF-8.
    private func texts(validating: Bool) -> [String]? {
        arena.withUnsafeBufferPointer { arena in
            var texts = [""]
            texts.reserveCapacity(ends.count)
            for code in 1..<ends.count {
                let bytes = UnsafeBufferPointer(rebasing: arena[ends[code - 1]..<ends[code]])
                if validating {
                    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
                    texts.append(text)
                } else {
                    texts.append(String(decoding: bytes, as: UTF8.self))
                }
            }
            return texts
        }
    }

    /// The store of a chunk whose slots hold `codes`: coded when its texts repeat (at most one
    /// different text for every two slots), else plain strings, since a dictionary of texts
    /// that do not repeat would only add to them; `coded`: coded whatever the texts. `nil` when `validating` and a text is not
    /// UTF-8 (else the bytes must have been checked already).
    func store(codes: [UInt32], validating: Bool = false, coded: Bool = false) -> ColumnStore? {
        if coded || (count - 1) * 2 <= codes.count {
            // The dictionary keeps the interner's bytes as they are: no string is made.
            if validating, !everyTextIsUTF8 { return nil }
            var uses = [UInt32](repeating: 0, count: count)
            for code in codes { uses[Int(code)] += 1 }
            return ColumnStore(codes: codes, dictionary: TextDictionary(arena: arena, ends: ends, uses: uses))
        }
        guard let texts = texts(validating: validating) else { return nil }
        return ColumnStore(type: .text, strings: codes.map { texts[Int($0)] })
    }
}
