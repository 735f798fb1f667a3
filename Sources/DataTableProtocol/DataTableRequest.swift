/// One protocol method: its params type (the conforming type) and its reply.
///
/// Each method lives in its own file under `Requests/`, is listed in ``MethodRegistry/all`` and is
/// documented in protocol.md. Absent optional members take their defaults; a member the type
/// does not read is refused by the server (`KnownParams`), unless the connection asked for
/// leniency in `hello`.
public protocol DataTableRequest: Codable, Sendable {
    /// What the `result` member of a successful reply holds.
    associatedtype Response: Codable & Sendable

    /// The `method` string on the wire.
    static var method: String { get }

    /// One line for `help`.
    static var summary: String { get }

    /// Refuses params whose members do not go together ("row or rows, not both"), before the
    /// request is carried out; each member's own type and value are checked where it is read.
    func validate() throws(ResponseError)

    /// The params read straight from the bytes of the params object, without `JSONDecoder`, or
    /// `nil` when they must be decoded (the default; see ``ReadableParams``). Being a
    /// requirement, it is called on a request type without a cast.
    static func readParams(_ bytes: UnsafeRawBufferPointer) -> Self?
}

extension DataTableRequest {
    /// `nil`: by default the params are decoded with `JSONDecoder`.
    public static func readParams(_ bytes: UnsafeRawBufferPointer) -> Self? { nil }
}

/// Params of a method that takes none.
public protocol ParameterlessRequest: DataTableRequest {
    /// The request, which has no members: absent, `null` or `{}` params all read as this.
    init()
}

extension ParameterlessRequest {
    /// There is nothing to read.
    public static func readParams(_ bytes: UnsafeRawBufferPointer) -> Self? { Self() }
}

extension DataTableRequest {
    /// Most requests' members go together in any combination.
    public func validate() throws(ResponseError) {}
}
