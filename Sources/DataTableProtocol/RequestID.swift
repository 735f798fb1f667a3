import Foundation

/// A JSON-RPC request id, echoed unchanged in the reply.
///
/// JSON-RPC allows a string, a number or `null`. Whole numbers are kept as integers so that an id
/// of `7` is answered with `7`, not `7.0`.
public enum RequestID: Hashable, Sendable, Codable {
    /// A whole-number id that fits in 64 bits.
    case integer(Int64)
    /// Any other numeric id, as a `Double`.
    case number(Double)
    /// A number kept as the client wrote it, which a `Double` would not echo exactly (a whole
    /// number past 2^63, say).
    case exact(String)
    /// A string id.
    case string(String)
    /// `null`: the id sent, or the one a reply carries when the request had none or it could not
    /// be read.
    case null

    /// The id a JSON value stands for, or `nil` when JSON-RPC does not allow that value as an id
    /// (booleans, arrays, objects).
    public init?(_ value: JSONValue) {
        switch value {
        case .integer(let number): self = .integer(number)
        case .number(let number): self = .number(number)
        case .string(let text): self = .string(text)
        case .null: self = .null
        case .bool, .array, .object: return nil
        }
    }

    /// Decodes a string, number or `null`; any other JSON value throws a type mismatch.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        guard let id = RequestID(value) else {
            throw DecodingError.typeMismatch(
                RequestID.self,
                .init(codingPath: decoder.codingPath, debugDescription: "An id must be a string, a number or null.")
            )
        }
        self = id
    }

    /// Encodes the id as JSON; an ``exact(_:)`` id as the number its text holds, read as a `Decimal`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let number): try container.encode(number)
        case .number(let number): try container.encode(number)
        case .exact(let text):
            if let decimal = Decimal(string: text) {
                try container.encode(decimal)
            } else {
                try container.encode(Double(text) ?? 0)
            }
        case .string(let text): try container.encode(text)
        case .null: try container.encodeNil()
        }
    }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// An integer literal as an ``integer(_:)`` id.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A string literal as a ``string(_:)`` id.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension RequestID: CustomStringConvertible {
    /// The id as it appears in JSON.
    public var description: String {
        switch self {
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .exact(let text): text
        case .string(let text): "\"\(text)\""
        case .null: "null"
        }
    }
}
