// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "NoteTaker",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "NoteTakerKit", targets: ["NoteTakerKit"]),
        .executable(name: "notetaker", targets: ["notetaker"]),
        .executable(name: "notetaker-bench", targets: ["notetaker-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
    ],
    targets: [
        .target(
            name: "NoteTakerKit",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "NoteTakerCLI",
            dependencies: [
                "NoteTakerKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "notetaker", dependencies: ["NoteTakerCLI"]),
        .executableTarget(
            name: "notetaker-bench",
            dependencies: [
                "NoteTakerKit",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "NoteTakerKitTests", dependencies: ["NoteTakerKit"]),
        .testTarget(name: "NoteTakerCLITests", dependencies: ["NoteTakerCLI", "notetaker"]),
    ]
)
