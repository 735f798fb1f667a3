import TestSupport
import Testing

@testable import DataTableEngine

/// The hash the load's text codes and the key index look texts up by: it reads a text's bytes
/// and nothing around them, and a change to any one of them changes it.
@Suite struct SeededHashTests {
    @Test func aTextHashesTheSameWhereverItLiesAndDiffersInAnyByte() {
        var random = SeededRandom(seed: 5)
        for length in 0...40 {
            let text = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let alone = text.withUnsafeBufferPointer { SeededHash.bytes($0) }
            for padding in 0..<9 {
                let around = (0..<(padding + 9)).map { _ in UInt8.random(in: 0...255, using: &random) }
                let inside = Array(around.prefix(padding)) + text + Array(around.dropFirst(padding))
                let hash = inside.withUnsafeBufferPointer {
                    SeededHash.bytes(UnsafeBufferPointer(rebasing: $0[padding..<(padding + length)]))
                }
                #expect(hash == alone, "length \(length), \(padding) bytes before")
            }
            for position in 0..<length {
                var changed = text
                changed[position] ^= UInt8.random(in: 1...255, using: &random)
                #expect(
                    changed.withUnsafeBufferPointer { SeededHash.bytes($0) } != alone,
                    "length \(length) at \(position)"
                )
            }
            #expect((text + [0]).withUnsafeBufferPointer { SeededHash.bytes($0) } != alone, "length \(length) and a 0")
        }
    }

    /// A looked-up text is told from one stored under the same part of its hash by its bytes.
    @Test func textsAreComparedByEveryByte() {
        for length in 0...40 {
            let text = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            for position in 0..<length {
                var other = text
                other[position] &+= 1
                let same = text.withUnsafeBytes { one in
                    other.withUnsafeBytes { TextInterner.same(one.baseAddress!, $0.baseAddress!, length) }
                }
                #expect(!same, "length \(length) at \(position)")
            }
            let copy = Array(text)
            if length > 0 {
                let same = text.withUnsafeBytes { one in
                    copy.withUnsafeBytes { TextInterner.same(one.baseAddress!, $0.baseAddress!, length) }
                }
                #expect(same, "length \(length)")
            }
        }
    }
}
