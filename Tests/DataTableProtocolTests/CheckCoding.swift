import Foundation
import Testing

/// Asserts that `value` encodes to exactly `json` (keys sorted) and that `json` decodes back to
/// `value`: the wire format is pinned in both directions.
func checkCoding<T: Codable & Equatable>(
    _ value: T,
    json: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let encoded = String(decoding: try encoder.encode(value), as: UTF8.self)
    #expect(encoded == json, sourceLocation: sourceLocation)
    let decoded = try JSONDecoder().decode(T.self, from: Data(json.utf8))
    #expect(decoded == value, sourceLocation: sourceLocation)
}
