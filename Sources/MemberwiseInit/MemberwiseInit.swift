/// Gives a struct the initialiser the compiler would write for it, with the struct's own access
/// level (`public` on a public struct), which the compiler's own memberwise initialiser never has.
///
/// One parameter per stored property, in declaration order, each labelled with the property's
/// name. Like the compiler's: a `var` with an initial value takes it as its default, an optional
/// `var` without one defaults to `nil`, and a `let` with an initial value is left out. Computed
/// properties and `static` ones are not parameters.
///
/// ```swift
/// @MemberwiseInit
/// public struct Span: Codable {
///     public var from: Int
///     public var count: Int?
/// }
/// // public init(from: Int, count: Int? = nil) { self.from = from; self.count = count }
/// ```
@attached(member, names: named(init))
public macro MemberwiseInit() = #externalMacro(module: "MemberwiseInitMacros", type: "MemberwiseInitMacro")
