import MemberwiseInitMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The initialiser `@MemberwiseInit` writes, compared as source with what the compiler's own
/// memberwise initialiser would take.
@Suite struct MemberwiseInitMacroTests {
    let macros = ["MemberwiseInit": MacroSpec(type: MemberwiseInitMacro.self)]

    func expand(
        _ source: String,
        to expected: String,
        diagnostics: [DiagnosticSpec] = [],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) {
        assertMacroExpansion(
            source,
            expandedSource: expected,
            diagnostics: diagnostics,
            macroSpecs: macros,
            failureHandler: { failure in
                Issue.record(
                    Comment(rawValue: failure.message),
                    sourceLocation: SourceLocation(
                        fileID: failure.location.fileID,
                        filePath: failure.location.filePath,
                        line: failure.location.line,
                        column: failure.location.column
                    )
                )
            },
            fileID: fileID,
            filePath: filePath,
            line: line
        )
    }

    @Test func publicStructGetsPublicInitInDeclarationOrder() {
        expand(
            """
            @MemberwiseInit
            public struct Span {
                public var from: Int
                public var count: Int?
                public let label: String?
            }
            """,
            to: """
                public struct Span {
                    public var from: Int
                    public var count: Int?
                    public let label: String?

                    public init(from: Int, count: Int? = nil, label: String?) {
                        self.from = from
                        self.count = count
                        self.label = label
                    }
                }
                """
        )
    }

    @Test func initialValuesBecomeDefaultsAndConstantsWithValuesAreLeftOut() {
        expand(
            """
            @MemberwiseInit
            struct Settings {
                var width: Double = 320
                let version = 1
                var `where`: [String]?
            }
            """,
            to: """
                struct Settings {
                    var width: Double = 320
                    let version = 1
                    var `where`: [String]?

                    init(width: Double = 320, `where`: [String]? = nil) {
                        self.width = width
                        self.`where` = `where`
                    }
                }
                """
        )
    }

    @Test func computedAndStaticPropertiesAreNotParameters() {
        expand(
            """
            @MemberwiseInit
            public struct Row {
                public static let empty = Row(cells: [])
                public var cells: [String] { didSet { } }
                public var count: Int { cells.count }
                public var first: String? {
                    get { cells.first }
                    set { }
                }
                public var onChange: (Int) -> Void
            }
            """,
            to: """
                public struct Row {
                    public static let empty = Row(cells: [])
                    public var cells: [String] { didSet { } }
                    public var count: Int { cells.count }
                    public var first: String? {
                        get { cells.first }
                        set { }
                    }
                    public var onChange: (Int) -> Void

                    public init(cells: [String], onChange: @escaping (Int) -> Void) {
                        self.cells = cells
                        self.onChange = onChange
                    }
                }
                """
        )
    }

    @Test func aPropertyWithoutATypeIsReported() {
        expand(
            """
            @MemberwiseInit
            struct Guess {
                var count = 0
            }
            """,
            to: """
                struct Guess {
                    var count = 0
                }
                """,
            diagnostics: [DiagnosticSpec(message: "@MemberwiseInit needs a type on 'count'", line: 3, column: 9)]
        )
    }

    @Test func anEnumIsReported() {
        expand(
            """
            @MemberwiseInit
            enum Side {
                case left, right
            }
            """,
            to: """
                enum Side {
                    case left, right
                }
                """,
            diagnostics: [DiagnosticSpec(message: "@MemberwiseInit applies to a struct", line: 1, column: 1)]
        )
    }
}
