// swift-tools-version:6.2
import CompilerPluginSupport
import PackageDescription

/// Settings every target gets: Swift 6 language mode with complete strict concurrency.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    // The compiler still proves exclusive access statically; release builds skip the run-time
    // check of each access to a class's stored property, a measurable share of a small request.
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "datatabled",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "datatable", targets: ["datatable"]),
        .executable(name: "datatable-bench", targets: ["datatable-bench"]),
        .executable(name: "datatabled", targets: ["datatabled"]),
        .executable(name: "datatabled-fuzz", targets: ["datatabled-fuzz"]),
        .library(name: "DataTableClient", targets: ["DataTableClient"]),
        .library(name: "DataTableEngine", targets: ["DataTableEngine"]),
        .library(name: "DataTableProtocol", targets: ["DataTableProtocol"]),
        .library(name: "DataTableServer", targets: ["DataTableServer"]),
        .library(name: "DataTableSources", targets: ["DataTableSources"]),
        .library(name: "DataTableSystemd", targets: ["DataTableSystemd"]),
        .library(name: "DataTableVocabulary", targets: ["DataTableVocabulary"]),
        .library(name: "TextMeasure", targets: ["TextMeasure"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax.git", from: "603.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.2"),
    ],
    targets: [
        // libFuzzer's driver, declared for the fuzz target (linked only under -sanitize=fuzzer).
        .target(name: "CLibFuzzer"),

        // openat2 (not wrapped by glibc): opening a client's path strictly beneath a directory.
        .target(name: "CFileAccess"),
        // Hints to the processor's caches (prefetch), for the engine's lookups at random.
        .target(name: "CMemoryHints"),

        // Regular expressions in time linear in the text (RE2, through a small C shim).
        .target(name: "CRegex", linkerSettings: [.linkedLibrary("re2")]),

        // C bridge to fontconfig, which finds font files by family and style.
        .systemLibrary(
            name: "CFontconfig",
            pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]
        ),

        // C bridge to HarfBuzz, which shapes text to measure it in points.
        .systemLibrary(
            name: "CHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]
        ),

        // Line editing, history and completion for `datatable shell` (libedit, BSD-licensed).
        .systemLibrary(
            name: "CLibEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),

        // C bridge to libpq, which reads an attached relation's rows with COPY … TO STDOUT
        // (postgres-nio speaks everything else).
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),

        // C bridge to libsystemd (sd-daemon and sd-journal), found through pkg-config.
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),

        // The command-line client: a subcommand per method, text output, the terminal viewer.
        .executableTarget(
            name: "datatable",
            dependencies: [
                "CLibEdit",
                "DataTableClient",
                "DataTableProtocol",
                "DataTableWeb",
                "TextMeasure",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // `datatable web`: a page and a WebSocket on loopback that carry a browser's JSON-RPC lines
        // to the daemon's socket as the user who runs it; the page's files are built in.
        .target(
            name: "DataTableWeb",
            dependencies: [
                "TextMeasure",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
            ],
            resources: [
                .embedInCode("Page/index.html"),
                .embedInCode("Page/page.css"),
                .embedInCode("Page/main.js"),
                .embedInCode("Page/rpc.js"),
                .embedInCode("Page/live-window.js"),
                .embedInCode("Page/table-view.js"),
                .embedInCode("Page/list-view.js"),
                .embedInCode("Page/editors.js"),
                .embedInCode("Page/section-headers.js"),
            ]
        ),

        // The benchmark: a large table in a real daemon, figures beside their targets.
        .executableTarget(
            name: "datatable-bench",
            dependencies: [
                "DataTableClient",
                "DataTableProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The daemon.
        .executableTarget(
            name: "datatabled",
            dependencies: [
                "DataTableEngine",
                "DataTableProtocol",
                "DataTableServer",
                "DataTableSources",
                "DataTableSystemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // The fuzz target: the request path under libFuzzer (scripts/fuzz), or replaying saved inputs.
        .executableTarget(
            name: "datatabled-fuzz",
            dependencies: [
                "CLibFuzzer",
                "DataTableEngine",
                "DataTableProtocol",
                "DataTableServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),

        // A client library: one connection to the daemon, line in, line out.
        .target(
            name: "DataTableClient",
            dependencies: ["DataTableProtocol"]
        ),

        // The fixed sets of names the engine, the wire and the clients share (units, column
        // types, alignments, …): one type each.
        .target(name: "DataTableVocabulary", dependencies: ["MemberwiseInit"]),

        // `@MemberwiseInit`: a struct's memberwise initialiser with the struct's own access level,
        // so public wire types need not repeat each member in a hand-written `init`.
        .target(name: "MemberwiseInit", dependencies: ["MemberwiseInitMacros"]),
        .macro(
            name: "MemberwiseInitMacros",
            dependencies: [
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "MemberwiseInitTests",
            dependencies: [
                "MemberwiseInitMacros",
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),

        // The pure table engine: no I/O, no sockets, no clocks it does not get handed.
        .target(
            name: "DataTableEngine",
            dependencies: [
                "CMemoryHints",
                "CRegex",
                "DataTableVocabulary",
                "TextMeasure",
                .product(name: "Collections", package: "swift-collections"),
            ]
        ),
        .testTarget(
            name: "DataTableEngineTests",
            dependencies: [
                "DataTableEngine",
                "TestSupport",
                "TextMeasure",
                // The export tests compare with the CSV writer the export once used.
                .product(name: "CSV", package: "CSV.swift"),
            ]
        ),

        // Wire types: the JSON-RPC envelope, error codes and kinds, one type per method.
        .target(name: "DataTableProtocol", dependencies: ["DataTableVocabulary", "MemberwiseInit"]),
        .testTarget(name: "DataTableProtocolTests", dependencies: ["DataTableProtocol", "TestSupport"]),

        // The socket server: framing, dispatch, connections, listeners.
        .target(
            name: "DataTableServer",
            dependencies: [
                "CFileAccess",
                "DataTableEngine",
                "DataTableProtocol",
                "TextMeasure",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "DataTableServerTests",
            dependencies: [
                "DataTableProtocol",
                "DataTableServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ]
        ),

        // The databases tables are attached to (`--source`): PostgreSQL through postgres-nio, and
        // libpq for COPY.
        .target(
            name: "DataTableSources",
            dependencies: [
                "CLibPQ",
                "DataTableEngine",
                "DataTableProtocol",
                "DataTableServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),

        // systemd glue: socket activation, sd_notify, watchdog, journald logging.
        .target(
            name: "DataTableSystemd",
            dependencies: [
                "CSystemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "DataTableSystemdTests",
            dependencies: [
                "DataTableSystemd",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Measuring text: terminal cells, or points in a font shaped with HarfBuzz; no sockets.
        .target(name: "TextMeasure", dependencies: ["CFontconfig", "CHarfBuzz"]),
        .testTarget(name: "TextMeasureTests", dependencies: ["TestSupport", "TextMeasure"]),

        // End-to-end tests: the real daemon binary on real sockets, under systemd tools.
        .testTarget(
            name: "DaemonIntegrationTests",
            dependencies: [
                "DataTableClient",
                "DataTableProtocol",
                "TestSupport",
                "TextMeasure",
            ]
        ),

        // What several test targets share: a seeded random number generator.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
    ]
)

for target in package.targets
where target.type != .system && !["CLibFuzzer", "CFileAccess", "CRegex"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
