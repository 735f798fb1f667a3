import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Expands `@MemberwiseInit`: see its declaration in the `MemberwiseInit` module.
public struct MemberwiseInitMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let structure = declaration.as(StructDeclSyntax.self) else {
            throw unsupported(node, "@MemberwiseInit applies to a struct")
        }
        let members = try storedProperties(of: structure)
        let access = structure.modifiers.first { modifier in
            [.keyword(.public), .keyword(.package)].contains(modifier.name.tokenKind)
        }
        let accessPrefix = access.map { "\($0.name.text) " } ?? ""
        let parameters = members.map(\.parameter).joined(separator: ", ")
        let assignments = members.map { "self.\($0.name) = \($0.name)" }.joined(separator: "\n")
        return ["\(raw: accessPrefix)init(\(raw: parameters)) {\n\(raw: assignments)\n}"]
    }

    /// A stored property that becomes a parameter.
    struct Member {
        /// The property's name as written (with backticks where it is a keyword).
        var name: String
        /// `name: Type` with its default, if any.
        var parameter: String
    }

    /// The stored instance properties the initialiser sets, in declaration order.
    static func storedProperties(of structure: StructDeclSyntax) throws -> [Member] {
        var members: [Member] = []
        for item in structure.memberBlock.members {
            guard let variable = item.decl.as(VariableDeclSyntax.self),
                !variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
            else { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            for binding in variable.bindings where isStored(binding) {
                if isLet && binding.initializer != nil { continue }
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier else {
                    throw unsupported(binding.pattern, "@MemberwiseInit needs one name per stored property")
                }
                guard let type = binding.typeAnnotation?.type.trimmed else {
                    throw unsupported(binding, "@MemberwiseInit needs a type on '\(identifier.text)'")
                }
                let isOptional = type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
                let escaping = type.is(FunctionTypeSyntax.self) ? "@escaping " : ""
                var parameter = "\(identifier.text): \(escaping)\(type.description)"
                if let initial = binding.initializer?.value.trimmed {
                    parameter += " = \(initial.description)"
                } else if !isLet && isOptional {
                    parameter += " = nil"
                }
                members.append(Member(name: identifier.text, parameter: parameter))
            }
        }
        return members
    }

    /// Whether a binding stores a value: no accessors, or only observers (`willSet`, `didSet`).
    static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        switch binding.accessorBlock?.accessors {
        case nil:
            return true
        case .getter:
            return false
        case .accessors(let accessors):
            return accessors.allSatisfy { accessor in
                [.keyword(.willSet), .keyword(.didSet)].contains(accessor.accessorSpecifier.tokenKind)
            }
        }
    }
}

extension MemberwiseInitMacro {
    /// The error for a use it cannot expand, reported at the place that is wrong.
    static func unsupported(_ node: some SyntaxProtocol, _ message: String) -> DiagnosticsError {
        DiagnosticsError(diagnostics: [Diagnostic(node: node, message: UnsupportedUse(message: message))])
    }
}

/// What is wrong with a use of `@MemberwiseInit`.
struct UnsupportedUse: DiagnosticMessage {
    var message: String
    var diagnosticID: MessageID { MessageID(domain: "MemberwiseInit", id: "unsupported") }
    var severity: DiagnosticSeverity { .error }
}

/// The compiler plug-in that serves the macros of this module.
@main
struct MemberwiseInitPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [MemberwiseInitMacro.self]
}
