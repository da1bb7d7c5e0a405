// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "NoteTaker",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "NoteTakerKit", targets: ["NoteTakerKit"]),
        .executable(name: "notetaker", targets: ["notetaker"]),
        .executable(name: "notetaker-full", targets: ["notetaker-full"]),
        .executable(name: "notetaker-server", targets: ["notetaker-server"]),
        .executable(name: "notetaker-bench", targets: ["notetaker-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
    ],
    targets: [
        .target(name: "NoteTakerSyncProtocol"),
        // Builds a module's page and documents into its code, so executables need no resource bundle.
        .executableTarget(name: "EmbedFilesTool", path: "Plugins/EmbedFilesTool"),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["EmbedFilesTool"]),
        .target(name: "NoteTakerMarkdown"),
        .target(
            name: "NoteTakerModel",
            dependencies: ["NoteTakerSyncProtocol"],
            exclude: ["Strings", "embedded-files.txt"],
            plugins: ["EmbedFiles"]
        ),
        .target(
            name: "NoteTakerKit",
            dependencies: [
                "NoteTakerModel",
                "NoteTakerSyncProtocol",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "NoteTakerSync",
            dependencies: [
                "NoteTakerKit",
                "NoteTakerSyncProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "NoteTakerInterchange",
            dependencies: [
                "NoteTakerKit",
                "NoteTakerMarkdown",
                "NoteTakerSyncProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .target(
            name: "NoteTakerHTTP",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
        .target(
            name: "NoteTakerWeb",
            dependencies: [
                "NoteTakerKit",
                "NoteTakerSyncProtocol",
                "NoteTakerSync",
                "NoteTakerHTTP",
                "NoteTakerInterchange",
                .product(name: "Hummingbird", package: "hummingbird"),
                "NoteTakerMarkdown",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            exclude: ["Public", "openapi.json", "embedded-files.txt"],
            plugins: ["EmbedFiles"]
        ),
        .target(
            name: "NoteTakerCLI",
            dependencies: [
                "NoteTakerKit",
                "NoteTakerSyncProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Strings", "embedded-files.txt"],
            plugins: ["EmbedFiles"]
        ),
        .target(
            name: "NoteTakerCLIFull",
            dependencies: [
                "NoteTakerCLI",
                "NoteTakerKit",
                "NoteTakerSync",
                "NoteTakerSyncProtocol",
                "NoteTakerInterchange",
                "NoteTakerWeb",
                "NoteTakerHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "NoteTakerServer",
            dependencies: [
                "NoteTakerSyncProtocol",
                "NoteTakerHTTP",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            exclude: ["openapi.json", "Published", "embedded-files.txt"],
            plugins: ["EmbedFiles"]
        ),
        // `notetaker` hands sync, serve, import and export to `notetaker-full` (see CompanionCommand).
        .executableTarget(name: "notetaker", dependencies: ["NoteTakerCLI"]),
        .executableTarget(name: "notetaker-full", dependencies: ["NoteTakerCLIFull"]),
        .executableTarget(
            name: "notetaker-server",
            dependencies: [
                "NoteTakerServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "notetaker-bench",
            dependencies: [
                "NoteTakerKit",
                "NoteTakerSync",
                "NoteTakerMarkdown",
                "NoteTakerInterchange",
                "NoteTakerServer",
                "NoteTakerWeb",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "NoteTakerModelTests", dependencies: ["NoteTakerModel"]),
        .testTarget(name: "NoteTakerKitTests", dependencies: ["NoteTakerKit"]),
        .testTarget(name: "NoteTakerSyncProtocolTests", dependencies: ["NoteTakerSyncProtocol", "NoteTakerServerTestSupport"]),
        .testTarget(name: "NoteTakerMarkdownTests", dependencies: ["NoteTakerMarkdown"], resources: [.copy("Fixtures")]),
        .testTarget(name: "NoteTakerInterchangeTests", dependencies: [
            "NoteTakerInterchange", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        ]),
        .testTarget(name: "NoteTakerCLITests", dependencies: [
            "NoteTakerCLI", "NoteTakerSyncProtocol", "notetaker", "notetaker-full", "notetaker-server", "NoteTakerServerTestSupport",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        .target(
            name: "NoteTakerServerTestSupport",
            dependencies: [
                "NoteTakerServer",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/NoteTakerServerTestSupport"
        ),
        .testTarget(
            name: "NoteTakerServerTests",
            dependencies: [
                "NoteTakerServer",
                "NoteTakerServerTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "NoteTakerSyncTests",
            dependencies: [
                "NoteTakerKit", "NoteTakerSync", "NoteTakerServer", "NoteTakerServerTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "NoteTakerWebTests",
            dependencies: [
                "NoteTakerWeb",
                "NoteTakerSync",
                "NoteTakerInterchange",
                "NoteTakerServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
