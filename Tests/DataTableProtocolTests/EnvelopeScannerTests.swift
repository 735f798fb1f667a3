import Foundation
import TestSupport
import Testing

@testable import DataTableProtocol

/// The envelope scanner reads what `JSONDecoder` reads, or leaves the line to it: every header
/// it returns must equal the decoder's, on hand-picked lines and on random and damaged ones.
@Suite struct EnvelopeScannerTests {
    /// The decoder's header, or `nil` when it refuses the line.
    static func decoded(_ line: String) -> RequestHeader? {
        try? JSONDecoder().decode(RequestHeader.self, from: Data(line.utf8))
    }

    static func agrees(_ line: String) -> Bool {
        guard let scanned = EnvelopeScanner.header(Data(line.utf8)) else { return true }
        return decoded(line) == scanned
    }

    @Test(arguments: [
        #"{"method":"ping"}"#,
        #"{"jsonrpc":"2.0","id":7,"method":"ping","params":{}}"#,
        #" { "id" : -42 , "method" : "get" , "params" : { "table" : "stock" , "ids" : [ 1 , 2.5e3 , "x" ] } } "#,
        #"{"id":"abc","method":"add","params":{"table":"t","row":{"a":"caf\u00e9"}}}"#,
        #"{"id":null,"method":"ping","params":null}"#,
        #"{"method":null,"jsonrpc":null}"#,
        #"{"id":true,"method":5}"#,
        #"{"params":[1,2],"method":"x"}"#,
        #"{"params":"s"}"#,
        #"{"params":false}"#,
        #"{"params":-0.5e-3}"#,
        #"{"extra":{"deep":[[[{"a":[true,false,null]}]]]},"method":"ping"}"#,
        #"{}"#,
        #"{"method":"pi\nng"}"#,
        #"{"method":"ping","method":"stats"}"#,
        #"{"id":1.5,"method":"ping"}"#,
        #"{"id":-0,"method":"ping"}"#,
        #"{"id":12345678901234567890,"method":"ping"}"#,
        #"{"method":"ping",}"#,
        #"{"method":"ping"} x"#,
        #"{"method":"ping""#,
        #"{"method":"ping","params":{"a":01}}"#,
        #"{"method":"ping","params":{"a":1.}}"#,
        #"{"method":"ping","params":{"a":"\x"}}"#,
        #"{"method":"ping","params":{"a":tru}}"#,
        #"{"method":"caf\u00e9"}"#,
        #"{"méthode":"ping","method":"ping"}"#,
    ])
    func agreesWithTheDecoder(line: String) {
        #expect(Self.agrees(line), "\(line)")
    }

    /// The lines clients send most are read without the decoder.
    @Test func commonRequestsAreReadHere() {
        for line in [
            #"{"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"table":"stock","ids":["SKU-1"],"columns":["qty"]}}"#,
            #"{"id":"r2","method":"scroll","params":{"table":"stock","unit":"cell","viewport":{"width":80,"height":6}}}"#,
        ] {
            #expect(EnvelopeScanner.header(Data(line.utf8)) != nil, "\(line)")
            #expect(Self.agrees(line))
        }
        #expect(EnvelopeScanner.header(Data(#"{"method":"ping"} x"#.utf8)) == nil)
    }

    /// Random requests, then the same requests cut short and with bytes changed.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func agreesOnRandomAndDamagedLines(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var read = 0
        for _ in 0..<3000 {
            let line = Array(Self.request(&random).utf8)
            var variants = [line]
            variants.append(Array(line.prefix(Int.random(in: 0...line.count, using: &random))))
            var changed = line
            for _ in 0..<Int.random(in: 1...3, using: &random) where !changed.isEmpty {
                let alphabet = Array(#"{}[]":,\ 0123456789.eE+-truefalsnl"#.utf8) + [0x00, 0x1F, 0xC3, 0xA9]
                changed[Int.random(in: 0..<changed.count, using: &random)] = alphabet.randomElement(using: &random)!
            }
            variants.append(changed)
            for variant in variants {
                guard let text = String(validating: variant, as: UTF8.self) else { continue }
                if EnvelopeScanner.header(Data(variant)) != nil { read += 1 }
                #expect(Self.agrees(text), "\(text)")
            }
        }
        #expect(read > 1500, "the scanner read only \(read) of the lines")
    }

    static func request(_ random: inout SeededRandom) -> String {
        var members: [String] = []
        if Bool.random(using: &random) { members.append(#""jsonrpc":"2.0""#) }
        if Bool.random(using: &random) { members.append(#""id":\#(value(&random, depth: 3))"#) }
        if Int.random(in: 0..<5, using: &random) > 0 {
            members.append(#""method":\#(Bool.random(using: &random) ? "\"ping\"" : value(&random, depth: 3))"#)
        }
        if Bool.random(using: &random) { members.append(#""params":\#(value(&random, depth: 0))"#) }
        if Int.random(in: 0..<4, using: &random) == 0 { members.append(#""other":\#(value(&random, depth: 0))"#) }
        members.shuffle(using: &random)
        let space = [" ", "", "", "\t"].randomElement(using: &random)!
        return "{" + space + members.joined(separator: space + "," + space) + space + "}"
    }

    static func value(_ random: inout SeededRandom, depth: Int) -> String {
        switch Int.random(in: 0..<(depth > 4 ? 6 : 8), using: &random) {
        case 0: return "null"
        case 1: return Bool.random(using: &random) ? "true" : "false"
        case 2: return String(Int64.random(in: -1_000_000...1_000_000, using: &random))
        case 3: return ["1.5", "-0.25e2", "1E9", "0", "-0", "123456789012345678901"].randomElement(using: &random)!
        case 4:
            return ["\"s\"", "\"\"", "\"a\\\"b\"", "\"caf\\u00e9\"", "\"tab\\t\"", "\"é\""].randomElement(
                using: &random
            )!
        case 5: return "\"x\(Int.random(in: 0..<100, using: &random))\""
        case 6:
            let count = Int.random(in: 0..<4, using: &random)
            return "[" + (0..<count).map { _ in value(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            let count = Int.random(in: 0..<4, using: &random)
            return "{"
                + (0..<count).map { index in "\"k\(index)\":" + value(&random, depth: depth + 1) }
                .joined(separator: ",") + "}"
        }
    }
}
