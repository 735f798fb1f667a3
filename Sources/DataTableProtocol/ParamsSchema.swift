/// The params a request type takes, read from its own `Decodable` conformance: the type is
/// decoded once from a decoder that answers every question with a stand-in value and writes down
/// each member asked for, its type, whether it may be left out, and for a member that is one of
/// a fixed set of names (a ``WireChoice``) the names. So `help` describes exactly what the
/// daemon reads, with no second list to keep.
public struct ParamsSchema: Sendable, Hashable {
    /// One param.
    public struct Param: Sendable, Hashable, Codable {
        /// The member's name in the params object.
        public var name: String
        /// `string`, `integer`, `number`, `boolean`, `array`, `object` or `any`; an object's
        /// members follow in parentheses when the type says what they are.
        public var type: String
        /// Whether a request must give it; `false` when it may be left out.
        public var required: Bool
        /// For a string that must be one of a fixed set of names (``WireChoice``): the names;
        /// absent otherwise.
        public var values: [String]?
        /// One line about it: the first sentence of the doc comment on the request type's member
        /// (``meanings``); absent when there is none.
        public var meaning: String?
    }

    /// The top-level params, in the order the request type reads them; an object's members are named
    /// in its ``Param/type`` only.
    public var params: [Param]

    /// The params of `Request`.
    public init<Request: Decodable>(of _: Request.Type) {
        let recorder = Recorder()
        _ = try? Request(from: SchemaDecoder(recorder: recorder, path: []))
        params = recorder.members(at: [])
    }

    /// The params of the method `Request`, each with its meaning.
    public init<Request: DataTableRequest>(ofMethod _: Request.Type) {
        self.init(of: Request.self)
        let meanings = Self.meanings[Request.method] ?? [:]
        for index in params.indices { params[index].meaning = meanings[params[index].name] }
    }
}

/// What the stand-in decoder was asked, member by member.
private final class Recorder {
    struct Member {
        var path: [String]
        var type: String
        var required: Bool
        var values: [String]?
    }

    var members: [Member] = []
    /// Members the type asked "is it null?" about first: the way `decodeIfPresent` of a plain
    /// value starts, so those may be left out.
    var optional: Set<[String]> = []

    func record(_ path: [String], type: String, required: Bool, values: [String]?) {
        let required = required && !optional.contains(path)
        if let index = members.firstIndex(where: { $0.path == path }) {
            members[index].required = members[index].required && required
            if members[index].type == "object" { members[index].type = type }
        } else {
            members.append(Member(path: path, type: type, required: required, values: values))
        }
    }

    /// The members directly under `path`, objects with their own members named.
    func members(at path: [String]) -> [ParamsSchema.Param] {
        members.filter { $0.path.count == path.count + 1 && Array($0.path.dropLast()) == path }.map { member in
            let inner = members(at: member.path)
            let type = inner.isEmpty ? member.type : "object (\(inner.map(\.name).joined(separator: ", ")))"
            return ParamsSchema.Param(
                name: member.path.last!,
                type: type,
                required: member.required,
                values: inner.isEmpty ? member.values : nil
            )
        }
    }
}

/// The JSON type name of a Swift type, as far as a stand-in can tell.
private func typeName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "string"
    case is Int.Type, is Int64.Type, is Int32.Type, is UInt32.Type, is UInt64.Type: "integer"
    case is Double.Type, is Float.Type: "number"
    case is Bool.Type: "boolean"
    case is JSONValue.Type: "any"
    case is any WireChoice.Type: "string"
    default:
        String(describing: type).hasPrefix("Array") ? "array" : "object"
    }
}

private struct SchemaDecoder: Decoder {
    let recorder: Recorder
    let path: [String]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(SchemaKeyed<Key>(recorder: recorder, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { EmptyUnkeyed() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { StandIn() }
}

private struct SchemaKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: Recorder
    let path: [String]
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool {
        recorder.optional.insert(path + [key.stringValue])
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try value(type, key, required: true)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try value(type, key, required: false)
    }

    private func value<T: Decodable>(_ type: T.Type, _ key: Key, required: Bool) throws -> T {
        let memberPath = path + [key.stringValue]
        let choice = type as? any WireChoice.Type
        recorder.record(memberPath, type: typeName(type), required: required, values: choice?.names)
        if let standIn = StandIn.value(of: type) { return standIn }
        // A choice stands in as its first name (decoding "" would throw).
        if let first = choice?.firstCase as? T { return first }
        return try T(from: SchemaDecoder(recorder: recorder, path: memberPath))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(SchemaKeyed<NestedKey>(recorder: recorder, path: path + [key.stringValue]))
    }

    func nestedUnkeyedContainer(forKey _: Key) throws -> any UnkeyedDecodingContainer { EmptyUnkeyed() }
    func superDecoder() throws -> any Decoder { SchemaDecoder(recorder: recorder, path: path) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        SchemaDecoder(recorder: recorder, path: path + [key.stringValue])
    }
}

/// An array with nothing in it: the stand-in for every list.
private struct EmptyUnkeyed: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { true }
    mutating func decode<T: Decodable>(_: T.Type) throws -> T {
        throw DecodingError.valueNotFound(T.self, .init(codingPath: [], debugDescription: "a stand-in"))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "a stand-in"))
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { self }
    mutating func superDecoder() throws -> any Decoder {
        throw DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "a stand-in"))
    }
}

/// A single value: whatever is asked for, in its plainest form.
private struct StandIn: SingleValueDecodingContainer {
    var codingPath: [any CodingKey] { [] }

    static func value<T>(of _: T.Type) -> T? {
        switch T.self {
        case is String.Type: "" as? T
        case is Int.Type: 0 as? T
        case is Int64.Type: Int64(0) as? T
        case is Int32.Type: Int32(0) as? T
        case is UInt32.Type: UInt32(0) as? T
        case is UInt64.Type: UInt64(0) as? T
        case is Double.Type: 0.0 as? T
        case is Float.Type: Float(0) as? T
        case is Bool.Type: false as? T
        case is JSONValue.Type: JSONValue.null as? T
        default: nil
        }
    }

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let value = Self.value(of: type) else {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: [], debugDescription: "a stand-in"))
        }
        return value
    }
}
