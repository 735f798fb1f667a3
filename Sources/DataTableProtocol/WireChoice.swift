/// A member whose value is one of a fixed set of names on the wire (`unit`, `sizeClass`, a
/// column's `type`, …): a `String`-backed enum whose cases are the names, in the order an error
/// lists them.
///
/// A name outside the set is refused while the params are decoded: the decoding throws
/// ``UnknownChoice``, which the server answers as the error the member has always had (its
/// ``unknownNameKind``, its ``unknownNameMessage(_:field:)`` and its path in `data.field`).
/// `help` describes such a member as a `string` and lists its names.
public protocol WireChoice: RawRepresentable, Codable, Hashable, Sendable, CaseIterable
where RawValue == String {
    /// How a name outside the set is refused: `invalid_value` unless the type says otherwise.
    /// A member can refuse it otherwise (see
    /// `KeyedDecodingContainer.decodeIfPresent(_:forKey:refusingUnknownNamesAs:)`).
    static var unknownNameKind: ErrorKind { get }

    /// The sentence refusing `name` as the value of the member at `field` (`params.unit`); by
    /// default "`field` must be one of `names`."
    static func unknownNameMessage(_ name: String, field: String) -> String

    /// The value `name` stands for on the wire, `nil` when none does; by default the case whose
    /// raw value it is.
    init?(wireName name: String)
}

extension WireChoice {
    /// `invalid_value`.
    public static var unknownNameKind: ErrorKind { .invalidValue }

    /// "`field` must be one of `names`."
    public static func unknownNameMessage(_ name: String, field: String) -> String {
        "\(field) must be one of \(names.joined(separator: ", "))."
    }

    /// The case whose raw value `name` is.
    public init?(wireName name: String) { self.init(rawValue: name) }

    /// Every name, in order.
    public static var names: [String] { allCases.map(\.rawValue) }

    /// The first case: what `help`'s stand-in decoder reads for such a member.
    static var firstCase: Self? { allCases.first }

    /// Decodes the name; a name outside the set throws ``UnknownChoice``, one that is not a
    /// string the decoder's `typeMismatch` for `String`.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(wireName: name) else {
            throw UnknownChoice(Self.self, name: name, codingPath: decoder.codingPath)
        }
        self = value
    }
}

/// A name outside the set a member takes (see ``WireChoice``), thrown while params are decoded;
/// ``responseError(within:)`` is the error reply for it.
public struct UnknownChoice: Error, Sendable, CustomStringConvertible {
    /// The name given.
    public var name: String
    /// Where the member sits in the value being decoded: `to.align`, `columns[1].type`.
    public var path: String
    /// How it is refused: `invalid_params` or `invalid_value`.
    public var kind: ErrorKind
    /// The sentence refusing a name at a field.
    private let message: @Sendable (_ name: String, _ field: String) -> String

    /// A name outside the set of `Choice`, met at `codingPath`; refused as `Choice` says.
    public init<Choice: WireChoice>(_: Choice.Type, name: String, codingPath: [any CodingKey]) {
        self.init(
            name: name,
            codingPath: codingPath,
            kind: Choice.unknownNameKind,
            message: { name, field in Choice.unknownNameMessage(name, field: field) }
        )
    }

    /// A name outside a set of names, met at `codingPath`, refused as `kind` with `message`
    /// (which gets the name and the member's full path, like `params.events[1]`).
    public init(
        name: String,
        codingPath: [any CodingKey],
        kind: ErrorKind,
        message: @escaping @Sendable (_ name: String, _ field: String) -> String
    ) {
        self.name = name
        self.path = Self.path(codingPath)
        self.kind = kind
        self.message = message
    }

    /// The error reply: of ``kind``, its message naming the field, the field in `data.field`.
    /// `within` names the member the decoded value sat in (`params`, for params decoded on
    /// their own); a value decoded with the whole request has `params` in its path already.
    public func responseError(within: String? = nil) -> ResponseError {
        var field = within ?? ""
        if !path.isEmpty {
            field += field.isEmpty || path.hasPrefix("[") ? path : "." + path
        }
        if field.isEmpty { field = "params" }
        return ResponseError(
            code: .invalidParams,
            kind: kind,
            message: message(name, field),
            details: ["field": .string(field)]
        )
    }

    /// The message, with the path as the field.
    public var description: String { message(name, path) }

    /// A coding path as protocol errors write it: members after dots, array positions in
    /// brackets (`columns[1].type`). `JSONDecoder` names an array position "Index 1"; a
    /// dictionary's key that happens to be a number stays a member name.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }
}

extension KeyedDecodingContainer {
    /// The member's value as `decodeIfPresent` reads it, a name outside a ``WireChoice``'s set
    /// anywhere in it refused as `kind` instead of as its type says.
    public func decodeIfPresent<Value: Decodable>(
        _ type: Value.Type,
        forKey key: Key,
        refusingUnknownNamesAs kind: ErrorKind
    ) throws -> Value? {
        do {
            return try decodeIfPresent(type, forKey: key)
        } catch var error as UnknownChoice {
            error.kind = kind
            throw error
        }
    }
}

extension ParamsReader {
    /// One of `Choice`'s names; `nil` for anything else, a name outside the set included (the
    /// decoder then refuses it, as ``WireChoice`` says).
    public mutating func choice<Choice: WireChoice>(_: Choice.Type = Choice.self) -> Choice? {
        string().flatMap(Choice.init(wireName:))
    }
}
